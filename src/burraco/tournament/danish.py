"""The Danish system (RULES.md T18, T19) with byes for odd numbers (T20).

Round 1 pairs a random order (or the registration order) 1 v 2, 3 v 4, ...; later rounds pair
the standings order the same way, subject to the rematch policy, searching depth-first (T19).
The order passed in already carries the random tie-breaks of T17 (``Standings.pairing_order``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import StrEnum

from .byes import choose_byes
from .entrants import EntrantId
from .history import History, pair
from .matching import first_perfect_matching
from .pairing import Pairing, Table
from .standings import Standings


class RematchPolicy(StrEnum):
    """T19 ``rematch_policy``."""

    ALLOWED = "allowed"
    """Pure Danish (*danese puro*): rematches are allowed."""
    NOT_PREVIOUS_ROUND = "not_previous_round"
    """Modified Danish (*danese modificato*, the default): no rematch of the previous round,
    except in the last round."""
    NEVER = "never"
    """Swiss-like: two entrants never meet twice (the last round included)."""


def first_round(entrants: Sequence[EntrantId], rng: random.Random | None) -> Pairing:
    """T18 round 1: a random order (``rng``) or, with ``rng=None``, the registration order, paired
    1 v 2, 3 v 4, ...; with an odd number the last of that order has the bye (T20)."""
    order = list(entrants)
    if rng is not None:
        rng.shuffle(order)
    return danish_round(order, History(), round=1, policy=RematchPolicy.ALLOWED)


def danish_round(
    order: Sequence[EntrantId],
    history: History,
    *,
    round: int,
    last_round: bool = False,
    policy: RematchPolicy = RematchPolicy.NOT_PREVIOUS_ROUND,
) -> Pairing:
    """Pair one round of the Danish system (T18-T20).

    ``order`` is the ranking for pairing, best first (T17 with random tie-breaks). With an odd
    number, the bye goes first to the lowest-ranked entrant who has had the fewest byes (T20).
    Then the highest unpaired entrant is paired with the highest-ranked remaining one the policy
    allows; when the rest cannot be completed the search backtracks (depth-first, T19). If no
    complete pairing exists the round is paired with ``allowed`` (1 v 2, 3 v 4, ...) and marked
    ``relaxed``.
    """
    if len(set(order)) != len(order):
        raise ValueError("an entrant is listed twice")
    players = list(order)
    byes: tuple[EntrantId, ...] = ()
    if len(players) % 2:
        byes = choose_byes(players, history.byes)
        players.remove(byes[0])
    if policy is RematchPolicy.NOT_PREVIOUS_ROUND and last_round:
        policy = RematchPolicy.ALLOWED
    forbidden: frozenset[frozenset[EntrantId]]
    if policy is RematchPolicy.ALLOWED:
        forbidden = frozenset()
    elif policy is RematchPolicy.NOT_PREVIOUS_ROUND:
        forbidden = history.last_opponents
    else:
        forbidden = frozenset(history.opponents)
    pairs = pair_in_order(players, forbidden)
    relaxed = pairs is None
    if pairs is None:
        pairs = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    tables = tuple(Table.of(n, a, b) for n, (a, b) in enumerate(pairs, 1))
    return Pairing(round, tables, byes, relaxed)


def pair_in_order(
    players: Sequence[EntrantId], forbidden: frozenset[frozenset[EntrantId]]
) -> list[tuple[EntrantId, EntrantId]] | None:
    """T19's depth-first search: the first complete pairing in the order of preference (the
    highest unpaired entrant with the highest-ranked one allowed, backtracking when the rest
    cannot be completed), avoiding the ``forbidden`` pairs; None when there is none.

    Each choice is tested with a maximum-matching check (``matching.first_perfect_matching``),
    so the search takes exactly the choices of a plain depth-first search but never backtracks:
    polynomial time even when many rematches are forbidden."""
    n = len(players)
    if n % 2:
        raise ValueError("an even number of entrants is needed")
    adj = [
        [j for j in range(n) if j != i and pair(players[i], players[j]) not in forbidden]
        for i in range(n)
    ]
    found = first_perfect_matching(adj)
    if found is None:
        return None
    return [(players[i], players[j]) for i, j in found]


def partial_elimination(
    standings: Standings, *, after_round: int, thresholds: Mapping[int, int]
) -> tuple[EntrantId, ...]:
    """T21, Danish with partial elimination: the entrants eliminated after ``after_round``.

    ``thresholds`` maps a round to the VP an entrant needs after it to stay in (e.g. ``{1: 7,
    2: 14}`` for a 3-round event); rounds not listed eliminate nobody. The standings are those
    after ``after_round``, of the entrants still in; the eliminated keep their place in the
    final ranking with the VP they had, and the next round pairs the others
    (``danish_round`` on the pairing order without them)."""
    if after_round < 1:
        raise ValueError(f"T21: rounds are numbered from 1, not {after_round}")
    for number, vp in thresholds.items():
        if number < 1 or vp < 0:
            raise ValueError(
                f"T21: a threshold is a VP count >= 0 after a round >= 1, not {number}: {vp}"
            )
    needed = thresholds.get(after_round)
    if needed is None:
        return ()
    return tuple(row.entrant for row in standings.rows if row.vp < needed)
