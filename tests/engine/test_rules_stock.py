"""RULES.md 6.6: stock exhaustion (E55-E60).

Default ruleset, 2 players: A = seat 0 (line 0), B = seat 1. Each case starts at A's ACQUIRE with
a tallone of exactly 3 cards, given top first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from burraco.engine import Action, IllegalActionError, Rules, Smazzata, find_rules
from burraco.engine.cards import Card, parse_cards
from burraco.engine.events import Event, PozzettoTaken, SmazzataEnded
from burraco.engine.position import build_position
from burraco.engine.state import Phase

ITALIAN = find_rules("italian")


def position(
    hands: Sequence[str],
    *,
    melds: Mapping[int, Sequence[str]] | None = None,
    pile: str = "QD",
    stock: str = "7H 9S 9D",
    taken: Mapping[int, int] | None = None,
) -> Smazzata:
    s = build_position(
        ITALIAN,
        hands=hands,
        melds=melds,
        pile=pile,
        stock=stock,
        taken=taken,
        current=0,
        phase=Phase.ACQUIRE,
    )
    assert s.stock_size == 3
    return s


def play(s: Smazzata, text: str) -> list[Event]:
    action = Action.parse(text)
    assert action in s.legal_actions(), f"{text} is not generated"
    return s.apply(action)


def cards(text: str) -> list[Card]:
    return sorted(parse_cards(text))


def value(rules: Rules, group: Sequence[int]) -> int:
    return sum(rules.card_value(c) for c in group)


def pozzetto_taken(events: list[Event]) -> list[PozzettoTaken]:
    return [e for e in events if isinstance(e, PozzettoTaken)]


def assert_over_by_stock(s: Smazzata) -> None:
    """The smazzata ended by exhaustion: nobody may act any more (R57)."""
    assert s.is_over
    assert s.stock_size == 2
    assert s.end_reason == "stock"
    assert s.closed_by is None
    assert s.current_player is None
    assert s.legal_actions() == []
    for seat in (0, 1):
        with pytest.raises(IllegalActionError) as info:
            s.apply(Action.parse(f"{seat} draw"))
        assert info.value.rule == "R57"


def test_E55_discard_leaving_two_stock_cards_ends_the_smazzata() -> None:
    """E55: tallone 3; A draws (2 left), melds, discards -> ends; B does not play; no bonus."""
    s = position(["5H 6H KC QC", "3D 4D 9C"], taken={0: 0, 1: 1})
    play(s, "0 draw")
    assert s.stock_size == 2
    assert not s.is_over
    play(s, "0 open 5H 6H 7H")
    events = play(s, "0 discard KC")
    assert events[-1] == SmazzataEnded("stock", None)
    assert_over_by_stock(s)
    score = s.score()
    assert score.ended == "stock"
    a, b = score.lines
    assert (a.melds, a.burraco_bonus, a.closing_bonus, a.hand, a.pozzetto_penalty) == (
        15,
        0,
        0,
        -10,
        0,
    )
    assert (b.melds, b.burraco_bonus, b.closing_bonus, b.hand, b.pozzetto_penalty) == (
        0,
        0,
        0,
        -20,
        0,
    )
    assert score.result == (5, -20)


def test_E56_picking_up_does_not_shorten_the_stock() -> None:
    """E56: tallone 3; A picks up instead -> continues; B draws (2 left), ends after B (R57c)."""
    s = position(["5H 6H KC", "3D 4D 9C"])
    play(s, "0 pickup")
    play(s, "0 discard KC")
    assert not s.is_over
    assert s.stock_size == 3
    assert s.current == 1
    play(s, "1 draw")
    assert s.stock_size == 2
    assert not s.is_over
    events = play(s, "1 discard 9C")
    assert events[-1] == SmazzataEnded("stock", None)
    assert_over_by_stock(s)


def test_E57_pozzetto_con_scarto_on_the_last_discard_is_unplayed() -> None:
    """E57: tallone 3; A draws; discard empties his hand, no pozzetto yet -> P1 unplayed (R50)."""
    s = position(["KC", "3D 4D 9C"], melds={0: ["4H 5H 6H"]})
    p1 = s.pozzetti[0]
    play(s, "0 draw")
    play(s, "0 attach 1 7H")
    events = play(s, "0 discard KC")
    assert pozzetto_taken(events) == [PozzettoTaken(0, 0, 1, False, p1)]
    assert events[-1] == SmazzataEnded("stock", None)
    assert_over_by_stock(s)
    assert s.unplayed[0] == p1
    assert s.hand(0) == sorted(p1)
    a, b = s.score().lines
    assert a.melds == 20
    assert a.hand == -value(ITALIAN, p1)
    assert a.pozzetto_penalty == 0  # the pozzetto counts as taken (hand_cards policy)
    assert a.score == 20 - value(ITALIAN, p1)
    assert b.pozzetto_penalty == -100
    assert b.hand == -20


def test_E58_in_diretta_on_the_last_draw_then_the_discard_ends_it() -> None:
    """E58: tallone 3; A draws, melds his hand empty -> takes P1, continues; discard ends (R57)."""
    s = position(["5H 6H", "3D 4D 9C"])
    p1 = s.pozzetti[0]
    play(s, "0 draw")
    events = play(s, "0 open 5H 6H 7H")
    assert pozzetto_taken(events) == [PozzettoTaken(0, 0, 1, True, p1)]
    assert not s.is_over
    assert s.current == 0
    assert s.phase == Phase.PLAY
    assert s.hand(0) == sorted(p1)
    discard = p1[-1]
    events = play(s, f"0 discard {discard}")
    assert events[-1] == SmazzataEnded("stock", None)
    assert_over_by_stock(s)
    assert s.unplayed[0] is None
    a, _ = s.score().lines
    assert a.melds == 15
    assert a.hand == -(value(ITALIAN, p1) - ITALIAN.card_value(discard))
    assert a.pozzetto_penalty == 0


def test_E59_closing_when_the_stock_reaches_two() -> None:
    """E59: tallone 3; A draws; A closes legally -> closing takes precedence: +100 to A (R57a)."""
    s = position(
        ["KC", "3D 4D 9C"],
        melds={0: ["3H 4H 5H 6H 7H 8H 9H"]},
        stock="10H 8S 9S",
        taken={0: 0, 1: 1},
    )
    play(s, "0 draw")
    assert s.stock_size == 2
    play(s, "0 attach 1 10H")
    events = play(s, "0 discard KC")
    assert events[-1] == SmazzataEnded("closing", 0)
    assert s.is_over
    assert s.stock_size == 2
    score = s.score()
    assert score.ended == "closing"
    assert score.closed_by == 0
    a, b = score.lines
    assert a.closing_bonus == 100
    assert a.burraco_bonus == 200
    assert a.score == 55 + 200 + 100
    assert b.closing_bonus == 0


def test_E60_nobody_took_a_pozzetto() -> None:
    """E60: tallone reaches 2, nobody has taken a pozzetto -> both lines -100 (R60)."""
    s = position(["5H KC", "3D 4D 9C"])
    play(s, "0 draw")
    play(s, "0 discard KC")
    assert_over_by_stock(s)
    a, b = s.score().lines
    assert a.pozzetto_penalty == -100
    assert b.pozzetto_penalty == -100
    assert a.hand == -(5 + 5)
    assert b.hand == -20
    assert s.score().result == (-110, -120)
    assert len(s.pozzetti) == 2  # neither pozzetto was taken; their cards score for nobody
