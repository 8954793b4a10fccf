"""Maximum matching in a general graph (Edmonds' blossom algorithm), for the Danish search.

T19 pairs depth-first: the highest unpaired entrant with the highest-ranked one allowed, and
backtracks when the rest cannot be completed. Whether the rest can be completed is a perfect
matching question; answering it exactly lets the search take the same choices as a plain
depth-first search without ever backtracking, in polynomial time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def augment(
    root: int, adj: Sequence[Sequence[int]], alive: Sequence[bool], match: list[int]
) -> bool:
    """Look for an augmenting path from the free vertex ``root`` among the ``alive`` vertices
    and, if there is one, flip it in ``match`` (in place). True when the matching grew."""
    n = len(adj)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    used[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if not alive[to] or base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                current = lca(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    end = to
                    while end != -1:  # flip the path root ... v - to
                        pv = parent[end]
                        nxt = match[pv]
                        match[end] = pv
                        match[pv] = end
                        end = nxt
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def maximum_matching(
    adj: Sequence[Sequence[int]], alive: Sequence[bool] | None = None
) -> list[int]:
    """``match[v]``: v's partner in a maximum matching of the ``alive`` vertices, or -1."""
    n = len(adj)
    live = [True] * n if alive is None else list(alive)
    match = [-1] * n
    for v in range(n):
        if live[v] and match[v] == -1:
            augment(v, adj, live, match)
    return match


def first_perfect_matching(adj: Sequence[Sequence[int]]) -> list[tuple[int, int]] | None:
    """The perfect matching a depth-first search in preference order finds first: the lowest
    unpaired vertex with the first vertex of its adjacency list (in the given order) that still
    leaves a perfect matching of the rest; None when the graph has no perfect matching."""
    n = len(adj)
    alive = [True] * n
    match = maximum_matching(adj, alive)
    if any(m == -1 for m in match):
        return None
    out: list[tuple[int, int]] = []
    for top in range(n):
        if not alive[top]:
            continue
        for j in adj[top]:
            if not alive[j] or j == top:
                continue
            if match[top] == j:
                trial = match
            else:
                # Drop top and j; their partners u and v are left free. The rest has a perfect
                # matching exactly when an augmenting path joins u and v.
                trial = list(match)
                u, v = trial[top], trial[j]
                trial[u] = trial[v] = trial[top] = trial[j] = -1
                alive[top] = alive[j] = False
                ok = augment(u, adj, alive, trial)
                alive[top] = alive[j] = True
                if not ok:
                    continue
            alive[top] = alive[j] = False
            trial[top] = trial[j] = -1
            match = trial
            out.append((top, j))
            break
        else:  # pragma: no cover - a perfect matching always leaves a way on
            raise AssertionError("no way to extend a perfect matching")
    return out
