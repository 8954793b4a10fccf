"""From a finished match to what the model rates: the teams (by seat), their places, and who is
not to move (the partner of a player who abandoned) or loses more (the player who did)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .mode import Mode
from .rate import RatingsError


@dataclass(frozen=True, slots=True)
class Seat:
    key: str | None
    """``user:ID``, ``bot:LEVEL``, or None for a seat that cannot be rated (a guest)."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    teams: tuple[tuple[int, ...], ...]
    """Seats per team."""
    ranks: tuple[int, ...]
    """One per team, 0 the best, equal for a tie."""
    held: frozenset[int] = frozenset()
    """Seats rated against but left unchanged (the partner who stayed)."""
    penalised: frozenset[int] = frozenset()
    """Seats that abandoned: the match is lost for their line and they lose the penalty."""


def _dense_ranks(scores: Sequence[float]) -> tuple[int, ...]:
    """0 for the highest score, ties equal: (1200, 900, 1200) -> (0, 1, 0)."""
    order = sorted(set(scores), reverse=True)
    return tuple(order.index(score) for score in scores)


def outcome_of(
    mode: Mode,
    *,
    totals: Sequence[int],
    winner: int | None,
    leaver: int | None = None,
) -> MatchOutcome:
    """2 and 4 players: the lines by R1 (seats 0+2 against 1+3), the winner first, a draw a
    tie. 3 players: each on his own, placed by his final total (the pair of the moment does
    not make partners of a match). ``leaver``: the seat that abandoned; his line is last."""
    if mode is Mode.THREE:
        if len(totals) != 3:
            raise RatingsError("a 3-player match is rated by three totals, one per player")
        teams: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,))
        scores = [float(t) for t in totals]
        if leaver is not None:
            scores[leaver] = float("-inf")
        return MatchOutcome(
            teams,
            _dense_ranks(scores),
            penalised=frozenset() if leaver is None else frozenset({leaver}),
        )
    teams = ((0,), (1,)) if mode is Mode.TWO else ((0, 2), (1, 3))
    if len(totals) != 2:
        raise RatingsError(f"a {mode} match is rated by two line totals")
    if leaver is not None:
        line = leaver % 2
        ranks = (1, 0) if line == 0 else (0, 1)
        partner = frozenset(s for s in teams[line] if s != leaver)
        return MatchOutcome(teams, ranks, held=partner, penalised=frozenset({leaver}))
    if winner is None:
        return MatchOutcome(teams, (0, 0))
    if winner not in (0, 1):
        raise RatingsError(f"the winner is line 0 or 1, not {winner}")
    return MatchOutcome(teams, (0, 1) if winner == 0 else (1, 0))
