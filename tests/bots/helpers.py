"""Shared helpers of the bot tests: play seeded games between bots, checking every choice."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from burraco.bots.base import Bot
from burraco.engine import Action, Rules, Smazzata
from burraco.engine.cards import CARDS, JOKER_ID
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


def choose_at(bot: Bot, state: Smazzata, *, poison: bool = False) -> Action:
    """``bot``'s choice for the seat to act in ``state``, given its view and the legal actions.

    The full state is a local of this frame, as it is of the arena's and the server's: a bot that
    reached past its view (its callers' frames, the garbage collector) would find it here. With
    ``poison``, the zones the seat cannot see are filled with jokers first (``poison_hidden``):
    the view and the legal actions stay the same, so the choice must too."""
    seat = state.current
    view = state.view(seat)
    legal = state.legal_actions()
    if poison:
        poison_hidden(state, seat)
        assert state.view(seat) == view
    return bot.choose(view, legal)


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


def poison_hidden(state: Smazzata, seat: int) -> None:
    """Fill the zones ``seat`` cannot see with jokers, in place: the other hands (but for the cards
    known to be there, picked up from the pile), the stock, the pozzetti not yet taken and the
    deal the smazzata started from. The state is no longer a legal one (it is not to be played
    on), but the view of ``seat`` does not change."""
    view = state.view(seat)
    for other in range(state.players):
        if other == seat:
            continue
        hand = state.hands[other]
        known = dict(view.known[other])
        for card in range(len(hand)):
            hand[card] = known.get(card, 0)
        hand[JOKER_ID] += state.sizes[other] - sum(hand)
    joker = CARDS[JOKER_ID]
    state.stock[:] = [joker] * len(state.stock)
    state.pozzetti = tuple(tuple([joker] * len(p)) for p in state.pozzetti)
    poisoned = [tuple([joker] * len(cards)) for cards in state.deal.hands]
    state.deal = dataclasses.replace(
        state.deal,
        hands=tuple(poisoned),
        stock=tuple([joker] * len(state.deal.stock)),
        pozzetti=tuple(tuple([joker] * len(p)) for p in state.deal.pozzetti),
        deck=None,
    )
