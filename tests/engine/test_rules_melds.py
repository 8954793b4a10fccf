"""RULES.md 6.1 and 6.2: meld validation (E1-E19) and extending / moving the wild (E20-E30).

Unless a case says otherwise: default ruleset, 2 players, A = seat 0 (line 0) to play after his
ACQUIRE, B = seat 1. A's hand always holds two spare cards (9C KD) so that no case empties the
hand (R53), unless the case is about that.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from burraco.engine import ATTACH, Action, IllegalActionError, Meld, Rules, Smazzata, find_rules
from burraco.engine.cards import Card
from burraco.engine.position import build_position
from burraco.engine.state import Phase

ITALIAN = find_rules("italian")
REALE = find_rules("reale")
SPARE = "9C KD"


def positions(*ps: int) -> int:
    """The run mask holding positions ``ps`` (ace-low = 1, ..., K = 13, ace-high = 14)."""
    return sum(1 << p for p in ps)


def span(low: int, high: int) -> int:
    return positions(*range(low, high + 1))


def position(
    hand: str,
    melds: Sequence[str] = (),
    *,
    rules: Rules = ITALIAN,
    spare: str = SPARE,
) -> Smazzata:
    """A to play (after drawing) holding ``hand`` plus the spare cards; line A has ``melds``."""
    hands = [f"{hand} {spare}", "3D 4D 9S", "3S 4S 9D", "5D 6S 10S"][: rules.players]
    return build_position(
        rules,
        hands=hands,
        melds={0: list(melds)} if melds else None,
        pile="QD",
        stock_size=20,
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )


def snapshot(s: Smazzata) -> tuple[object, ...]:
    """Everything an illegal action must leave untouched."""
    return (
        sorted(s.all_cards()),
        [s.hand(seat) for seat in range(s.players)],
        [[m.notation() for m in line] for line in s.melds],
        s.discard_pile,
        s.stock_size,
        s.phase,
        s.current,
        tuple(s.taken),
        s.legal_actions(),
    )


def assert_illegal(s: Smazzata, text: str, rule: str) -> IllegalActionError:
    """``text`` is rejected citing ``rule``, by verify and apply alike, and changes nothing."""
    action = Action.parse(text)
    before = snapshot(s)
    assert action not in s.legal_actions()
    assert not s.can(action)
    with pytest.raises(IllegalActionError) as verified:
        s.verify(action)
    with pytest.raises(IllegalActionError) as applied:
        s.apply(action)
    for error in (verified.value, applied.value):
        assert error.rule == rule, str(error)
        assert f"({rule})" in str(error)
    assert snapshot(s) == before
    return applied.value


def play(s: Smazzata, text: str) -> None:
    """Apply a legal action, checking first that the move generator lists it."""
    action = Action.parse(text)
    assert action in s.legal_actions(), f"{text} is not generated"
    s.apply(action)


def meld(s: Smazzata, number: int, line: int = 0) -> Meld:
    return s.line_melds(line)[number - 1]


def cards(text: str) -> list[Card]:
    return sorted(Card.parse(w) for w in text.split())


# --------------------------------------------------------------------- 6.1 meld validation


def test_E1_open_three_consecutive_hearts_is_a_clean_run() -> None:
    """E1: A holds 5H 6H 7H; OPEN [5H 6H 7H] -> valid clean run, positions 5-7 (R29)."""
    s = position("5H 6H 7H")
    play(s, "0 open 5H 6H 7H")
    m = meld(s, 1)
    assert m.is_run
    assert m.notation() == "5H 6H 7H"
    assert m.wild is None
    assert m.mask == span(5, 7)
    assert len(m) == 3
    assert s.hand(0) == cards(SPARE)


def test_E2_queen_king_ace_puts_the_ace_high() -> None:
    """E2: A holds QS KS AS; OPEN -> valid: Q-K-A, ace high (14) (R29)."""
    s = position("QS KS AS")
    play(s, "0 open QS KS AS")
    m = meld(s, 1)
    assert m.notation() == "QS KS AS"
    assert m.wild is None
    assert m.mask == positions(12, 13, 14)
    assert len(m) == 3


def test_E3_ace_two_three_of_a_suit_is_clean_with_a_natural_two() -> None:
    """E3: A holds AS 2S 3S; OPEN -> valid clean run A-2-3; 2S natural; 0 wilds (R34, R35)."""
    s = position("AS 2S 3S")
    play(s, "0 open AS 2S 3S")
    m = meld(s, 1)
    assert m.notation() == "AS 2S* 3S"
    assert m.wild is None
    assert m.mask == positions(1, 2, 3)
    assert len(m) == 3


def test_E4_two_three_four_of_a_suit_is_clean() -> None:
    """E4: A holds 2H 3H 4H; OPEN -> valid clean run 2-3-4 (2H natural) (R34)."""
    s = position("2H 3H 4H")
    play(s, "0 open 2H 3H 4H")
    m = meld(s, 1)
    assert m.notation() == "2H* 3H 4H"
    assert m.wild is None
    assert m.mask == positions(2, 3, 4)


def test_E5_king_ace_two_three_wrap_is_illegal() -> None:
    """E5: A holds KS AS 2S 3S; OPEN -> invalid: K-A-2-3 wrap (R30, R35)."""
    s = position("KS AS 2S 3S")
    assert_illegal(s, "0 open KS AS 2S 3S", "R30")
    assert s.line_melds(0) == ()


def test_E6_king_ace_with_the_suit_two_is_a_dirty_run_not_a_wrap() -> None:
    """E6: A holds KS AS 2S; OPEN -> valid dirty run 2S(QS) KS AS (R30, R34, R35)."""
    s = position("KS AS 2S")
    play(s, "0 open KS AS 2S")
    m = meld(s, 1)
    assert m.notation() == "2S(QS) KS AS"
    assert m.wild == Card.parse("2S")
    assert m.represented() == Card.parse("QS")
    assert m.mask == positions(13, 14)
    assert len(m) == 3


def test_E7_two_wilds_with_one_natural_is_illegal() -> None:
    """E7: A holds 5H JK 2C; OPEN -> invalid: two wilds (JK and 2C) with one natural (R24)."""
    s = position("5H JK 2C")
    assert_illegal(s, "0 open 5H JK 2C", "R24")


def test_E8_set_with_two_wilds_is_illegal() -> None:
    """E8: A holds 7C 7D JK 2H; OPEN -> invalid: set with two wilds (R24)."""
    s = position("7C 7D JK 2H")
    assert_illegal(s, "0 open 7C 7D JK 2H", "R24")


def test_E9_melds_of_only_wilds_are_illegal() -> None:
    """E9: A holds JK JK' 2S; or 2C 2D 2H; OPEN -> invalid: only wilds / set of 2s (R25)."""
    s = position("JK JK 2S")
    assert_illegal(s, "0 open JK JK 2S", "R25")
    s = position("2C 2D 2H")
    assert_illegal(s, "0 open 2C 2D 2H", "R25")


def test_E10_natural_two_plus_an_off_suit_two_as_the_wild() -> None:
    """E10: A holds AH 2H 3H 2S; OPEN -> valid dirty run AH 2H*(2) 3H 2S(4H) (R36)."""
    s = position("AH 2H 3H 2S")
    play(s, "0 open AH 2H 3H 2S")
    m = meld(s, 1)
    assert m.notation() == "AH 2H* 3H 2S(4H)"
    assert m.wild == Card.parse("2S")
    assert m.mask == positions(1, 2, 3)
    assert len(m) == 4


def test_E11_twin_twos_one_natural_one_floating_wild() -> None:
    """E11: A holds 2H 2H' 3H; OPEN -> valid dirty run: one 2H natural, the other wild (R35)."""
    s = position("2H 2H 3H")
    play(s, "0 open 2H 2H 3H")
    m = meld(s, 1)
    # One 2H natural at position 2; the other is the wild, floating (A or 4; shown low, R39).
    assert m.notation() == "2H(AH) 2H* 3H"
    assert m.wild == Card.parse("2H")
    assert m.mask == positions(2, 3)
    assert m.wild_is_floating()
    assert len(m) == 3
    # Floating: attaching the AH sends the wild 2H to the 4 end; the natural 2H stays at 2.
    s2 = position("2H 2H 3H AH")
    play(s2, "0 open 2H 2H 3H")
    play(s2, "0 attach 1 AH")
    assert meld(s2, 1).notation() == "AH 2H* 3H 2H(4H)"
    assert meld(s2, 1).wild == Card.parse("2H")


def test_E12_ace_two_four_is_illegal_either_way() -> None:
    """E12: A holds AH 2H 4H; OPEN -> invalid: 3 missing if 2H natural, 2 empty if 2H is 3 (R35)."""
    s = position("AH 2H 4H")
    assert_illegal(s, "0 open AH 2H 4H", "R35")


def test_E13_natural_two_and_an_internal_joker() -> None:
    """E13: A holds AH 2H JK 4H; OPEN -> valid dirty run AH 2H* JK(3H) 4H (R35, R37)."""
    s = position("AH 2H JK 4H")
    play(s, "0 open AH 2H JK 4H")
    m = meld(s, 1)
    assert m.notation() == "AH 2H* JK(3H) 4H"
    assert m.wild == Card.parse("JK")
    assert m.mask == positions(1, 2, 4)
    assert not m.wild_is_floating()
    assert len(m) == 4


def test_E14_set_with_both_deck_copies() -> None:
    """E14: A holds 7C 7C' 7D; OPEN -> valid set (duplicates from the two decks allowed) (R26)."""
    s = position("7C 7C 7D")
    play(s, "0 open 7C 7C 7D")
    m = meld(s, 1)
    assert m.is_set
    assert m.notation() == "7C 7C 7D"
    assert m.wild is None
    assert len(m) == 3


def test_E15_second_set_of_the_same_rank_is_illegal_attach_instead() -> None:
    """E15: line A has set [7C 7D 7H]; A OPENs [7S 7S' JK] -> illegal (R27); ATTACH is fine."""
    s = position("7S 7S JK", ["7C 7D 7H"])
    assert_illegal(s, "0 open 7S 7S JK", "R27")
    play(s, "0 attach 1 7S 7S JK")
    assert len(s.line_melds(0)) == 1
    m = meld(s, 1)
    assert m.is_set
    assert m.notation() == "7C 7D 7H 7S 7S JK"
    assert len(m) == 6
    assert m.wild == Card.parse("JK")
    assert m.burraco_type(ITALIAN) is None  # 6 cards: dirty, but not yet a burraco


def test_E16_a_run_may_hold_the_rank_of_an_existing_set() -> None:
    """E16: line A has set [7C 7D 7H]; A OPENs run [5D 6D 7D] -> legal (R27)."""
    s = position("5D 6D 7D", ["7C 7D 7H"])
    play(s, "0 open 5D 6D 7D")
    assert [m.notation() for m in s.line_melds(0)] == ["7C 7D 7H", "5D 6D 7D"]
    assert meld(s, 2).is_run


@pytest.mark.parametrize("new", ["3H 4H 5H", "9H 10H JH", "6H 7H 8H"])
def test_E17_several_runs_of_one_suit_never_merge(new: str) -> None:
    """E17: line A has run [3H 4H 5H]; A OPENs [3H' 4H' 5H'] or [9H 10H JH] -> legal (R32)."""
    # 6H 7H 8H is adjacent to 3H 4H 5H: still a separate meld (runs never merge).
    s = position(new, ["3H 4H 5H"])
    play(s, f"0 open {new}")
    assert [m.notation() for m in s.line_melds(0)] == ["3H 4H 5H", new]
    assert all(len(m) == 3 and m.wild is None for m in s.line_melds(0))


ACE_TO_KING_H = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def test_E18_joker_as_fourteenth_card_of_a_full_run() -> None:
    """E18: line A has run AH 2H ... KH (13 naturals); ATTACH JK -> valid: JK as high ace (R31)."""
    s = position("JK", [ACE_TO_KING_H])
    play(s, "0 attach 1 JK")
    m = meld(s, 1)
    assert m.notation() == "AH 2H* 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK(AH)"
    assert m.wild == Card.parse("JK")
    assert m.represented() == Card.parse("AH")
    assert m.mask == span(1, 13)
    assert len(m) == 14
    assert m.burraco_type(ITALIAN) == "dirty"


def test_E19_second_natural_ace_illegal_by_default_legal_in_reale() -> None:
    """E19: run AH ... KH; ATTACH second AH -> illegal by default (R31); Reale: 14-card Reale."""
    s = position("AH", [ACE_TO_KING_H])
    assert_illegal(s, "0 attach 1 AH", "R31")

    reale = position("AH", [ACE_TO_KING_H], rules=REALE)
    assert reale.players == 4
    play(reale, "0 attach 1 AH")
    m = meld(reale, 1)
    assert m.notation() == "AH 2H* 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert m.wild is None
    assert m.mask == span(1, 14)
    assert len(m) == 14
    assert m.burraco_type(REALE) == "reale"


# ----------------------------------------------------------- 6.2 extending and moving the wild


def test_E20_attaching_the_gap_card_frees_the_wild_which_later_becomes_natural() -> None:
    """E20: 4H 5H 2H(6H) 7H 8H 9H 10H; (a) ATTACH 6H -> dirty 8; (b) ATTACH 3H -> clean 9 (R42)."""
    # A has his pozzetto and keeps 9C for a closing discard, so the end-of-smazzata
    # classification (R42) can be scored.
    s = build_position(
        ITALIAN,
        hands=["6H 3H 9C", "3D 4D 9S"],
        melds={0: ["4H 5H 2H 7H 8H 9H 10H"]},
        pile="QD",
        stock_size=20,
        taken={0: 0, 1: 1},
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )
    before = meld(s, 1)
    assert before.notation() == "4H 5H 2H(6H) 7H 8H 9H 10H"
    assert not before.wild_is_floating()
    assert before.burraco_type(ITALIAN) == "dirty"

    # (a) the 6H displaces the 2H, which floats at 3 or J; it cannot be natural there.
    play(s, "0 attach 1 6H")
    m = meld(s, 1)
    assert m.notation() == "2H(3H) 4H 5H 6H 7H 8H 9H 10H"
    assert m.wild == Card.parse("2H")
    assert m.wild_is_floating()
    assert m.mask == span(4, 10)
    assert len(m) == 8
    assert m.burraco_type(ITALIAN) == "dirty"

    # (b) the 3H takes position 3: the 2H now sits at 2 next to it and is a natural 2.
    play(s, "0 attach 1 3H")
    m = meld(s, 1)
    assert m.notation() == "2H* 3H 4H 5H 6H 7H 8H 9H 10H"
    assert m.wild is None
    assert m.mask == span(2, 10)
    assert len(m) == 9
    assert m.burraco_type(ITALIAN) == "clean"

    play(s, "0 discard 9C")  # closing
    score = s.score()
    assert score.ended == "closing"
    line = score.lines[0]
    assert line.burrachi == ("clean",)
    assert line.burraco_bonus == 200
    assert line.melds == 20 + 5 * 5 + 3 * 10
    assert line.score == 75 + 200 + 100


def test_E21_seed_example_joker_moves_down_to_the_jack() -> None:
    """E21: line A: QH JK(KH) AH (the [S002] example); ATTACH KH -> JK(JH) QH KH AH (R38)."""
    s = position("KH", ["QH JK AH"])
    assert meld(s, 1).notation() == "QH JK(KH) AH"
    play(s, "0 attach 1 KH")
    m = meld(s, 1)
    assert m.notation() == "JK(JH) QH KH AH"
    assert m.wild == Card.parse("JK")
    assert m.represented() == Card.parse("JH")
    assert m.mask == positions(12, 13, 14)
    assert len(m) == 4


def test_E22_internal_wild_cannot_jump_to_another_gap() -> None:
    """E22: line A: 6C JK(7C) 8C; ATTACH 10C alone -> illegal: JK fixed in the 7 gap (R37)."""
    s = position("10C", ["6C JK 8C"])
    assert meld(s, 1).notation() == "6C JK(7C) 8C"
    assert_illegal(s, "0 attach 1 10C", "R37")


def test_E23_gap_card_and_far_card_in_one_attach() -> None:
    """E23: 6C JK(7C) 8C; ATTACH 7C and 10C in one action -> 6C 7C 8C JK(9C) 10C (R23, R37)."""
    s = position("7C 10C", ["6C JK 8C"])
    play(s, "0 attach 1 7C 10C")
    m = meld(s, 1)
    assert m.notation() == "6C 7C 8C JK(9C) 10C"
    assert m.wild == Card.parse("JK")
    assert not m.wild_is_floating()
    assert m.mask == positions(6, 7, 8, 10)
    assert len(m) == 5


def test_E24_floating_wild_stays_free_when_the_run_grows() -> None:
    """E24: line A: 5H 6H 7H JK(8H) floating; ATTACH 4H -> legal; JK at 8 or shown at 3 (R37)."""
    s = position("4H 3H 8H", ["5H 6H 7H JK"])
    assert meld(s, 1).wild_is_floating()
    play(s, "0 attach 1 4H")
    m = meld(s, 1)
    assert m.notation() == "JK(3H) 4H 5H 6H 7H"  # shown low (R39); it may stand at 8 as well
    assert m.wild == Card.parse("JK")
    assert m.wild_is_floating()
    assert m.mask == span(4, 7)
    assert len(m) == 5
    # Both ends stay open to the floating joker: 3H or 8H may still be attached.
    assert s.can(Action.parse("0 attach 1 3H"))
    assert s.can(Action.parse("0 attach 1 8H"))
    play(s, "0 attach 1 3H")
    assert meld(s, 1).notation() == "JK(2H) 3H 4H 5H 6H 7H"


def test_E25_natural_two_displaces_the_joker_to_the_top() -> None:
    """E25: line A: AH JK(2H) 3H 4H; ATTACH 2H -> 2H natural, JK floats at 5; dirty (R34, R38)."""
    s = position("2H", ["AH JK 3H 4H"])
    assert meld(s, 1).notation() == "AH JK(2H) 3H 4H"
    play(s, "0 attach 1 2H")
    m = meld(s, 1)
    assert m.notation() == "AH 2H* 3H 4H JK(5H)"
    assert m.wild == Card.parse("JK")
    assert m.represented() == Card.parse("5H")
    assert m.mask == span(1, 4)
    assert len(m) == 5


def test_E26_suit_two_below_a_three_is_natural_and_keeps_the_run_clean() -> None:
    """E26: line A: run 3H...9H (7 clean); ATTACH 2H -> natural 2: clean 8-card run (R35)."""
    s = position("2H", ["3H 4H 5H 6H 7H 8H 9H"])
    play(s, "0 attach 1 2H")
    m = meld(s, 1)
    assert m.notation() == "2H* 3H 4H 5H 6H 7H 8H 9H"
    assert m.wild is None
    assert m.mask == span(2, 9)
    assert len(m) == 8
    assert m.burraco_type(ITALIAN) == "clean"


def test_E27_natural_two_joins_a_run_that_already_has_a_wild() -> None:
    """E27: line A: 3H...9H + 2S floating (dirty); ATTACH 2H -> 2H natural, 2S still wild (R36)."""
    s = position("2H", ["3H 4H 5H 6H 7H 8H 9H 2S"])
    assert meld(s, 1).wild == Card.parse("2S")
    play(s, "0 attach 1 2H")
    m = meld(s, 1)
    assert m.notation() == "2S(AH) 2H* 3H 4H 5H 6H 7H 8H 9H"  # 2S at A or 10, shown low
    assert m.wild == Card.parse("2S")
    assert m.wild_is_floating()
    assert m.mask == span(2, 9)
    assert len(m) == 9
    assert m.burraco_type(ITALIAN) == "dirty"


def test_E28_dirty_set_stays_dirty() -> None:
    """E28: line A: dirty set 8C 8D JK; ATTACH 8H 8S 8C' 8D' -> 7-card dirty burraco (R28)."""
    s = position("8H 8S 8C 8D", ["8C 8D JK"])
    play(s, "0 attach 1 8H 8S 8C 8D")
    m = meld(s, 1)
    assert m.is_set
    assert m.notation() == "8C 8C 8D 8D 8H 8S JK"
    assert m.wild == Card.parse("JK")
    assert len(m) == 7
    assert m.burraco_type(ITALIAN) == "dirty"
    assert m.bonus(ITALIAN) == 100


def test_E29_replaced_wild_never_returns_to_the_hand() -> None:
    """E29: line A: 5H JK(6H) 7H; A holds 6H; swap 6H for the JK into hand -> illegal (R38)."""
    s = position("6H", ["5H JK 7H"])
    # The notation has no swap and no take-back: every action names cards of the hand. The only
    # legal use of the 6H here is to ATTACH it; the JK then floats to 4 or 8, inside the meld.
    attaches = [a for a in s.legal_actions() if a.verb == ATTACH]
    assert attaches == [Action.parse("0 attach 1 6H")]
    play(s, "0 attach 1 6H")
    m = meld(s, 1)
    assert m.notation() == "JK(4H) 5H 6H 7H"
    assert m.wild == Card.parse("JK")
    assert m.wild_is_floating()
    assert Card.parse("JK") not in s.hand(0)
    assert s.hand(0) == cards(SPARE)
    # The joker cannot be played from the hand afterwards: it is not there.
    assert_illegal(s, "0 discard JK", "R20")
    assert_illegal(s, "0 open 9C KD JK", "R22")
    assert all(Card.parse("JK") not in a.cards for a in s.legal_actions())


def test_E30_two_runs_of_one_suit_never_merge() -> None:
    """E30: line A: 4H...10H + 2H(JH) floating, and run JH QH KH; merging them -> illegal (R23)."""
    s = position("QH", ["4H 5H 6H 7H 8H 9H 10H 2H", "JH QH KH"])
    assert [m.notation() for m in s.line_melds(0)] == [
        "2H(3H) 4H 5H 6H 7H 8H 9H 10H",  # the floating 2H is shown low (R39); it may be JH
        "JH QH KH",
    ]
    # Moving meld 2's cards onto meld 1 would take them from the table: refused.
    assert_illegal(s, "0 attach 1 JH QH KH", "R23")
    # A QH from the hand joins meld 1 (the 2H fills J); meld 2 stays a separate meld.
    play(s, "0 attach 1 QH")
    assert [m.notation() for m in s.line_melds(0)] == [
        "4H 5H 6H 7H 8H 9H 10H 2H(JH) QH",
        "JH QH KH",
    ]
    assert len(s.line_melds(0)) == 2
