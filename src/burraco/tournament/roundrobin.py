"""Round robin (*girone all'italiana*) by the circle method, with a bye for odd numbers."""

from __future__ import annotations

from collections.abc import Sequence

from .entrants import EntrantId
from .pairing import Pairing, Table


def round_robin_rounds(entrants: int) -> int:
    """How many rounds a full round robin takes: n - 1, or n with an odd n (one bye each)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin_round(entrants: Sequence[EntrantId], round: int) -> Pairing:
    """Round ``round`` (1-based) of the circle method: the first entrant stays, the others turn
    one place each round; position i meets position m - 1 - i. An odd field gets a phantom
    opponent, and whoever meets it has the bye (10 VP, 0 MP, T20): everyone exactly once."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if len(entrants) < 2:
        raise ValueError("a round robin needs at least 2 entrants")
    total = round_robin_rounds(len(entrants))
    if not 1 <= round <= total:
        raise ValueError(f"a round robin of {len(entrants)} has rounds 1 to {total}")
    slots: list[EntrantId | None] = list(entrants)
    if len(slots) % 2:
        slots.append(None)
    m = len(slots)
    rest = slots[1:]
    shift = (round - 1) % (m - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    circle = [slots[0], *rest]
    tables: list[Table] = []
    byes: list[EntrantId] = []
    for i in range(m // 2):
        a, b = circle[i], circle[m - 1 - i]
        if a is not None and b is not None:
            tables.append(Table.of(len(tables) + 1, a, b))
        else:
            byes.extend(e for e in (a, b) if e is not None)
    return Pairing(round, tuple(tables), tuple(byes))


def round_robin(entrants: Sequence[EntrantId]) -> tuple[Pairing, ...]:
    """Every round of the round robin: each pair of entrants meets exactly once."""
    return tuple(
        round_robin_round(entrants, r) for r in range(1, round_robin_rounds(len(entrants)) + 1)
    )
