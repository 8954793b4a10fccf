"""Individuals at 4-player tables with a new partner each round (RULES.md T2, *torneo
individuale*; also the club evenings of T26-T29).

Method (documented in docs/tournaments.md): take the players in a preference order (standings
for a Danish round, the drawn stations for a score-independent one). Seat the first unseated
player with the first three remaining players, in order, that the constraints allow, and split
the four into two lines; search depth-first, backtracking when the rest cannot be seated. The
constraints are budgets: at most ``p`` partnerships that already happened in the whole round,
and (when opponents are avoided too) at most ``o`` repeated opponent pairs. The budgets start
at zero and are relaxed step by step (``o`` first, then ``p``), so the seating found has the
fewest repeated partners possible and, among those, few repeated opponents. Each depth-first
search is bounded (``node_limit``); a search that hits the bound counts as failed and the budget
is relaxed, which keeps the time bounded on large fields.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .byes import choose_byes
from .entrants import EntrantId
from .history import History
from .pairing import Line, Pairing, Table

NODE_LIMIT = 50_000
"""Groups of four examined per budget level before the budget is relaxed."""

# The three ways to split four players (in preference order, positions 0..3 best first) into
# two lines: 1st + 4th v 2nd + 3rd (balanced), 1st + 3rd v 2nd + 4th, 1st + 2nd v 3rd + 4th.
SPLITS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 3), (1, 2)),
    ((0, 2), (1, 3)),
    ((0, 1), (2, 3)),
)
_UNLIMITED = 10**9


class _OutOfNodes(Exception):
    pass


def seat_fours(
    order: Sequence[EntrantId],
    history: History,
    *,
    avoid_opponents: bool = False,
    node_limit: int = NODE_LIMIT,
) -> tuple[tuple[tuple[Line, Line], ...], int]:
    """Seat ``order`` (a multiple of 4, best first) at tables of four: the tables' two lines each,
    and how many repeated partnerships could not be avoided (0 when everyone has a new
    partner)."""
    n = len(order)
    if n % 4:
        raise ValueError(f"{n} players do not fill tables of 4")
    if len(set(order)) != n:
        raise ValueError("a player is listed twice")
    partnered = [[history.partnered(a, b) > 0 for b in order] for a in order]
    met = [[history.met(a, b) > 0 for b in order] for a in order]

    def costs(four: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
        out = []
        for pref, (x, y) in enumerate(SPLITS):
            p1, p2 = (four[x[0]], four[x[1]]), (four[y[0]], four[y[1]])
            p = partnered[p1[0]][p1[1]] + partnered[p2[0]][p2[1]]
            o = sum(met[i][j] for i in p1 for j in p2)
            out.append((p, o, pref))
        return sorted(out)

    def attempt(
        p_budget: int, o_budget: int
    ) -> list[tuple[tuple[int, int], tuple[int, int]]] | None:
        dead: set[tuple[int, int, int]] = set()
        nodes = 0

        def search(
            remaining: int, p_left: int, o_left: int
        ) -> list[tuple[tuple[int, int], tuple[int, int]]] | None:
            nonlocal nodes
            if remaining == 0:
                return []
            if (remaining, p_left, o_left) in dead:
                return None
            top = (remaining & -remaining).bit_length() - 1
            others = [i for i in range(top + 1, n) if remaining >> i & 1]
            for trio in itertools.combinations(others, 3):
                nodes += 1
                if nodes > node_limit:
                    raise _OutOfNodes
                four = (top, *trio)
                for p, o, pref in costs(four):
                    if p > p_left or o > o_left:
                        continue
                    mask = remaining & ~sum(1 << i for i in four)
                    rest = search(mask, p_left - p, o_left - o)
                    if rest is not None:
                        x, y = SPLITS[pref]
                        lines = ((four[x[0]], four[x[1]]), (four[y[0]], four[y[1]]))
                        return [lines, *rest]
            dead.add((remaining, p_left, o_left))
            return None

        try:
            return search((1 << n) - 1, p_budget, o_budget)
        except _OutOfNodes:
            return None

    o_ladder = [0, 1, 2, 4, 8, 16, _UNLIMITED] if avoid_opponents else [_UNLIMITED]
    for p_budget in range(n // 2 + 1):
        for o_budget in o_ladder:
            found = attempt(p_budget, o_budget)
            if found is not None:
                repeats = sum(partnered[a][b] for lines in found for a, b in lines)
                seated = tuple(
                    ((order[a], order[b]), (order[c], order[d])) for (a, b), (c, d) in found
                )
                return seated, repeats
    raise AssertionError("unreachable: the widest budget seats everyone at once")


def individual_round(
    order: Sequence[EntrantId],
    history: History,
    *,
    round: int,
    avoid_opponents: bool = False,
) -> Pairing:
    """A round of a *torneo individuale* (T2) paired Danish-style: ``order`` is the pairing order
    (standings with random tie-breaks, or a random order in round 1). Players beyond a multiple
    of 4 (T1 normally prevents them) get byes as T20 says: the lowest-ranked without one."""
    players = list(order)
    byes = choose_byes(players, history.byes, len(players) % 4)
    for b in byes:
        players.remove(b)
    seated, repeats = seat_fours(players, history, avoid_opponents=avoid_opponents)
    tables = tuple(Table(i, lines) for i, lines in enumerate(seated, 1))
    return Pairing(round, tables, byes, relaxed=repeats > 0)
