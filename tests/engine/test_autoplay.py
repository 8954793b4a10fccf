"""RULES.md T13 (automatic play when a turn timer runs out) and its case T-E8.

T13: if no ACQUIRE yet, DRAW; melds already made stand; then discard, in order of preference: the
card drawn from the tallone this turn if it is a legal non-emptying discard; else the legal
non-emptying discard with the highest point value (issue 15: never a wild, a joker or a two, while
a natural card can go) (ties: higher rank, then suit C<D<H<S); if only
emptying discards are legal (pozzetto con scarto or legal closing), make that discard. Under
Internazionale a pick-up must be followed by a meld before any discard, so a meld comes first.
(Counting consecutive automatic plays, T-E8's second sentence, is the clock's business, not the
engine's.)
"""

from __future__ import annotations

import random

import pytest

from burraco.engine import (
    ATTACH,
    DISCARD,
    DRAW,
    OPEN,
    Action,
    Smazzata,
    find_rules,
    parse_cards,
)
from burraco.engine.autoplay import auto_play_action, auto_play_choice, auto_play_turn
from burraco.engine.position import build_position
from burraco.engine.state import Phase
from burraco.engine.views import legal_actions_for

from .helpers import choose_action

ITALIAN = find_rules("italian")
STOCK = "4S 8C 9C JD QH KH 3D"
"""A stock (top first) long enough that one turn never ends the smazzata."""


def texts(actions: list[Action]) -> list[str]:
    return [str(a) for a in actions]


def after_draw(hand: str, *, stock: str = STOCK, melds: list[str] | None = None) -> Smazzata:
    """Seat 0 to play with ``hand`` after drawing the top of ``stock`` (and making ``melds``)."""
    state = build_position(
        ITALIAN, hands=[hand, "4C 4D 6H 8S 10C"], pile="7S", stock=stock, current=0
    )
    state.apply(Action.parse("0 draw"))
    for meld in melds or []:
        state.apply(Action.parse(f"0 open {meld}"))
    return state


def test_T_E8_timer_expires_before_acquiring_draws_and_discards_the_drawn_card() -> None:
    # The drawn 4S is worth 5; the king and the ace in hand are worth more, but T13 prefers the
    # card just drawn.
    state = build_position(
        ITALIAN, hands=["3C 9H KS QD AH", "4C 4D 6H 8S 10C"], pile="7S", stock=STOCK, current=0
    )
    assert state.phase == Phase.ACQUIRE
    played = auto_play_turn(state)
    assert texts(played) == ["0 draw", "0 discard 4S"]
    assert state.current == 1 and state.phase == Phase.ACQUIRE
    assert str(state.pile[-1]) == "4S"
    assert sorted(state.hand(0)) == sorted(parse_cards("3C 9H KS QD AH"))


def test_T13_a_drawn_wild_is_kept_while_a_natural_card_can_go() -> None:
    # Issue 15, defect 6: automatic play threw away a wild. A drawn joker (or two) stays in
    # hand; the highest natural card goes instead.
    state = after_draw("3C 9H KS", stock="JK " + STOCK)
    assert texts(auto_play_turn(state)) == ["0 discard KS"]
    state = after_draw("3C 9H KS", stock="2D " + STOCK)
    assert texts(auto_play_turn(state)) == ["0 discard KS"]


def test_T13_only_wilds_left_the_highest_wild_goes() -> None:
    state = after_draw("2C JK 5S 6S", melds=["4S 5S 6S"])
    assert texts(auto_play_turn(state)) == ["0 discard JK"]


def test_T13_melds_stand_and_the_highest_value_discard_follows() -> None:
    # Seat 0 drew 4S and melded it (4S 5S 6S): the drawn card is gone, so the highest-value
    # legal discard goes; the meld stays on the table.
    state = after_draw("5S 6S 3C 9H QD AH", melds=["4S 5S 6S"])
    assert texts(auto_play_turn(state)) == ["0 discard AH"]
    assert [m.notation() for m in state.melds[0]] == ["4S 5S 6S"]
    assert state.current == 1


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("3C 9H QD KD 5S 6S", "KD"),  # value 10 ties: the higher rank (K > Q > 9)
        ("3C 9H KD KS KH 5S 6S", "KS"),  # same rank: suit order C < D < H < S
        ("3C 9H KC 7D 5S 6S", "KC"),  # value first: KC (10) over the 7 (5) whatever its suit
        ("7C 3S 4H 5S 6S", "7C"),  # value 5 ties: the rank, not the suit, decides
        ("2C AH KS 5S 6S", "AH"),  # a wild (2C, worth 20) stays while a natural card can go
        ("2C JK AH 5S 6S", "AH"),  # so does the joker (worth 30)
    ],
)
def test_T13_highest_value_tie_breaks(hand: str, expected: str) -> None:
    state = after_draw(hand, melds=["4S 5S 6S"])
    assert texts(auto_play_turn(state)) == [f"0 discard {expected}"]


def test_T13_the_locked_card_is_not_discarded() -> None:
    # Seat 0 picked up a one-card pile (AS): the ace and its twin may not be discarded (R17).
    state = build_position(
        ITALIAN,
        hands=["AS AS 3C KD 9H", "4C 4D 6H 8S 10C"],
        stock=STOCK,
        current=0,
        phase=Phase.PLAY,
        acquired="pickup",
        lock="AS",
    )
    assert texts(auto_play_turn(state)) == ["0 discard KD"]


def test_T13_only_an_emptying_discard_makes_the_pozzetto_con_scarto() -> None:
    # Seat 0 drew 4S and melded it: one card left, its line has no pozzetto yet.
    state = after_draw("5S 6S 9C", melds=["4S 5S 6S"])
    assert texts(auto_play_turn(state)) == ["0 discard 9C"]
    assert state.taken[0], "the emptying discard took the pozzetto con scarto (R48)"
    assert state.hand_size(0) == 11
    assert state.current == 1 and not state.is_over


def test_T13_only_an_emptying_discard_closes() -> None:
    state = build_position(
        ITALIAN,
        hands=["9C", "4C 4D 6H 8S 10C"],
        melds={0: ["3H 4H 5H 6H 7H 8H 9H"]},
        taken={0: 0},
        stock=STOCK,
        current=0,
        phase=Phase.PLAY,
        acquired="draw",
    )
    assert texts(auto_play_turn(state)) == ["0 discard 9C"]
    assert state.is_over and state.end_reason == "closing" and state.closed_by == 0


def test_T13_internazionale_pickup_without_meld_melds_first() -> None:
    # Under Internazionale a pick-up must be followed by a meld before the discard (3.7).
    rules = find_rules("internazionale")
    assert rules.pickup_requires_meld
    state = build_position(
        rules,
        hands=["5H 6H 7H 9C KD QC", "4C 4D 6H 8S 10C"],
        stock=STOCK,
        current=0,
        phase=Phase.PLAY,
        acquired="pickup",
    )
    assert all(a.verb != DISCARD for a in state.legal_actions())
    played = auto_play_turn(state)
    assert [a.verb for a in played] == [OPEN, DISCARD]
    assert texts(played) == ["0 open 5H 6H 7H", "0 discard KD"]
    assert [m.notation() for m in state.melds[0]] == ["5H 6H 7H"]
    assert state.current == 1 and state.phase == Phase.ACQUIRE


@pytest.mark.parametrize("preset", ["italian", "internazionale", "reale"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_auto_play_turn_plays_exactly_one_turn(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    rng = random.Random(f"{preset}-{players}")
    for _ in range(30):
        state = Smazzata.new(rules, rng=rng, first=rng.randrange(players))
        for _ in range(rng.randrange(60)):  # reach some position, maybe mid-turn
            if state.is_over:
                break
            state.apply(choose_action(state, state.legal_actions(), rng, "melder"))
        if state.is_over:
            continue
        seat, phase, turns = state.current, state.phase, state.turns
        view = state.view(seat)
        assert auto_play_action(state) == auto_play_choice(view, legal_actions_for(view))
        played = auto_play_turn(state)
        assert played and all(a.seat == seat for a in played)
        assert played[-1].verb == DISCARD
        assert all(
            a.verb in (OPEN, ATTACH) for a in played[1 if phase == Phase.ACQUIRE else 0 : -1]
        )
        if phase == Phase.ACQUIRE:
            assert played[0].verb == DRAW
        assert state.turns == turns + 1
        assert state.is_over or state.current != seat


def test_auto_play_needs_a_legal_action() -> None:
    state = Smazzata.new(ITALIAN, rng=random.Random(0))
    with pytest.raises(ValueError, match="no legal action"):
        auto_play_choice(state.view(0), [])
