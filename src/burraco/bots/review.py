"""Review by the bot: how many Match Points each decision of one seat cost (issue 18).

The record is replayed; at each decision of the chosen seat (the acquire: draw or pick up the
pile; the play phase: the rest of the turn, melds and lay-offs then the discard or the close, cut
after a pozzetto taken in diretta, whose cards the seat could not know) the seat's ``SeatView``
alone is handed to ``review_decision``. It finds the search bot's preferred choice as the search
bot does (its candidates, draw and pick up or the whole-turn plans of ``labelled_plan_variants``,
on the same sampled worlds, ``sample_state``, a few turns then the fitted ``evaluate``), then
plays that choice and the played one to the end of the smazzata on fresh sampled worlds (common
random numbers, the heuristic playing every seat): the cost is the mean paired difference of the
exact scores (the line's score minus the other lines' mean, R60), with a 95% confidence
interval. docs/review.md has the details and the JSON.

The budget is given in seconds per decision but spent as turns of playout
(``seconds * REFERENCE_RATE``), so that a review is deterministic for a seed on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from burraco.engine.actions import DRAW, PICKUP, Action
from burraco.engine.errors import IllegalActionError, RecordError
from burraco.engine.match import Match
from burraco.engine.record import Record, read_record, replay
from burraco.engine.state import Phase, Smazzata
from burraco.engine.views import SeatView, legal_actions_for, sample_state

from .evaluate import evaluate
from .heuristic import finish_turn, play_turn
from .plans.table import Table
from .search import labelled_plan_variants

FORMAT: Final = "burraco-review/1"
DEFAULT_SECONDS: Final = 0.4
"""Budget per decision: one 2-player smazzata for one seat takes well under 60 s of one core."""
REFERENCE_RATE: Final = 13000.0
"""Turns of playout per second of one core of the benchmark machine (bench/review_bench.py)."""
SELECT_DEPTH: Final = 4
"""Turns played after the decision's turn before ``evaluate`` when choosing the best candidate
(the search bot's default); its cost is then measured to the end of the smazzata."""
SELECT_SHARE: Final = 0.25
"""The share of the budget spent choosing the best candidate."""
MIN_WORLDS: Final = 8
"""Sampled worlds per decision at the least, whatever the budget."""
Z95: Final = 1.959964
VERDICTS: Final = ("ok", "inaccuracy", "mistake", "blunder")


class ReviewError(ValueError):
    """The record cannot be reviewed: an illegal action, a wrong result, a seat not at the
    table. ``code`` is the exit code of ``burraco review`` (1 or 2, as ``burraco replay``)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[ReviewError], tuple[str, int]]:
        # raised in a worker process, it reaches the caller whole (the code too)
        return (ReviewError, (str(self), self.code))


@dataclass(frozen=True, kw_only=True)
class Thresholds:
    """Costs (Match Points) from which a decision is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float = 30.0
    mistake: float = 60.0
    blunder: float = 150.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must satisfy 0 < inaccuracy <= mistake <= blunder")

    def verdict(self, cost: float, low: float) -> str:
        """The verdict of a cost; "ok" too when the interval reaches 0 (no clear loss)."""
        if low <= 0.0:
            return "ok"
        if cost >= self.blunder:
            return "blunder"
        if cost >= self.mistake:
            return "mistake"
        if cost >= self.inaccuracy:
            return "inaccuracy"
        return "ok"

    def to_json(self) -> dict[str, Any]:
        return {"inaccuracy": _num(self.inaccuracy), "mistake": _num(self.mistake),
                "blunder": _num(self.blunder)}  # fmt: skip


DEFAULT_THRESHOLDS: Final = Thresholds()


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """The outcome of ``review_decision``: the best choice and the played one's cost."""

    best: tuple[Action, ...]
    cost: float
    low: float
    high: float
    playouts: int


@dataclass(frozen=True, kw_only=True)
class Decision:
    """One reviewed decision (see the JSON in docs/review.md)."""

    turn: int
    phase: str
    action_index: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    cost: float
    low: float
    high: float
    playouts: int
    verdict: str

    def __post_init__(self) -> None:
        if self.phase not in ("acquire", "play"):
            raise ValueError(f"phase must be 'acquire' or 'play', not {self.phase!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}")
        if not 0.0 <= self.low <= self.cost <= self.high:
            raise ValueError("a decision needs 0 <= low <= cost <= high")
        if not self.played or not self.best:
            raise ValueError("a decision has at least one played and one best action")

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "action_index": self.action_index,
            "played": list(self.played),
            "best": list(self.best),
            "cost": self.cost,
            "low": self.low,
            "high": self.high,
            "playouts": self.playouts,
            "verdict": self.verdict,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        return cls(
            turn=int(data["turn"]),
            phase=str(data["phase"]),
            action_index=int(data["action_index"]),
            played=tuple(str(a) for a in data["played"]),
            best=tuple(str(a) for a in data["best"]),
            cost=float(data["cost"]),
            low=float(data["low"]),
            high=float(data["high"]),
            playouts=int(data["playouts"]),
            verdict=str(data["verdict"]),
        )


@dataclass(frozen=True, kw_only=True)
class SmazzataReview:
    number: int
    decisions: tuple[Decision, ...] = ()

    @property
    def mp_lost(self) -> int:
        """The costs of the decisions rated inaccuracy or worse, rounded."""
        return round(sum(d.cost for d in self.decisions if d.verdict != "ok"))

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "mp_lost": self.mp_lost,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SmazzataReview:
        return cls(
            number=int(data["number"]),
            decisions=tuple(Decision.from_json(d) for d in data["decisions"]),
        )


@dataclass(frozen=True, kw_only=True)
class Review:
    """The review of one seat over a whole record (``review_record``)."""

    seat: int
    player: str
    rules: str
    seconds: float
    thresholds: Thresholds = field(default_factory=Thresholds)
    smazzate: tuple[SmazzataReview, ...] = ()

    @property
    def mp_lost(self) -> int:
        return sum(s.mp_lost for s in self.smazzate)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "seat": self.seat,
            "player": self.player,
            "rules": self.rules,
            "seconds": self.seconds,
            "thresholds": self.thresholds.to_json(),
            "mp_lost": self.mp_lost,
            "smazzate": [s.to_json() for s in self.smazzate],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        if data.get("format") != FORMAT:
            raise ValueError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
        t = data["thresholds"]
        return cls(
            seat=int(data["seat"]),
            player=str(data["player"]),
            rules=str(data["rules"]),
            seconds=float(data["seconds"]),
            thresholds=Thresholds(
                inaccuracy=float(t["inaccuracy"]),
                mistake=float(t["mistake"]),
                blunder=float(t["blunder"]),
            ),
            smazzate=tuple(SmazzataReview.from_json(s) for s in data["smazzate"]),
        )


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


# ------------------------------------------------------------------------------ one decision


def _playout(
    state: Smazzata, actions: Sequence[Action], seat: int, depth: int
) -> tuple[float, int]:
    """Play ``actions`` (the seat's choice), finish the turn with the heuristic, then ``depth``
    more turns (-1: to the end) and evaluate for the seat's line. The value, and the turns
    played (the work done, which the budget counts)."""
    for action in actions:
        state.apply(action)
    if not state.is_over and state.current == seat and state.phase == Phase.PLAY:
        finish_turn(state)
    turns = 1
    while not state.is_over and turns != depth + 1:
        play_turn(state)
        turns += 1
    return evaluate(state, seat), turns


def candidates_of(view: SeatView) -> list[tuple[Action, ...]]:
    """The search bot's candidates at this view: draw and pick up, or its whole-turn plans."""
    legal = legal_actions_for(view)
    if view.phase == Phase.ACQUIRE:
        return [(a,) for a in legal if a.verb in (DRAW, PICKUP)]
    plans = labelled_plan_variants(Table.of_view(view), legal)
    return [plan.actions for _, plan in plans]


def review_decision(
    view: SeatView,
    played: Sequence[Action],
    *,
    budget: int,
    rng: random.Random,
) -> Estimate:
    """The cost of ``played`` (the seat's actions at this decision) against the best of the
    search bot's candidates, from ``view`` alone, in about ``budget`` turns of playouts.

    First the search bot's way (``SELECT_SHARE`` of the budget): every candidate on the same
    sampled worlds, ``SELECT_DEPTH`` turns then the fitted evaluation, the clearly worse ones
    pruned, the best mean preferred. Then, if that is not the played choice, the two are played
    to the end of the smazzata on fresh worlds: the cost is the mean of the exact score
    differences, not the evaluation's (biased between choices), nor measured on the worlds that
    chose the best (whose noise would inflate it)."""
    played = tuple(played)
    options = [played] + [c for c in candidates_of(view) if c != played]
    if len(options) == 1:
        return Estimate(best=played, cost=0.0, low=0.0, high=0.0, playouts=0)
    share = round(budget * SELECT_SHARE)
    values, used, work = _race(
        view, options, list(range(len(options))), share, rng=rng, depth=SELECT_DEPTH
    )
    alive = [i for i, v in enumerate(values) if len(v) == len(values[0])]
    best = max(alive, key=lambda i: (_mean(values[i]), -i))
    if best == 0:
        return Estimate(best=played, cost=0.0, low=0.0, high=0.0, playouts=used)
    pair, more, _ = _race(view, options, [0, best], budget - work, rng=rng, depth=-1)
    diffs = [b - p for b, p in zip(pair[best], pair[0], strict=True)]
    mean = _mean(diffs)
    half = Z95 * _stderr(diffs)
    cost = round(max(0.0, mean), 1)
    return Estimate(
        best=options[best] if mean > 0 else played,
        cost=cost,
        low=min(cost, round(max(0.0, mean - half), 1)),
        high=max(cost, round(max(0.0, mean + half), 1)),
        playouts=used + more,
    )


def _race(
    view: SeatView,
    options: Sequence[tuple[Action, ...]],
    alive: list[int],
    budget: int,
    *,
    rng: random.Random,
    depth: int,
) -> tuple[list[list[float]], int, int]:
    """Play the ``alive`` options on shared sampled worlds (common random numbers), at least
    MIN_WORLDS of them, then while ``budget`` turns of playouts last; from time to time drop
    the options clearly worse than the best (never option 0, the played one). The values per
    option, the playouts and the turns played."""
    seat = view.seat
    values: list[list[float]] = [[] for _ in options]
    used = work = rounds = 0
    while rounds < MIN_WORLDS or work < budget:
        base = sample_state(view, rng)
        try:
            mine, turns = _playout(base.copy(), options[0], seat, depth)
        except IllegalActionError:  # cannot happen: legality depends on the view only
            continue
        values[0].append(mine)
        work += turns
        for i in alive[1:]:
            try:
                value, turns = _playout(base.copy(), options[i], seat, depth)
            except IllegalActionError:
                value, turns = -1e6, 1
            values[i].append(value)
            work += turns
        used += len(alive)
        rounds += 1
        if rounds >= MIN_WORLDS and rounds % 4 == 0 and len(alive) > 2:
            alive = _prune(alive, values)
    return values, used, work


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.inf
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def _prune(alive: list[int], values: list[list[float]], z: float = 2.0) -> list[int]:
    """Drop the candidates clearly worse than the best (never the played one, index 0)."""
    best = max(alive, key=lambda i: (_mean(values[i]), -i))
    keep = []
    for i in alive:
        if i in (0, best):
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[i], values[best], strict=True)]
        if _mean(diffs) + z * _stderr(diffs) >= 0:
            keep.append(i)
    return keep


# ------------------------------------------------------------------------------ the record


@dataclass(frozen=True, kw_only=True)
class DecisionPoint:
    """A decision of the reviewed seat found in the record: its view and what was played."""

    hand: int
    turn: int
    phase: str
    action_index: int
    view: SeatView
    played: tuple[Action, ...]


def decision_points(record: Record, seat: int) -> list[DecisionPoint]:
    """Every decision of ``seat`` in the record (but a forced acquire: the pile cannot be
    picked up). Raises ReviewError if the record does not replay."""
    result = replay(record)
    if result.error is not None:
        raise ReviewError(str(result.error), code=1)
    rules = record.ruleset()
    match = Match(rules, first=record.hands[0].first if record.hands else 0)
    out: list[DecisionPoint] = []
    for number, hand in enumerate(record.hands, start=1):
        state = match.deal(deck=hand.deck, deal=hand.deal, first=hand.first)
        out += _hand_points(number, state, hand.actions, seat)
        if state.is_over:
            match.add(state.score())
    return out


def _hand_points(
    number: int, state: Smazzata, actions: Sequence[Action], seat: int
) -> list[DecisionPoint]:
    out: list[DecisionPoint] = []
    turn = 0
    i = 0
    while i < len(actions):
        if state.phase == Phase.ACQUIRE:
            turn += 1
        if state.current != seat:
            state.apply(actions[i])
            i += 1
            continue
        view = state.view(seat)
        start = i
        if state.phase == Phase.ACQUIRE:
            phase = "acquire"
            state.apply(actions[i])
            i += 1
        else:
            phase = "play"
            while i < len(actions) and not state.is_over:
                size = state.sizes[seat] - len(actions[i].cards)
                state.apply(actions[i])
                i += 1
                if state.current != seat or state.phase != Phase.PLAY:
                    break
                if state.sizes[seat] > size:
                    break  # a pozzetto in diretta: the rest is a new decision
        played = tuple(actions[start:i])
        if phase == "play" or len(candidates_of(view)) > 1:
            out.append(
                DecisionPoint(
                    hand=number,
                    turn=turn,
                    phase=phase,
                    action_index=start,
                    view=view,
                    played=played,
                )
            )
    return out


def seat_of(record: Record, seat: int | str) -> int:
    """A seat number, or a player's name (ReviewError if neither is at the table)."""
    players = record.players
    if isinstance(seat, int):
        if not 0 <= seat < len(players):
            raise ReviewError(f"there is no seat {seat} at a {len(players)}-player table")
        return seat
    if seat.isdecimal():
        return seat_of(record, int(seat))
    if seat in players:
        return players.index(seat)
    folded = [p.casefold() for p in players]
    if folded.count(seat.casefold()) == 1:
        return folded.index(seat.casefold())
    raise ReviewError(f"no player {seat!r} in the record (players: {', '.join(players)})")


def review_record(
    record: Record,
    *,
    seat: int | str,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> Review:
    """Review every decision of ``seat`` in ``record`` (see the module doc); ``progress(done,
    total)`` is called after each decision. Deterministic for a given seed."""
    if not seconds > 0:
        raise ValueError("seconds must be positive")
    seat = seat_of(record, seat)
    points = decision_points(record, seat)
    budget = max(1, round(seconds * REFERENCE_RATE))  # turns of playouts per decision
    by_hand: dict[int, list[Decision]] = {n: [] for n in range(1, len(record.hands) + 1)}
    for done, point in enumerate(points, start=1):
        rng = random.Random(f"review:{seed}:{point.hand}:{point.action_index}")
        estimate = review_decision(point.view, point.played, budget=budget, rng=rng)
        by_hand[point.hand].append(
            Decision(
                turn=point.turn,
                phase=point.phase,
                action_index=point.action_index,
                played=tuple(str(a) for a in point.played),
                best=tuple(str(a) for a in estimate.best),
                cost=estimate.cost,
                low=estimate.low,
                high=estimate.high,
                playouts=estimate.playouts,
                verdict=thresholds.verdict(estimate.cost, estimate.low),
            )
        )
        if progress is not None:
            progress(done, len(points))
    return Review(
        seat=seat,
        player=record.players[seat],
        rules=record.rules,
        seconds=float(seconds),
        thresholds=thresholds,
        smazzate=tuple(SmazzataReview(number=n, decisions=tuple(d)) for n, d in by_hand.items()),
    )


def review_text(
    record_text: str,
    *,
    seat: int | str = 0,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """``review_record`` on a record's TOML text, as its JSON (for a worker process)."""
    try:
        record = read_record(record_text)
    except RecordError as error:
        raise ReviewError(f"malformed: {error}") from None
    review = review_record(record, seat=seat, seconds=seconds, seed=seed, progress=progress)
    return review.to_json()


__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_THRESHOLDS",
    "FORMAT",
    "Decision",
    "DecisionPoint",
    "Estimate",
    "Review",
    "ReviewError",
    "SmazzataReview",
    "Thresholds",
    "candidates_of",
    "decision_points",
    "review_decision",
    "review_record",
    "review_text",
    "seat_of",
]
