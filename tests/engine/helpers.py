"""Small helpers shared by the engine tests: the expected deck, a playing policy, snapshots."""

from __future__ import annotations

import random

from burraco.engine import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action, Rules, Smazzata
from burraco.engine.state import Phase

STYLES = ("uniform", "melder", "picker")
"""Playing styles of ``choose_action``: uniform over the legal actions; a player who draws and
melds whenever he can (reaches pozzetti and closings); a player who keeps picking up the pile and
discarding (the pick-up lock R17, long piles, the stall rule R58)."""


def full_deck(rules: Rules) -> list[int]:
    """The ruleset's deck as sorted card ids: two copies of 0..51 and ``rules.jokers`` jokers."""
    return [c for c in range(52) for _ in range(2)] + [52] * rules.jokers


def choose_action(state: Smazzata, legal: list[Action], rng: random.Random, style: str) -> Action:
    """Pick one of ``legal`` (never empty) the way a player of ``style`` would, at random."""
    if style == "uniform":
        return rng.choice(legal)
    if state.phase == Phase.ACQUIRE:
        preferred = DRAW if style == "melder" else PICKUP
        matching = [a for a in legal if a.verb == preferred]
        if matching and rng.random() < 0.85:
            return matching[0]
        return rng.choice(legal)
    melds = [a for a in legal if a.verb in (OPEN, ATTACH)]
    if melds and rng.random() < (0.9 if style == "melder" else 0.1):
        if rng.random() < 0.5:
            longest = max(len(a.cards) for a in melds)
            return rng.choice([a for a in melds if len(a.cards) == longest])
        return rng.choice(melds)
    discards = [a for a in legal if a.verb == DISCARD]
    return rng.choice(discards or legal)


def snapshot(state: Smazzata) -> tuple[object, ...]:
    """Everything a state holds, as comparable immutable values."""
    return (
        tuple(tuple(hand) for hand in state.hands),
        tuple(state.present),
        tuple(state.double),
        tuple(state.sizes),
        tuple(tuple(m.notation() for m in line) for line in state.melds),
        tuple(state.opened),
        tuple(state.pile),
        tuple(state.stock),
        tuple(state.pozzetti),
        tuple(state.pozzetto_number),
        state.removed,
        tuple(state.line_of),
        tuple(state.set_mask),
        tuple(state.taken),
        tuple(state.unplayed),
        tuple(tuple(sorted(known.items())) for known in state.known),
        state.current,
        state.phase,
        state.acquired,
        state.lock,
        state.lock_in_hand,
        state.melded,
        state.drawn,
        state.stall,
        state.seq,
        state.turns,
        state.solo_mode,
        state.end_reason,
        state.closed_by,
    )
