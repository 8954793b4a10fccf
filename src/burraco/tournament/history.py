"""What earlier rounds tell the pairing systems: who met whom, who partnered whom, who sat out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .entrants import EntrantId
from .pairing import Pairing

Pair = frozenset[EntrantId]


def pair(a: EntrantId, b: EntrantId) -> Pair:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class History:
    """The rounds played so far, with the counts the pairing systems look up."""

    rounds: tuple[Pairing, ...] = ()
    opponents: Mapping[Pair, int] = field(default_factory=dict, compare=False)
    """How many times two entrants met as opponents."""
    partners: Mapping[Pair, int] = field(default_factory=dict, compare=False)
    """How many times two single players were partners."""
    byes: Mapping[EntrantId, int] = field(default_factory=dict, compare=False)
    """How many byes (or rests) each entrant has had."""
    last_opponents: frozenset[Pair] = field(default=frozenset(), compare=False)
    """Opponents of the previous round (T19, ``not_previous_round``)."""

    @classmethod
    def of(cls, rounds: Iterable[Pairing]) -> History:
        played = tuple(rounds)
        opponents: Counter[Pair] = Counter()
        partners: Counter[Pair] = Counter()
        byes: Counter[EntrantId] = Counter()
        for p in played:
            opponents.update(pair(a, b) for a, b in p.opponent_pairs())
            partners.update(pair(a, b) for a, b in p.partner_pairs())
            byes.update(p.byes)
        last = frozenset(pair(a, b) for a, b in played[-1].opponent_pairs()) if played else None
        return cls(played, dict(opponents), dict(partners), dict(byes), last or frozenset())

    def then(self, pairing: Pairing) -> History:
        """This history with one more round."""
        return History.of((*self.rounds, pairing))

    def met(self, a: EntrantId, b: EntrantId) -> int:
        return self.opponents.get(pair(a, b), 0)

    def partnered(self, a: EntrantId, b: EntrantId) -> int:
        return self.partners.get(pair(a, b), 0)

    def bye_count(self, entrant: EntrantId) -> int:
        return self.byes.get(entrant, 0)
