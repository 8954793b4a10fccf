"""Shared helpers of the bot tests: play seeded games between bots, checking every choice."""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.bots.base import Bot
from burraco.engine import Action, Rules, Smazzata
from burraco.engine.views import SeatView, sample_state


def play_checked(rules: Rules, bots: Sequence[Bot], seed: int) -> tuple[Smazzata, list[Action]]:
    """Play one smazzata; every action must be one of the legal actions offered."""
    state = Smazzata.new(rules, rng=random.Random(seed), first=seed % rules.players)
    played: list[Action] = []
    while not state.is_over:
        seat = state.current
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal)
        assert action in legal, f"{bots[seat].name} chose the illegal {action} (seed {seed})"
        state.apply(action)
        played.append(action)
    return state, played


def decision_views(rules: Rules, bots: Sequence[Bot], seed: int, every: int) -> list[SeatView]:
    """Views at some decision points of a seeded game played by ``bots``."""
    state = Smazzata.new(rules, rng=random.Random(seed))
    out: list[SeatView] = []
    step = 0
    while not state.is_over:
        seat = state.current
        legal = state.legal_actions()
        view = state.view(seat)
        if step % every == 0 and len(legal) > 1:
            out.append(view)
        state.apply(bots[seat].choose(view, legal))
        step += 1
    return out


def twin_states(view: SeatView, seed: int) -> tuple[Smazzata, Smazzata]:
    """Two full states with the same view for the view's seat and different hidden cards."""
    one = sample_state(view, random.Random(seed))
    two = sample_state(view, random.Random(seed + 1))
    assert one.view(view.seat) == view
    assert two.view(view.seat) == view
    hidden_one = [one.hand(s) for s in range(one.players) if s != view.seat]
    hidden_two = [two.hand(s) for s in range(two.players) if s != view.seat]
    assert hidden_one != hidden_two or list(one.stock) != list(two.stock)
    return one, two
