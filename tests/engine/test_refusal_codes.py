"""Every refusal of the engine carries a stable code and its parameters besides the English
sentence (issue 15): clients word it in the player's language from ``code`` and ``params``. Each
case cites the rule (RULES.md) that forbids the action; the positions are those of
test_rules_pozzetto_closing.py and test_rules_melds.py."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from burraco.engine import Action, IllegalActionError, find_rules
from burraco.engine.cards import parse_cards
from burraco.engine.errors import Param
from burraco.engine.melds import MeldError, check_open
from burraco.engine.state import Phase

from .test_rules_pozzetto_closing import BURRACO_H, ITALIAN, position


def refusal(s: object, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        s.verify(Action.parse(text))  # type: ignore[attr-defined]
    return info.value


def check(error: IllegalActionError, rule: str, code: str, **params: Param) -> None:
    assert (error.rule, error.code) == (rule, code), str(error)
    got: Mapping[str, Param] = error.params
    for key, value in params.items():
        assert got[key] == value, (key, dict(got))
    assert error.explanation == f"{error.reason} ({rule})"  # unchanged for old callers


def test_the_constructor_stays_compatible() -> None:
    old = IllegalActionError("0 draw", "the stock is empty", "R57")
    assert (old.code, dict(old.params), old.explanation) == (
        "illegal",
        {},
        "the stock is empty (R57)",
    )
    new = IllegalActionError("0 draw", "x", "R57", code="stock_empty", params={"n": 1})
    assert new.code == "stock_empty" and new.params == {"n": 1}


def test_R5_not_your_turn_and_R1_no_such_seat() -> None:
    s = position(["QS 5D", "3D 4D 9S"])
    check(refusal(s, "1 discard 3D"), "R5", "not_your_turn", seat=1, current=0)
    check(refusal(s, "5 discard 3D"), "R1", "no_such_seat", seat=5, players=2)


def test_R13_the_turn_starts_by_acquiring_and_R14_only_once() -> None:
    s = position(["QS 5D", "3D 4D 9S"], phase=Phase.ACQUIRE)
    check(refusal(s, "0 discard QS"), "R13", "acquire_first")
    s = position(["QS 5D", "3D 4D 9S"])
    check(refusal(s, "0 draw"), "R14", "already_acquired", drew=True)
    s = position(["QS 5D", "3D 4D 9S"], phase=Phase.ACQUIRE, pile="")
    check(refusal(s, "0 pickup"), "R14", "pile_empty")


def test_R20_a_discard_is_one_held_card() -> None:
    s = position(["QS 5D", "3D 4D 9S"])
    check(refusal(s, "0 discard 9S"), "R20", "card_not_held", card="9S")


def test_R17_the_single_picked_up_card_is_locked() -> None:
    s = position(["9D 4C", "3D 4D 9S"], pile="", lock="9D")
    check(refusal(s, "0 discard 9D"), "R17", "discard_locked_twin", card="9D")


def test_R55_closing_needs_a_burraco_and_a_natural_discard() -> None:
    s = position(["QS", "3D 4D 9S"], melds={0: ["3H 4H 5H 6H 7H 8H"]}, taken={0: 0})
    check(refusal(s, "0 discard QS"), "R55", "close_needs_burraco", card="QS")
    s = position(["2C", "3D 4D 9S"], melds={0: [BURRACO_H]}, taken={0: 0})
    check(refusal(s, "0 discard 2C"), "R55", "discard_wild_closing", card="2C")


def test_R53_a_meld_leaving_one_card_names_the_closing_it_would_need() -> None:
    """The defect of issue 15: this was explained as a bare R53 ("no legal discard"), never
    saying that the line needs a burraco to close (R55)."""
    s = position(["QS 5D 6D 7D", "3D 4D 9S"], melds={0: ["3H 4H 5H 6H 7H 8H"]}, taken={0: 0})
    error = refusal(s, "0 open 5D 6D 7D")
    check(error, "R55", "close_needs_burraco", card="QS", after_meld=True)
    assert "burraco" in error.reason


def test_R53_R49_after_the_pozzetto_the_hand_is_not_emptied_by_melding() -> None:
    s = position(["4C 5C", "3D 4D 9S"], melds={0: [BURRACO_H, "6C 7C 8C"]}, taken={0: 0})
    check(refusal(s, "0 attach 2 4C 5C"), "R53", "meld_empties_hand")


def test_R22_R23_melded_cards_come_from_the_hand() -> None:
    s = position(["QS 5D 6D 7D", "3D 4D 9S"])
    check(refusal(s, "0 open 5D 6D 8D"), "R22", "card_not_held", card="8D", held=0, named=1)
    check(refusal(s, "0 attach 3 5D"), "R23", "no_such_meld", meld=3, melds=0)


def test_R27_a_second_set_of_a_rank() -> None:
    s = position(["QS QD QC 4C", "3D 4D 9S"], melds={0: ["QH QH QS"]})
    check(refusal(s, "0 open QS QD QC"), "R27", "set_exists", rank="Q")


def test_R48_the_pozzetto_discard_in_italian_may_be_wild_elsewhere_not() -> None:
    rules = find_rules("italian", pozzetto_discard_may_be_wild=False)
    s = position(["2C", "3D 4D 9S"], rules=rules)
    check(refusal(s, "0 discard 2C"), "R48", "discard_wild_pozzetto", card="2C")


@pytest.mark.parametrize(
    ("cards", "rule", "code"),
    [
        ("5D 6D", "R21", "meld_too_short"),
        ("5D 6S 9C", "R21", "not_a_meld"),
        ("2C 2D JK", "R25", "meld_few_naturals"),
        ("5D 5S 2C JK", "R24", "meld_two_wilds"),
        ("5D 6D 9D", "R29", "run_not_consecutive"),
        ("KD AD 2D 3D", "R30", "run_wraps"),
        ("5D 7D JK 9D", "R35", "wild_one_gap"),
    ],
)
def test_meld_errors_carry_codes(cards: str, rule: str, code: str) -> None:
    """R21-R38: every MeldError names its rule and a code."""
    result = check_open(parse_cards(cards), ITALIAN)
    assert isinstance(result, MeldError)
    assert (result.rule, result.code) == (rule, code), result
    s = position([cards + " QS QS", "3D 4D 9S"])
    check(refusal(s, f"0 open {cards}"), rule, code)


def test_R26_an_attach_to_a_set_of_another_rank() -> None:
    s = position(["5D 4C", "3D 4D 9S"], melds={0: ["QH QH QS"]})
    check(refusal(s, "0 attach 1 5D"), "R26", "set_wrong_rank", card="5D", rank="Q")
    s = position(["5D 4C", "3D 4D 9S"], melds={0: ["3H 4H 5H"]})
    check(refusal(s, "0 attach 1 4C"), "R29", "run_wrong_suit", card="4C", suit="H")
