"""The ``heuristic`` bot: sound rule-of-thumb play, as a good club player would (see ``plans``).

At the start of a turn it draws or picks up the pile (``want_pickup``); then it plans the whole
turn (``plan_turn``) and plays the plan's actions over the following calls, planning again only if
the turn does not go as planned (a pozzetto in diretta brings new cards). It is also the rollout
policy of the search bot: ``play_turn`` plays a whole turn on a full state, reading only the hand
of the seat to act and the public facts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.engine.actions import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action
from burraco.engine.cards import is_wild_kind
from burraco.engine.errors import IllegalActionError
from burraco.engine.state import Phase, Smazzata
from burraco.engine.views import SeatView

from .plans.discard import discard_now
from .plans.pickup import want_pickup
from .plans.table import DEFAULT_STYLE, Style, Table
from .plans.turn import DEFAULT_OPTIONS, Plan, PlanOptions, plan_turn


def fallback_action(table: Table, legal: Sequence[Action]) -> Action:
    """A sensible legal action when the plan does not apply: the meld with the most natural
    cards if a meld is required, else the planner's discard among the legal ones."""
    discards = [a for a in legal if a.verb == DISCARD]
    if discards:
        allowed = {a.card for a in discards}
        card = discard_now(table)
        if card is not None and card in allowed:
            return next(a for a in discards if a.card == card)
        return min(discards, key=lambda a: (is_wild_kind(a.card), -table.rules.card_value(a.card)))
    melds = [a for a in legal if a.verb in (OPEN, ATTACH)]
    if melds:
        return max(melds, key=lambda a: (-sum(is_wild_kind(c) for c in a.cards), len(a.cards)))
    for verb in (DRAW, PICKUP):
        for a in legal:
            if a.verb == verb:
                return a
    return legal[0]


class HeuristicBot:
    """Rule-of-thumb play (the plans package); deterministic (it uses no randomness at all)."""

    def __init__(
        self, seed: int | None = None, *, name: str = "heuristic", style: Style = DEFAULT_STYLE
    ) -> None:
        self.name = name
        self.style = style
        self.rng = random.Random(seed)  # kept for the protocol; the play is deterministic
        self._plan: list[Action] = []
        self._expect: tuple[int, int, int, int, tuple[int, ...]] | None = None

    def close(self) -> None:
        self._plan = []
        self._expect = None

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.phase == Phase.ACQUIRE:
            self._plan = []
            self._expect = None
            return self._acquire(view, legal)
        key = (view.seat, view.turns, view.first, view.stock_size, view.hand)
        if self._plan and self._expect == key and self._plan[0] in legal:
            return self._next(view)
        table = Table.of_view(view, self.style)
        plan = plan_turn(table, DEFAULT_OPTIONS)
        if plan is None or not plan.actions or plan.actions[0] not in legal:
            self._plan = []
            self._expect = None
            return fallback_action(table, legal)
        self._plan = list(plan.actions)
        return self._next(view)

    def _next(self, view: SeatView) -> Action:
        action = self._plan.pop(0)
        hand = list(view.hand)
        for c in action.cards:
            hand[c] -= 1
        self._expect = (view.seat, view.turns, view.first, view.stock_size, tuple(hand))
        return action

    def _acquire(self, view: SeatView, legal: Sequence[Action]) -> Action:
        pickup = next((a for a in legal if a.verb == PICKUP), None)
        draw = next((a for a in legal if a.verb == DRAW), None)
        if pickup is not None and (draw is None or want_pickup(Table.of_view(view, self.style))):
            return pickup
        return draw if draw is not None else legal[0]


# ------------------------------------------------------------------------------ rollouts


def acquire_action(state: Smazzata) -> Action:
    """The heuristic's acquire for the player to act on a full state (public facts only)."""
    seat = state.current
    if state.pile and want_pickup(Table.of_state(state)):
        action = Action(seat, PICKUP)
        if (not state.rules.pickup_requires_meld and len(state.pile) > 1) or state.can(action):
            return action
    if state.stock:
        return Action(seat, DRAW)
    return Action(seat, PICKUP)


def apply_plan(state: Smazzata, plan: Plan | None) -> bool:
    """Apply a plan's actions; False (after playing the legal ones) if one of them is illegal."""
    if plan is None:
        return False
    seat = state.current
    for action in plan.actions:
        if state.phase != Phase.PLAY or state.current != seat:
            return False
        try:
            state.apply(action)
        except IllegalActionError:
            return False
    return True


def finish_turn(state: Smazzata, options: PlanOptions = DEFAULT_OPTIONS) -> None:
    """Play the rest of the current player's turn (PLAY phase) with the heuristic."""
    seat = state.current
    for _ in range(8):
        if state.phase != Phase.PLAY or state.current != seat:
            return
        plan = plan_turn(Table.of_state(state), options)
        options = DEFAULT_OPTIONS
        if apply_plan(state, plan):
            continue
        break
    # Fallback: step through the legal actions.
    for _ in range(40):
        if state.phase != Phase.PLAY or state.current != seat:
            return
        legal = state.legal_actions()
        state.apply(fallback_action(Table.of_state(state), legal))


def play_turn(state: Smazzata) -> None:
    """Play one whole turn of the player to act with the heuristic."""
    if state.phase == Phase.ACQUIRE:
        state.apply(acquire_action(state))
    finish_turn(state)


__all__ = ["HeuristicBot", "acquire_action", "apply_plan", "finish_turn", "play_turn"]
