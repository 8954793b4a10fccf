"""Automatic play for a player who cannot or does not act (RULES.md T13).

The server uses it when a turn timer runs out, and the arena when an outside bot answers late,
answers nonsense or crashes: one documented default, the same everywhere. It needs only what the
player may see (``auto_play_choice`` works on a view and the legal actions).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import DISCARD, DRAW, Action
from .rules import Rules
from .state import Phase, Smazzata
from .views import SeatView


def _discard_key(rules: Rules, action: Action) -> tuple[bool, int, int, int]:
    """T13 preference among discards: a natural card before a wild one (a joker or a two, R3:
    throwing away a wild when a natural card can go is a gift no player makes, issue 15), then
    highest value, then higher rank (ace high), then suit order C < D < H < S. (Both copies of
    a card are the same card, so card ids never tie.)"""
    card = action.card
    rank = 14 if card.rank == 1 else card.rank
    return (not card.is_wild_kind, rules.card_value(card), rank, card.suit)


def auto_play_choice(view: SeatView, legal: Sequence[Action]) -> Action:
    """The action T13 plays for the view's seat, among ``legal`` (its legal actions, non-empty).

    Draw if the turn has not started; keep what was melded; then discard, never a wild (joker
    or two) while a natural card can go: preferring the card just drawn if discarding it leaves
    cards in hand, else the highest legal discard that leaves cards in hand, else the one that
    empties the hand (pozzetto con scarto or a legal closing).
    If no discard is legal yet (a pick-up under ``pickup_requires_meld``), make the first legal
    meld first: ask again until the turn has passed.
    """
    if not legal:
        raise ValueError("there is no legal action to choose from")
    for action in legal:
        if action.verb == DRAW:
            return action
    discards = [a for a in legal if a.verb == DISCARD]
    if not discards:
        return legal[0]
    naturals = any(not a.card.is_wild_kind for a in discards)
    if sum(view.hand) + view.hidden_own > 1:
        for action in discards:
            if action.card == view.drawn and not (naturals and action.card.is_wild_kind):
                return action
    return max(discards, key=lambda a: _discard_key(view.rules, a))


def auto_play_action(state: Smazzata) -> Action:
    """The next action T13 plays for the player to act in ``state``."""
    if state.phase == Phase.OVER:
        raise ValueError("the smazzata is over")
    return auto_play_choice(state.view(state.current), state.legal_actions())


def auto_play_turn(state: Smazzata) -> list[Action]:
    """Play the rest of the current player's turn automatically; returns the actions applied."""
    seat = state.current
    played: list[Action] = []
    while not state.is_over and state.current == seat:
        action = auto_play_action(state)
        state.apply(action)
        played.append(action)
        if action.verb == DISCARD:
            break
    return played
