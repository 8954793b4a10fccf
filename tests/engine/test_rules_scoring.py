"""RULES.md 6.7: the scoring worked examples X1-X8.

Each example's final table is built with ``build_position`` and the smazzata is ended by a real
action (a closing discard, or a draw and discard that leaves 2 cards in the stock); then the score
sheet of ``Smazzata.score()`` is compared line by line with the arithmetic of RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from burraco.engine import Action, Rules, Smazzata, find_rules
from burraco.engine.cards import parse_cards
from burraco.engine.events import Event, SmazzataEnded
from burraco.engine.melds import Meld, check_open
from burraco.engine.position import build_position
from burraco.engine.scoring import LineScore, split_half
from burraco.engine.state import Phase

ITALIAN = find_rules("italian")


def play(s: Smazzata, text: str) -> list[Event]:
    action = Action.parse(text)
    assert action in s.legal_actions(), f"{text} is not generated"
    return s.apply(action)


def sheet(line: LineScore) -> tuple[int, int, int, int, int, int]:
    """(melds, burraco bonus, closing bonus, hand, pozzetto penalty, score)."""
    return (
        line.melds,
        line.burraco_bonus,
        line.closing_bonus,
        line.hand,
        line.pozzetto_penalty,
        line.score,
    )


# X1 / X2: A closes (2 players).
X1_MELDS_A = ["3H 4H 5H 6H 7H 8H 9H", "KS KD KC", "AC 2C 3C 4C"]
X1_MELDS_B = ["9S 10S JS JK KS", "5D 5C 5H 2D"]


def x1_position(taken: Mapping[int, int]) -> Smazzata:
    s = build_position(
        ITALIAN,
        hands=["10D", "QH 4C 2S JK"],
        melds={0: X1_MELDS_A, 1: X1_MELDS_B},
        pile="6S",
        stock_size=20,
        taken=taken,
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )
    assert [m.notation() for m in s.line_melds(1)] == ["9S 10S JS JK(QS) KS", "5C 5D 5H 2D"]
    return s


def test_X1_A_closes() -> None:
    """X1: A closes (2-player): score(A) = 45 + 200 + 30 + 45 + 100 = 420; score(B) = 40."""
    s = x1_position({0: 0, 1: 1})
    events = play(s, "0 discard 10D")
    assert events[-1] == SmazzataEnded("closing", 0)
    score = s.score()
    a, b = score.lines
    assert a.burrachi == ("clean",)
    assert sheet(a) == (45 + 30 + 45, 200, 100, 0, 0, 420)
    assert sheet(b) == (70 + 35, 0, 0, -65, 0, 40)
    assert score.result == (420, 40)
    assert score.result[0] - score.result[1] == 380


def test_X2_B_never_took_a_pozzetto() -> None:
    """X2: same as X1, but B never took a pozzetto: score(B) = 70 + 35 - 65 - 100 = -60."""
    s = x1_position({0: 0})
    play(s, "0 discard 10D")
    score = s.score()
    a, b = score.lines
    assert sheet(a) == (120, 200, 100, 0, 0, 420)
    assert sheet(b) == (105, 0, 0, -65, -100, -60)
    assert score.result == (420, -60)
    assert score.result[0] - score.result[1] == 480


def test_X3_stock_exhaustion_nobody_closes() -> None:
    """X3: stock exhaustion, nobody closes: score(A) = 170, score(B) = -230."""
    s = build_position(
        ITALIAN,
        hands=["AD 7S 2H", "3C 3D 4S 5S 9C 9D 10H 10C QD AH AS 2D JK KH"],
        melds={0: ["8C 8C 8D 8H 8S 8S JK", "6D 7D 8D"], 1: ["JC QC KC"]},
        pile="6S",
        stock="QS 4H 4D",
        taken={0: 0},
        current=0,
        phase=Phase.ACQUIRE,
    )
    play(s, "0 draw")
    events = play(s, "0 discard QS")
    assert events[-1] == SmazzataEnded("stock", None)
    score = s.score()
    assert score.ended == "stock"
    a, b = score.lines
    assert a.burrachi == ("dirty",)
    assert sheet(a) == (90 + 20, 100, 0, -40, 0, 170)
    assert sheet(b) == (30, 0, 0, -160, -100, -230)
    assert score.result == (170, -230)


X4_POZZETTO = "KH QD 10S 9C 7D 6S 5C 4H AD 2S JK"
X4_MELDS_A = ["10H JH QH KH AH", "AC AC AS", "KC KD KS", "9D 10D JD QD KD", "JC JS JK"]


def x4_score(rules: Rules) -> LineScore:
    """A took P1 con scarto (cards X4_POZZETTO, still in his hand); B closes at once."""
    s = build_position(
        rules,
        hands=[X4_POZZETTO, "9H"],
        melds={0: X4_MELDS_A, 1: ["3S 4S 5S 6S 7S 8S 9S"]},
        pile="5D",
        stock_size=20,
        taken={0: 0, 1: 1},
        unplayed={0: X4_POZZETTO},
        current=1,
        phase=Phase.PLAY,
        acquired="draw",
    )
    assert sum(m.points(rules) for m in s.line_melds(0)) == 230
    assert not s.has_burraco(0)
    events = play(s, "1 discard 9H")
    assert events[-1] == SmazzataEnded("closing", 1)
    a = s.score().lines[0]
    assert a.burrachi == ()
    return a


def test_X4_unplayed_pozzetto() -> None:
    """X4: A's table 230, unplayed P1 worth 125; B closes -> A 105 (hand_cards), 130 (penalty)."""
    pozzetto = parse_cards(X4_POZZETTO)
    assert sum(ITALIAN.card_value(c) for c in pozzetto) == 125
    assert sheet(x4_score(ITALIAN)) == (230, 0, 0, -125, 0, 105)
    penalty = find_rules("italian", unplayed_pozzetto_policy="penalty")
    assert sheet(x4_score(penalty)) == (230, 0, 0, 0, -100, 130)


def test_X5_four_players_NS_closes() -> None:
    """X5: 4-player, NS closes: NS = 310 + 200 + 100 + 100 - 15 = 695; EW = 155."""
    four = find_rules("italian", players=4)
    ns_melds = [
        "3H 4H 5H 6H 7H 8H 9H",  # clean burraco, 45
        "8C 8C 8D 8H 8S 8S JK",  # dirty burraco, 90
        "10S JS QS KS AS",  # 55
        "AC AC AD",  # 45
        "9D 10D JD QD KD",  # 50
        "3S 4S 5S 6S 7S",  # 25
    ]
    ew_melds = [
        "4D 5D 6D 7D JK 9D 10D",  # dirty burraco, 70
        "QH QH QD",  # 30
        "KC KC KH",  # 30
        "9C 10C JC",  # 30
        "6C 6C 6H 6S",  # 20
    ]
    s = build_position(
        four,
        hands=["QC", "AH 2H 3D", "7C 9H", "JK 10H JH KD 3C 4C 4C 7S 5C"],
        melds={0: ns_melds, 1: ew_melds},
        pile="5S",
        stock_size=10,
        taken={0: 0, 1: 1},
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )
    assert sum(m.points(four) for m in s.line_melds(0)) == 310
    assert sum(m.points(four) for m in s.line_melds(1)) == 180
    events = play(s, "0 discard QC")
    assert events[-1] == SmazzataEnded("closing", 0)
    score = s.score()
    ns, ew = score.lines
    assert ns.seats == (0, 2)
    assert ew.seats == (1, 3)
    assert sorted(ns.burrachi) == ["clean", "dirty"]
    assert ew.burrachi == ("dirty",)
    assert sheet(ns) == (310, 300, 100, -15, 0, 695)
    assert sheet(ew) == (180, 100, 0, -40 - 85, 0, 155)
    assert score.result == (695, 155)
    assert score.result[0] - score.result[1] == 540


ACE_TO_KING_H = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def test_X6_burraco_reale_nobile_then_reale() -> None:
    """X6: Reale: clean AH 2H* ... KH = 110 + Nobile 500 = 610; + AH' = 125 + Reale 1000 = 1125."""
    reale = find_rules("reale")
    meld = check_open(parse_cards(ACE_TO_KING_H), reale)
    assert isinstance(meld, Meld)
    assert (meld.points(reale), meld.burraco_type(reale), meld.bonus(reale)) == (110, "nobile", 500)

    def position() -> Smazzata:
        return build_position(
            reale,
            hands=["AH QC", "3D 4D", "3S 4S", "5D 6S"],
            melds={0: [ACE_TO_KING_H]},
            pile="9D",
            stock="KC KD KS",
            taken={0: 0, 1: 1},
            current=0,
            phase=Phase.PLAY,
            acquired="draw",
        )

    # Scored as it stands (the smazzata ends by exhaustion after North's discard and the next
    # player's draw and discard): 110 + 500 = 610 on the table.
    s = position()
    play(s, "0 discard QC")
    play(s, "1 draw")
    play(s, "1 discard KC")
    assert s.end_reason == "stock"
    ns = s.score().lines[0]
    assert (ns.melds, ns.burraco_bonus, ns.burrachi) == (110, 500, ("nobile",))
    assert ns.melds + ns.burraco_bonus == 610

    # After attaching AH' high: 125 + 1000, the Reale bonus replacing the Nobile one; North then
    # closes with QC (a clean burraco is on the table).
    s = position()
    play(s, "0 attach 1 AH")
    events = play(s, "0 discard QC")
    assert events[-1] == SmazzataEnded("closing", 0)
    ns = s.score().lines[0]
    assert (ns.melds, ns.burraco_bonus, ns.burrachi) == (125, 1000, ("reale",))
    assert ns.melds + ns.burraco_bonus == 1125
    assert ns.closing_bonus == 100


@pytest.mark.parametrize(
    ("preset", "bonus", "kind"),
    [("italian-semipulito", 150, "semiclean"), ("italian", 100, "dirty")],
)
def test_X7_semipura_scheme_versus_default(preset: str, bonus: int, kind: str) -> None:
    """X7: [S003] 5S 6S 7S 8S 9S 10S JS JK: 85 + semipura 150 = 235; default 85 + 100 = 185."""
    rules = find_rules(preset)
    s = build_position(
        rules,
        hands=["QC", "3D 4D"],
        melds={0: ["5S 6S 7S 8S 9S 10S JS JK"]},
        pile="9D",
        stock_size=10,
        taken={0: 0, 1: 1},
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )
    play(s, "0 discard QC")
    a = s.score().lines[0]
    assert (a.melds, a.burraco_bonus, a.burrachi) == (85, bonus, (kind,))
    assert a.melds + a.burraco_bonus == {"italian-semipulito": 235, "italian": 185}[preset]


def test_X8_three_player_split_rounds_half_away_from_zero() -> None:
    """X8: 3-player split: 355 -> 180 each; -355 -> -180 each; 350 -> 175 each."""
    assert split_half(355) == 180
    assert split_half(-355) == -180
    assert split_half(350) == 175
    # More of the same rule: halves are multiples of 5, rounded away from zero.
    assert [split_half(x) for x in (0, 5, -5, 10, 345, -350)] == [0, 5, -5, 5, 175, -175]
