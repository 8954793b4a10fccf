"""A deal between its ``shuffle`` and its ``dealt``: the server's secret S is drawn and
committed to, with every seat's commitment to its seed, and the table waits (a short while, a
timer) for the seeds of the connected people who committed (docs/protocol.md, "Fair deals")."""

from __future__ import annotations

from dataclasses import dataclass, field

from burraco.engine.fairness import hex_commitment


@dataclass(slots=True)
class PendingDeal:
    number: int
    secret: str
    commitments: dict[int, str]
    """The seats' commitments fixed by the ``shuffle`` event (the others have none)."""
    awaited: set[int]
    """The seats the deal still waits for: connected people who committed, not yet revealed."""
    seeds: dict[int, str] = field(default_factory=dict)
    spoken: set[int] = field(default_factory=set)
    """The seats that sent a seed: one reveal each, the first (right or wrong) counts."""

    def reveal(self, seat: int, seed: str) -> bool:
        """Take a seat's seed if it fits its commitment; False otherwise. Either way the seat
        is no longer waited for, and a second reveal is ignored."""
        sealed = self.commitments.get(seat)
        if sealed is None or seat in self.spoken:
            return False
        self.spoken.add(seat)
        self.awaited.discard(seat)
        if hex_commitment(seed) != sealed:
            return False
        self.seeds[seat] = seed
        return True

    def commitment_list(self, players: int) -> list[str | None]:
        return [self.commitments.get(s) for s in range(players)]

    def seed_list(self, players: int) -> list[str | None]:
        return [self.seeds.get(s) for s in range(players)]
