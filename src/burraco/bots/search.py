"""The ``search`` bot: determinized Monte Carlo over whole-turn plans.

At each decision point of its own (the acquire at the start of a turn, and the play phase after
it) the bot lists candidates: draw or pick up; or whole-turn plans from the planner (the
heuristic's plan and variants: other discards, closing now or not, spending wild cards or not,
holding back new melds). Each iteration deals the hidden cards at random consistently with the
view (``sample_state``), plays every surviving candidate on a copy of that same deal (common random
numbers: the same stock order and hands for all candidates, so their differences are measured
with little noise), lets the heuristic play the rest of the turn and then ``depth`` more turns
for every seat (or to the end with ``depth=-1``), and scores the result with ``evaluate`` (the
exact score difference if the smazzata ended, else the fitted estimate). Candidates clearly worse
than the best (paired difference below zero by ``z`` standard errors) are dropped as the
iterations go. The best mean wins; the plan is then played over the following calls without
searching again while the turn goes as planned.

Budget: ``seconds`` per decision (default 1.0, checked before every playout, with a margin), or
``iterations`` (total playouts per decision; deterministic for a given seed). Options come from
the bot spec, e.g. ``search:seconds=0.5`` or ``search:iterations=200,depth=4``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence

from burraco.engine.actions import DRAW, PICKUP, Action
from burraco.engine.errors import IllegalActionError
from burraco.engine.state import Phase, Smazzata
from burraco.engine.views import SeatView, sample_state

from .evaluate import evaluate
from .heuristic import HeuristicBot, apply_plan, finish_turn, play_turn
from .plans.table import Table
from .plans.turn import DEFAULT_OPTIONS, Plan, PlanOptions, discard_ranking_of, plan_turn

VARIANTS: tuple[tuple[str, PlanOptions], ...] = (
    ("close", PlanOptions(close=1)),
    ("no-close", PlanOptions(close=-1)),
    ("wilds", PlanOptions(wilds=1)),
    ("keep-wilds", PlanOptions(wilds=-1)),
    ("hold", PlanOptions(hold=True)),
)
"""The planner options tried besides the heuristic's own plan (and its other discards)."""


def labelled_plan_variants(
    table: Table, legal: Sequence[Action], discards: int = 4
) -> list[tuple[str, Plan]]:
    """Distinct whole-turn plans whose first action is legal, each with the name of the variant
    that produced it: the heuristic's plan first."""
    out: list[tuple[str, Plan]] = []
    seen: set[tuple[Action, ...]] = set()

    def add(label: str, plan: Plan | None) -> None:
        if plan is None or not plan.actions or plan.actions in seen:
            return
        if plan.actions[0] not in legal:
            return
        seen.add(plan.actions)
        out.append((label, plan))

    base = plan_turn(table, DEFAULT_OPTIONS)
    add("heuristic", base)
    for label, options in VARIANTS:
        add(label, plan_turn(table, options))
    for rank, card in enumerate(discard_ranking_of(table, base)[1 : 1 + discards], 2):
        add(f"discard#{rank}", plan_turn(table, PlanOptions(discard=card)))
    return out


def plan_variants(table: Table, legal: Sequence[Action], discards: int = 4) -> list[Plan]:
    """The plans of ``labelled_plan_variants`` without their labels."""
    return [plan for _, plan in labelled_plan_variants(table, legal, discards)]


class SearchBot:
    """Determinized Monte Carlo over whole-turn plans, heuristic rollouts (see module doc)."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        seconds: float = 1.0,
        iterations: int | None = None,
        depth: int = 4,
        discards: int = 4,
        z: float = 2.0,
        margin: float = 0.1,
        name: str = "search",
        weights: Sequence[float] | None = None,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds <= 0:
            raise ValueError("seconds must be positive")
        self.name = name
        self.rng = random.Random(seed)
        self.seconds = float(seconds)
        self.iterations = iterations
        self.depth = int(depth)
        self.discards = int(discards)
        self.z = float(z)
        self.margin = float(margin)
        self.weights = tuple(weights) if weights is not None else None
        self.fallback = HeuristicBot(seed)
        self.playouts = 0
        """Playouts run so far (for the playouts-per-second figure)."""
        self.search_time = 0.0
        """Seconds (wall clock) spent searching so far."""
        self.search_cpu = 0.0
        """Seconds of processor time spent searching so far (playouts per second per core)."""
        self.searches = 0
        self.chosen: Counter[str] = Counter()
        """How often each kind of candidate was chosen (heuristic, discard#2, pickup, ...)."""
        self._plan: list[Action] = []
        self._expect: tuple[int, int, int, int, tuple[int, ...]] | None = None

    def close(self) -> None:
        self._plan = []
        self._expect = None

    @property
    def playouts_per_second(self) -> float:
        """Playouts per second of processor time so far (0 before the first search)."""
        return self.playouts / self.search_cpu if self.search_cpu > 0 else 0.0

    # ------------------------------------------------------------------------------ choose

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        if len(legal) == 1:
            self._plan = []
            self._expect = None
            return legal[0]
        if view.phase == Phase.ACQUIRE:
            self._plan = []
            self._expect = None
            return self._acquire(view, legal, start)
        key = (view.seat, view.turns, view.first, view.stock_size, view.hand)
        if self._plan and self._expect == key and self._plan[0] in legal:
            return self._next(view)
        table = Table.of_view(view)
        plans = labelled_plan_variants(table, legal, self.discards)
        if not plans:
            self._plan = []
            self._expect = None
            return self.fallback.choose(view, legal)
        best = 0
        if len(plans) > 1:
            best = self._search(view, [("plan", p) for _, p in plans], start)
            self.chosen[plans[best][0]] += 1
        self._plan = list(plans[best][1].actions)
        return self._next(view)

    def _next(self, view: SeatView) -> Action:
        action = self._plan.pop(0)
        hand = list(view.hand)
        for c in action.cards:
            hand[c] -= 1
        self._expect = (view.seat, view.turns, view.first, view.stock_size, tuple(hand))
        return action

    def _acquire(self, view: SeatView, legal: Sequence[Action], start: float) -> Action:
        options = [a for a in legal if a.verb in (DRAW, PICKUP)]
        if len(options) == 1:
            return options[0]
        # the heuristic's choice first (it wins ties)
        preferred = self.fallback.choose(view, legal)
        options.sort(key=lambda a: a != preferred)
        best = self._search(view, [("acquire", a) for a in options], start)
        self.chosen[f"{options[best].verb.word} ({'heuristic' if best == 0 else 'changed'})"] += 1
        return options[best]

    # ------------------------------------------------------------------------------ search

    def _playout(self, state: Smazzata, kind: str, candidate: Action | Plan, seat: int) -> float:
        if kind == "acquire":
            assert isinstance(candidate, Action)
            state.apply(candidate)
            finish_turn(state)
        else:
            assert isinstance(candidate, Plan)
            if not apply_plan(state, candidate):
                raise IllegalActionError("plan", "the plan is not legal", "R13")
            if not state.is_over and state.current == seat and state.phase == Phase.PLAY:
                finish_turn(state)  # after a pozzetto in diretta
        turns = self.depth
        while not state.is_over and turns != 0:
            play_turn(state)
            turns -= 1
        return evaluate(state, seat, self.weights)

    def _search(
        self,
        view: SeatView,
        candidates: Sequence[tuple[str, Action | Plan]],
        start: float,
    ) -> int:
        """Index of the best candidate (0 if the budget allows no complete iteration)."""
        k = len(candidates)
        deadline = start + self.seconds * (1.0 - self.margin) - 0.002
        limit = self.iterations
        values: list[list[float]] = [[] for _ in range(k)]
        alive = list(range(k))
        playouts = 0
        rounds = 0
        seat = view.seat
        rng = random.Random(self.rng.getrandbits(64))
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        while len(alive) > 1:
            if limit is None and time.perf_counter() >= deadline:
                break
            if limit is not None and playouts >= limit:
                break
            base = sample_state(view, rng)
            complete = True
            for i in alive:
                if limit is None and time.perf_counter() >= deadline:
                    complete = False
                    break
                if limit is not None and playouts >= limit:
                    complete = False
                    break
                kind, candidate = candidates[i]
                try:
                    value = self._playout(base.copy(), kind, candidate, seat)
                except IllegalActionError:
                    value = -1e6
                values[i].append(value)
                playouts += 1
            if not complete:
                for i in alive:
                    del values[i][rounds:]
                break
            rounds += 1
            if rounds >= 6 and rounds % 2 == 0:
                alive = self._prune(alive, values)
        self.playouts += playouts
        self.search_time += time.perf_counter() - t0
        self.search_cpu += time.process_time() - cpu0
        self.searches += 1
        if rounds == 0:
            return 0
        return max(alive, key=lambda i: (sum(values[i]) / len(values[i]), -i))

    def _prune(self, alive: list[int], values: list[list[float]]) -> list[int]:
        means = {i: sum(values[i]) / len(values[i]) for i in alive}
        best = max(alive, key=lambda i: (means[i], -i))
        ref = values[best]
        keep = []
        for i in alive:
            if i == best:
                keep.append(i)
                continue
            diffs = [a - b for a, b in zip(values[i], ref, strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean + self.z * math.sqrt(var / n) >= 0:
                keep.append(i)
        return keep


__all__ = ["VARIANTS", "SearchBot", "labelled_plan_variants", "plan_variants"]
