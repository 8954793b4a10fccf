"""RULES.md 6.3: burraco classification, scored at the end of the smazzata (E31-E39).

Each case is classified under the default ruleset (``italian``), the [S003] pura / semipura /
impura scheme (``italian-semipulito``) and Burraco Reale (``reale``) where the table gives a value.
Besides ``Meld.burraco_type`` and ``Meld.bonus``, every classification is checked where it counts:
line A holds the meld when the smazzata ends by stock exhaustion (A draws the third-last card and
discards it), and the score sheet's burraco bonus is read.
"""

from __future__ import annotations

import pytest

from burraco.engine import Action, IllegalActionError, Meld, Rules, find_rules
from burraco.engine.cards import parse_cards
from burraco.engine.melds import MeldError, check_open
from burraco.engine.position import build_position
from burraco.engine.state import Phase

ITALIAN = find_rules("italian")
S003 = find_rules("italian-semipulito")
REALE = find_rules("reale")

BONUS = {"clean": 200, "dirty": 100, "semiclean": 150, "nobile": 500, "reale": 1000}


def open_meld(rules: Rules, text: str) -> Meld:
    result = check_open(parse_cards(text), rules)
    assert isinstance(result, Meld), result
    return result


def scored_at_end(rules: Rules, text: str) -> tuple[str, ...]:
    """Line A holds the meld ``text`` when the smazzata ends by stock exhaustion (R57).

    Returns the burraco types on line A's score sheet, after checking its bonus and card points.
    """
    others = ["3D 4D", "3S 4S", "5D 6S"][: rules.players - 1]
    s = build_position(
        rules,
        hands=["QC QD", *others],
        melds={0: [text]},
        pile="JD",
        stock="KC KD KS",
        taken={0: 0, 1: 1},
        current=0,
        phase=Phase.ACQUIRE,
    )
    for text_action in ("0 draw", "0 discard KC"):
        action = Action.parse(text_action)
        assert action in s.legal_actions()
        s.apply(action)
    assert s.is_over
    score = s.score()
    assert score.ended == "stock"
    line = score.lines[0]
    meld = s.line_melds(0)[0]
    assert line.melds == meld.points(rules)
    assert line.burraco_bonus == meld.bonus(rules)
    return line.burrachi


def check(rules: Rules, text: str, kind: str) -> None:
    meld = open_meld(rules, text)
    assert meld.burraco_type(rules) == kind
    assert meld.bonus(rules) == BONUS[kind]
    assert scored_at_end(rules, text) == (kind,)


def test_E31_run_with_a_natural_two_is_clean() -> None:
    """E31: AH 2H* 3H 4H 5H 6H 7H -> clean 200 | pura 200 | pulito 200."""
    text = "AH 2H 3H 4H 5H 6H 7H"
    assert open_meld(ITALIAN, text).notation() == "AH 2H* 3H 4H 5H 6H 7H"
    assert open_meld(ITALIAN, text).wild is None
    check(ITALIAN, text, "clean")
    check(S003, text, "clean")
    check(REALE, text, "clean")


def test_E32_internal_joker_is_dirty() -> None:
    """E32: 5S 6S 7S JK(8S) 9S 10S JS -> dirty 100 | impura 100 | n/a in Reale (no JK)."""
    text = "5S 6S 7S JK 9S 10S JS"
    assert open_meld(ITALIAN, text).notation() == "5S 6S 7S JK(8S) 9S 10S JS"
    check(ITALIAN, text, "dirty")
    check(S003, text, "dirty")
    assert REALE.jokers == 0


def test_E33_wild_at_an_end_of_seven_naturals() -> None:
    """E33: 5S 6S 7S 8S 9S 10S JS JK(QS/4S) -> dirty 100 | semipura 150."""
    text = "5S 6S 7S 8S 9S 10S JS JK"
    meld = open_meld(ITALIAN, text)
    assert meld.notation() == "JK(4S) 5S 6S 7S 8S 9S 10S JS"
    assert meld.wild_is_floating()
    check(ITALIAN, text, "dirty")
    check(S003, text, "semiclean")


def test_E34_internal_wild_in_eight_cards_is_never_semiclean() -> None:
    """E34: 5S 6S 7S JK(8S) 9S 10S JS QS -> dirty 100 | impura 100 (naturals not contiguous)."""
    text = "5S 6S 7S JK 9S 10S JS QS"
    meld = open_meld(S003, text)
    assert meld.notation() == "5S 6S 7S JK(8S) 9S 10S JS QS"
    assert len(meld) == 8
    assert not meld.wild_is_floating()
    check(ITALIAN, text, "dirty")
    check(S003, text, "dirty")


def test_E35_set_of_seven_naturals_and_a_joker() -> None:
    """E35: set 9C 9C' 9D 9D' 9H 9H' 9S + JK (8 cards) -> dirty 100 | semipura 150."""
    text = "9C 9C 9D 9D 9H 9H 9S JK"
    meld = open_meld(ITALIAN, text)
    assert meld.is_set
    assert len(meld) == 8
    check(ITALIAN, text, "dirty")
    check(S003, text, "semiclean")


def test_E36_set_of_six_naturals_and_a_joker() -> None:
    """E36: set 9C 9C' 9D 9D' 9H 9H' + JK (7 cards) -> dirty 100 | impura 100."""
    text = "9C 9C 9D 9D 9H 9H JK"
    assert len(open_meld(ITALIAN, text)) == 7
    check(ITALIAN, text, "dirty")
    check(S003, text, "dirty")


ACE_TO_KING_H = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def test_E37_ace_to_king_clean_run() -> None:
    """E37: AH 2H* 3H ... KH (13 naturals) -> clean 200 | pura 200 | Nobile 500."""
    meld = open_meld(ITALIAN, ACE_TO_KING_H)
    assert meld.notation() == "AH 2H* 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert len(meld) == 13
    assert meld.wild is None
    check(ITALIAN, ACE_TO_KING_H, "clean")
    check(S003, ACE_TO_KING_H, "clean")
    check(REALE, ACE_TO_KING_H, "nobile")


def test_E38_two_natural_aces_only_in_reale() -> None:
    """E38: AH 2H* ... KH AH' (14 naturals) -> illegal (R31) | illegal | Reale 1000."""
    text = f"{ACE_TO_KING_H} AH"
    for rules in (ITALIAN, S003):
        error = check_open(parse_cards(text), rules)
        assert isinstance(error, MeldError)
        assert (error.reason, error.rule, error.code) == (
            "a run holds at most one natural ace",
            "R31",
            "run_two_aces",
        )
        # Through the state: the second ace can be neither opened with the rest nor attached.
        s = build_position(
            rules,
            hands=["AH QC", "3D 4D"],
            melds={0: [ACE_TO_KING_H]},
            stock_size=10,
            current=0,
            phase=Phase.PLAY,
            acquired="draw",
        )
        before = (sorted(s.all_cards()), s.hand(0), [m.notation() for m in s.line_melds(0)])
        legal = s.legal_actions()
        attach = Action.parse("0 attach 1 AH")
        assert attach not in legal
        with pytest.raises(IllegalActionError) as info:
            s.apply(attach)
        assert info.value.rule == "R31"
        assert (sorted(s.all_cards()), s.hand(0), [m.notation() for m in s.line_melds(0)]) == before
        assert s.legal_actions() == legal
    meld = open_meld(REALE, text)
    assert meld.notation() == "AH 2H* 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert len(meld) == 14
    check(REALE, text, "reale")


def test_E39_ace_to_king_plus_a_wild_high_ace() -> None:
    """E39: AH 2H* ... KH + 2S(A-high) -> dirty 100 | semipura 150 | Sporco 100."""
    text = f"{ACE_TO_KING_H} 2S"
    meld = open_meld(ITALIAN, text)
    assert meld.notation() == "AH 2H* 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2S(AH)"
    assert len(meld) == 14
    check(ITALIAN, text, "dirty")
    check(S003, text, "semiclean")
    check(REALE, text, "dirty")
