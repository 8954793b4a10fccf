"""RULES.md 6.4 and 6.5: pozzetto timing (E40-E46) and closing legality (E47-E54).

Unless a case says otherwise: default ruleset, 2 players, A = seat 0 (line 0), B = seat 1.
4-player cases: North 0, East 1, South 2, West 3; NS = line 0, EW = line 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from burraco.engine import DISCARD, Action, IllegalActionError, Rules, Smazzata, find_rules
from burraco.engine.cards import Card, parse_cards
from burraco.engine.events import Event, PozzettoTaken, SmazzataEnded
from burraco.engine.position import build_position
from burraco.engine.state import Phase

ITALIAN = find_rules("italian")
FOUR = find_rules("italian", players=4)
BURRACO_H = "3H 4H 5H 6H 7H 8H 9H"
"""A clean 7-card burraco for line A's table."""


def position(
    hands: Sequence[str],
    *,
    rules: Rules = ITALIAN,
    melds: Mapping[int, Sequence[str]] | None = None,
    pile: str = "QD",
    stock: str | None = None,
    taken: Mapping[int, int] | None = None,
    current: int = 0,
    phase: Phase = Phase.PLAY,
    lock: str | None = None,
) -> Smazzata:
    acquired = None
    if phase == Phase.PLAY:
        acquired = "pickup" if lock is not None else "draw"
    return build_position(
        rules,
        hands=hands,
        melds=melds,
        pile=pile,
        stock=stock,
        stock_size=None if stock is not None else 20,
        taken=taken,
        current=current,
        phase=phase,
        acquired=acquired,
        lock=lock,
    )


def snapshot(s: Smazzata) -> tuple[object, ...]:
    return (
        sorted(s.all_cards()),
        [s.hand(seat) for seat in range(s.players)],
        [[m.notation() for m in line] for line in s.melds],
        s.discard_pile,
        s.stock_size,
        list(s.pozzetti),
        s.phase,
        s.current,
        tuple(s.taken),
        s.is_over,
        s.legal_actions(),
    )


def assert_illegal(s: Smazzata, text: str, rule: str, *, cites: str = "") -> IllegalActionError:
    """``text`` is rejected citing ``rule`` (and ``cites`` in its message); nothing changes."""
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
        if cites:
            assert f"({cites})" in str(error)
    assert snapshot(s) == before
    return applied.value


def play(s: Smazzata, text: str) -> list[Event]:
    action = Action.parse(text)
    assert action in s.legal_actions(), f"{text} is not generated"
    return s.apply(action)


def pozzetto_events(events: list[Event]) -> list[PozzettoTaken]:
    return [e for e in events if isinstance(e, PozzettoTaken)]


def cards(text: str) -> list[Card]:
    """A hand as ``Smazzata.hand`` lists it: sorted by card."""
    return sorted(parse_cards(text))


def value(rules: Rules, group: Sequence[int]) -> int:
    return sum(rules.card_value(c) for c in group)


# ------------------------------------------------------------------------ 6.4 pozzetto timing


def test_E40_emptying_the_hand_by_melding_takes_the_pozzetto_in_diretta() -> None:
    """E40: A without pozzetto holds 6C 6D 6H; OPEN them -> P1 now, turn continues (R47, R55)."""
    s = position(["6C 6D 6H", "3D 4D 9S"], melds={0: [BURRACO_H]})
    p1 = s.pozzetti[0]
    # build_position fills the pozzetti with the unused cards in card order: P1 is known.
    assert p1 == tuple(parse_cards("AC AC 2C 2C 3C 3C 4C 4C 5C 5C 6C"))
    events = play(s, "0 open 6C 6D 6H")
    assert pozzetto_events(events) == [PozzettoTaken(0, 0, 1, True, p1)]
    assert s.hand(0) == sorted(p1)
    assert s.hand_size(0) == 11
    assert s.taken == (True, False)
    assert s.unplayed[0] is None  # in diretta: played at once
    # The turn continues: same player, still in PLAY, no new ACQUIRE (R19).
    assert not s.is_over
    assert s.current == 0
    assert s.phase == Phase.PLAY
    assert_illegal(s, "0 draw", "R14")
    # Line A already has a burraco, so A may even close in this same turn.
    play(s, "0 open AC 2C 3C 4C 5C 6C")
    play(s, "0 open AC 2C 3C 4C")
    assert s.hand(0) == cards("5C")
    events = play(s, "0 discard 5C")
    assert events[-1] == SmazzataEnded("closing", 0)
    line = s.score().lines[0]
    assert line.closing_bonus == 100
    assert line.burraco_bonus == 200
    assert line.hand == 0
    assert line.pozzetto_penalty == 0
    assert line.melds == 45 + 15 + 55 + 45


def test_E41_emptying_discard_may_be_a_wild_and_ends_the_turn() -> None:
    """E41: A not yet at pozzetto, hand [JK]; discards JK -> pozzetto con scarto (R48, R18)."""
    s = position(["JK", "3D 4D 9S"])
    p1 = s.pozzetti[0]
    events = play(s, "0 discard JK")
    assert pozzetto_events(events) == [PozzettoTaken(0, 0, 1, False, p1)]
    assert s.discard_pile == (Card.parse("QD"), Card.parse("JK"))
    assert s.hand(0) == sorted(p1)
    assert s.unplayed[0] == p1
    assert s.taken == (True, False)
    # The turn ended.
    assert s.current == 1
    assert s.phase == Phase.ACQUIRE
    play(s, "1 draw")
    play(s, "1 discard 9S")
    # A's next turn starts with an ACQUIRE: the pozzetto cards cannot be played first.
    assert s.current == 0
    assert s.phase == Phase.ACQUIRE
    assert s.unplayed[0] is None  # the owner's next turn has begun: the pozzetto is played (R50)
    assert_illegal(s, "0 open 3C 4C 5C", "R13")
    assert_illegal(s, "0 discard 3C", "R13")
    assert s.legal_actions() == [Action.parse("0 draw"), Action.parse("0 pickup")]
    play(s, "0 draw")
    play(s, "0 open 3C 4C 5C")


@pytest.mark.parametrize("policy", ["hand_cards", "penalty"])
def test_E42_opponent_closes_before_the_pozzetto_is_played(policy: str) -> None:
    """E42: E41 happened; B then closes -> A's pozzetto cards count in his hand, no -100 (R50)."""
    rules = find_rules("italian", unplayed_pozzetto_policy=policy)
    # B took P1 earlier, so A's emptying discard gives him P2.
    s = position(
        ["JK", "KD"],
        rules=rules,
        melds={1: ["3S 4S 5S 6S 7S 8S 9S"]},
        stock="10S QC QH QS",
        taken={1: 1},
    )
    pozzetto = s.pozzetti[0]
    play(s, "0 discard JK")
    assert s.unplayed[0] == pozzetto
    play(s, "1 draw")
    play(s, "1 attach 1 10S")
    play(s, "1 discard KD")
    assert s.is_over
    score = s.score()
    assert score.ended == "closing"
    assert score.closed_by == 1
    a, b = score.lines
    assert s.hand(0) == sorted(pozzetto)
    assert b.closing_bonus == 100
    if policy == "hand_cards":
        # Default (FIBur): the pozzetto counts as taken, its cards score negative.
        assert a.hand == -value(rules, pozzetto)
        assert a.pozzetto_penalty == 0
    else:
        # Reale rule of [S000]: -100, the pozzetto cards are ignored.
        assert a.hand == 0
        assert a.pozzetto_penalty == -100
    assert a.score == a.hand + a.pozzetto_penalty


def test_E43_second_line_to_empty_its_hand_takes_P2() -> None:
    """E43: B took P1 earlier; A now empties his hand -> A receives P2, not P1 (R12, R45)."""
    s = position(["5H 6H 7H", "3D 4D 9S"], taken={1: 1})
    assert s.pozzetto_number == (2,)
    p2 = s.pozzetti[0]
    events = play(s, "0 open 5H 6H 7H")
    assert pozzetto_events(events) == [PozzettoTaken(0, 0, 2, True, p2)]
    assert s.hand(0) == sorted(p2)
    assert s.pozzetti == ()
    # Had nobody taken one, the same move would give P1.
    fresh = position(["5H 6H 7H", "3D 4D 9S"])
    events = play(fresh, "0 open 5H 6H 7H")
    assert [e.number for e in pozzetto_events(events)] == [1]


def test_E44_after_the_pozzetto_the_hand_cannot_be_emptied_by_melding() -> None:
    """E44: A took his pozzetto, holds 4C 5C and can attach both -> rejected (R49, R53, R55)."""
    s = position(["4C 5C", "3D 4D 9S"], melds={0: ["6C 7C 8C 9C 10C JC QC"]}, taken={0: 0})
    assert_illegal(s, "0 attach 1 4C 5C", "R53", cites="R49")
    # Attach one, discard the other: a closing (line A has a burraco; 4C is not a wild).
    play(s, "0 attach 1 5C")
    events = play(s, "0 discard 4C")
    assert events[-1] == SmazzataEnded("closing", 0)
    assert s.score().lines[0].closing_bonus == 100


def test_E45_partner_of_the_pozzetto_taker_cannot_meld_out() -> None:
    """E45: 4p: North took NS's pozzetto; South melds all his cards -> rejected (R43, R49)."""
    hands = ["QC", "3D 4D 9S", "4C 5C 6C", "3S 4S 9D"]
    s = position(hands, rules=FOUR, taken={0: 0}, current=2)
    assert_illegal(s, "2 open 4C 5C 6C", "R53", cites="R49")
    assert all(a.verb == DISCARD for a in s.legal_actions())
    # With a card to spare (and a burraco on NS's table) South melds and keeps it to discard.
    hands = ["QC", "3D 4D 9S", "4C 5C 6C 7C", "3S 4S 9D"]
    s = position(hands, rules=FOUR, melds={0: [BURRACO_H]}, taken={0: 0}, current=2)
    assert_illegal(s, "2 open 4C 5C 6C 7C", "R53", cites="R49")
    play(s, "2 open 4C 5C 6C")
    events = play(s, "2 discard 7C")
    assert events[-1] == SmazzataEnded("closing", 2)
    assert s.pozzetti != ()  # NS never got a second pozzetto (R43)


def test_E46_partner_closes_before_the_pozzetto_taker_plays_it() -> None:
    """E46: 4p: North took the pozzetto con scarto; South closes with 9D first (R50, R55, C3)."""
    hands = ["KD", "5D 6D 7D", "9D", "3C 4H 8H"]
    s = position(
        hands,
        rules=FOUR,
        melds={0: ["3S 4S 5S 6S 7S 8S 9S"]},
        stock="QS 10S JD JD 10D 10D",
    )
    p1 = s.pozzetti[0]
    events = play(s, "0 discard KD")  # North's hand empties: pozzetto con scarto
    assert pozzetto_events(events) == [PozzettoTaken(0, 0, 1, False, p1)]
    play(s, "1 draw")
    play(s, "1 discard QS")
    play(s, "2 draw")
    play(s, "2 attach 1 10S")
    assert s.hand(2) == cards("9D")
    assert s.unplayed[0] == p1  # North has not had a turn since
    events = play(s, "2 discard 9D")
    assert events[-1] == SmazzataEnded("closing", 2)
    score = s.score()
    ns, ew = score.lines
    assert ns.seats == (0, 2)
    assert ns.closing_bonus == 100
    assert ns.hand == -value(FOUR, p1)  # North's unplayed pozzetto counts negative
    assert ns.pozzetto_penalty == 0
    assert ns.melds == 5 * 5 + 3 * 10
    assert ns.burraco_bonus == 200
    assert ew.pozzetto_penalty == -100
    assert ew.hand == -(5 + 5 + 5 + 5 + 5 + 10)
    assert score.result == (ns.score, ew.score)


# ------------------------------------------------------------------------ 6.5 closing legality


def test_E47_no_closing_without_a_burraco() -> None:
    """E47: A has pozzetto, no burraco, holds [QS] after melding; discards QS -> rejected (R55)."""
    s = position(["QS", "3D 4D 9S"], melds={0: ["3H 4H 5H 6H 7H 8H"]}, taken={0: 0})
    assert_illegal(s, "0 discard QS", "R55")
    # The meld that would have left [QS] is itself rejected (R53), and the refusal names the
    # real cause, the missing burraco (R55), not only that the turn could not end.
    s = position(["QS 5D 6D 7D", "3D 4D 9S"], melds={0: ["3H 4H 5H 6H 7H 8H"]}, taken={0: 0})
    error = assert_illegal(s, "0 open 5D 6D 7D", "R55")
    assert error.code == "close_needs_burraco"
    assert error.params == {"card": "QS", "after_meld": True}
    assert s.can(Action.parse("0 discard QS"))


def test_E48_closing_discard_cannot_be_a_wild() -> None:
    """E48: A has pozzetto and a burraco, holds [2C]; discards 2C to close -> rejected (R55)."""
    s = position(["2C", "3D 4D 9S"], melds={0: [BURRACO_H]}, taken={0: 0})
    assert_illegal(s, "0 discard 2C", "R55")
    # A meld leaving only [2C] is rejected (R53), because the 2C could not close (R55) ...
    s = position(["2C 10H", "3D 4D 9S"], melds={0: [BURRACO_H]}, taken={0: 0})
    error = assert_illegal(s, "0 attach 1 10H", "R55")
    assert (error.code, error.params["card"]) == ("discard_wild_closing", "2C")
    # ... while melding the 2C and closing with the 10H is fine.
    play(s, "0 attach 1 2C")
    events = play(s, "0 discard 10H")
    assert events[-1] == SmazzataEnded("closing", 0)


def test_E49_burraco_completed_in_the_same_turn_counts_for_closing() -> None:
    """E49: A has pozzetto, a 6-card run; attaches a 7th card, discards 8D -> legal close (R55)."""
    s = position(["9H 8D", "3D 4D 9S"], melds={0: ["3H 4H 5H 6H 7H 8H"]}, taken={0: 0})
    assert not s.has_burraco(0)
    play(s, "0 attach 1 9H")
    assert s.line_melds(0)[0].burraco_type(ITALIAN) == "clean"
    events = play(s, "0 discard 8D")
    assert events[-1] == SmazzataEnded("closing", 0)
    line = s.score().lines[0]
    assert line.closing_bonus == 100
    assert line.burraco_bonus == 200


def test_E50_single_picked_up_card_cannot_be_the_closing_discard() -> None:
    """E50: pile [9D]; A picks up, melds all but 9D; discards 9D to close -> rejected (R17)."""
    s = position(
        ["5S 6S 7S", "3D 4D 9S"],
        melds={0: [BURRACO_H]},
        pile="9D",
        taken={0: 0},
        phase=Phase.ACQUIRE,
    )
    play(s, "0 pickup")
    # The last meld that would leave only the locked 9D is rejected (R53), citing the lock (R17).
    error = assert_illegal(s, "0 open 5S 6S 7S", "R17")
    assert error.code.startswith("discard_locked") and error.params["card"] == "9D"
    # Had A got there, the discard itself is refused by R17.
    s = position(["9D", "3D 4D 9S"], melds={0: [BURRACO_H]}, pile="", taken={0: 0}, lock="9D")
    assert_illegal(s, "0 discard 9D", "R17")
    # A must keep another card to discard.
    s = position(
        ["5S 6S 7S KC", "3D 4D 9S"],
        melds={0: [BURRACO_H]},
        pile="9D",
        taken={0: 0},
        phase=Phase.ACQUIRE,
    )
    play(s, "0 pickup")
    play(s, "0 open 5S 6S 7S")
    assert_illegal(s, "0 discard 9D", "R17")
    play(s, "0 discard KC")
    assert not s.is_over
    assert s.hand(0) == cards("9D")


@pytest.mark.parametrize("lock_twin", [True, False])
def test_E51_twin_of_the_single_picked_up_card_is_locked_by_default(lock_twin: bool) -> None:
    """E51: pile [9D]; A already holds 9D'; picks up, discards 9D' -> rejected by default (R17)."""
    rules = find_rules("italian", lock_identical_copy=lock_twin)
    s = position(["9D KC", "3D 4D 9S"], rules=rules, pile="9D", phase=Phase.ACQUIRE)
    play(s, "0 pickup")
    assert s.hand(0) == cards("9D 9D KC")
    if lock_twin:
        assert_illegal(s, "0 discard 9D", "R17")
    else:
        play(s, "0 discard 9D")
        assert s.hand(0) == cards("9D KC")
        assert s.discard_pile == (Card.parse("9D"),)


@pytest.mark.parametrize("lock_twin", [True, False])
def test_E52_pick_up_that_could_never_be_followed_by_a_discard(lock_twin: bool) -> None:
    """E52: pile [9D]; A's whole hand is [9D']; PICK UP -> rejected by R54; A must DRAW."""
    rules = find_rules("italian", lock_identical_copy=lock_twin)
    s = position(["9D", "3D 4D 9S"], rules=rules, pile="9D", phase=Phase.ACQUIRE)
    if lock_twin:
        assert_illegal(s, "0 pickup", "R54")
        assert s.legal_actions() == [Action.parse("0 draw")]
        play(s, "0 draw")
    else:
        # R54 applies only with lock_identical_copy: the held copy may then be discarded.
        play(s, "0 pickup")
        assert s.legal_actions() == [Action.parse("0 discard 9D")]


def test_E53_closing_after_picking_up_a_multi_card_pile() -> None:
    """E53: pile [4S 9C KD]; A picks up, melds all but KD; discards KD -> legal closing (R55)."""
    s = position(
        ["5S 6S 9H 9S", "3D 4D 9S"],
        melds={0: [BURRACO_H]},
        pile="4S 9C KD",
        taken={0: 0},
        phase=Phase.ACQUIRE,
    )
    play(s, "0 pickup")
    play(s, "0 open 4S 5S 6S")
    play(s, "0 open 9C 9H 9S")
    assert s.hand(0) == cards("KD")
    events = play(s, "0 discard KD")
    assert events[-1] == SmazzataEnded("closing", 0)
    line = s.score().lines[0]
    assert line.closing_bonus == 100
    assert line.hand == 0


def test_E54_wild_discard_that_does_not_close() -> None:
    """E54: A has pozzetto, burraco; hand [JK]; draws 7C; discards JK -> legal, no closing (R52)."""
    s = position(
        ["JK", "3D 4D 9S"],
        melds={0: [BURRACO_H, "8C 9C 10C"]},
        stock="7C QD QS 3D",
        taken={0: 0},
        phase=Phase.ACQUIRE,
    )
    play(s, "0 draw")
    assert s.hand(0) == cards("7C JK")
    # Attaching the 7C would leave only the JK, a wild that cannot close (R53, R55).
    assert assert_illegal(s, "0 attach 2 7C", "R55").code == "discard_wild_closing"
    play(s, "0 discard JK")
    assert not s.is_over
    assert s.current == 1
    assert s.hand(0) == cards("7C")
