"""Same-cards tournaments (*carte uguali*, bridge's duplicate): every table of a round plays
the same deals in the same seats, and each line is compared with the lines that held the same
cards at the other tables (docs/tournaments.md, "Same cards").

Two pure pieces:

- ``round_deals``: the round's decks, salts, commitments and first seat, derived from the
  tournament's secret seed (HMAC-SHA256), so that they are fixed before the round starts and
  the same after a restart, with nothing more to store. The commitment is the one of
  ``burraco.engine.fairness``: ``sha256(f"{deck} {salt}")``.
- ``compare``: each deal's MP (R65, per deal) of a line against the average MP of the lines
  in the same seat at the other tables that completed the deal; the sum over the round's deals,
  rounded to whole MP, is turned into VP by the tournament's VP table (R66, 4.4).

Pure: the standard library and the engine only.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from burraco.engine import Rules
from burraco.engine.cards import Card
from burraco.engine.deal import shuffled_deck
from burraco.engine.fairness import commitment_of, deck_text
from burraco.engine.vp import VPTable

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class FixedDeal:
    """One deal of a same-cards round: the deck (top first), its salt and its commitment."""

    deck: tuple[Card, ...]
    salt: str
    commitment: str

    @property
    def text(self) -> str:
        return deck_text(self.deck)


@dataclass(frozen=True, slots=True)
class RoundDeals:
    """A same-cards round's deals: every table plays ``deals[k]`` as smazzata ``k + 1``, the
    first player of the round at seat ``first`` at every table (then the usual rotation)."""

    round: int
    first: int
    deals: tuple[FixedDeal, ...]

    @property
    def commitments(self) -> tuple[str, ...]:
        return tuple(d.commitment for d in self.deals)


def _stream(seed: int, label: str) -> bytes:
    key = hashlib.sha256(f"burraco-same-cards:{seed}".encode()).digest()
    return hmac.new(key, label.encode(), hashlib.sha256).digest()


def round_deals(seed: int, round: int, rules: Rules, smazzate: int) -> RoundDeals:
    """Round ``round``'s decks and first seat, derived from the tournament's secret ``seed``:
    each deck is a uniform shuffle (R7) from a generator seeded with 256 bits of
    HMAC-SHA256(seed, round, deal); the salts come from the same key."""
    if smazzate < 1:
        raise ValueError("a round has at least one smazzata")
    first_rng = random.Random(int.from_bytes(_stream(seed, f"{round}:first")))
    first = first_rng.randrange(rules.players)
    deals = []
    for k in range(1, smazzate + 1):
        rng = random.Random(int.from_bytes(_stream(seed, f"{round}:{k}:deck")))
        deck = tuple(shuffled_deck(rules, rng))
        salt = _stream(seed, f"{round}:{k}:salt").hex()[:32]
        deals.append(FixedDeal(deck, salt, commitment_of(deck_text(deck), salt)))
    return RoundDeals(round, first, tuple(deals))


# ------------------------------------------------------------------------------ comparison


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """One table of a same-cards round as played: each completed deal's line scores (line 0,
    line 1), and whether it takes part in the comparison (``False`` when the match ended by a
    timeout or a forfeit: that table gets T14's technical score and no deal of it counts)."""

    table: int
    deals: tuple[Pair, ...]
    compared: bool = True


@dataclass(frozen=True, slots=True)
class DealComparison:
    """One deal at one table, from line 0's side (line 1's is the opposite): the deal's MP
    (R65), the average MP of line 0 at the other tables that played it (``None``: nobody
    else did) and the difference (0 when there is no field)."""

    deal: int
    mp: int
    field: Fraction | None
    difference: Fraction
    others: int
    """How many other tables the average is over."""


@dataclass(frozen=True, slots=True)
class TableComparison:
    """A compared table: every deal, the exact sum of the differences for line 0, the MP of
    both lines (that sum rounded to whole MP, halves away from zero; line 1 the opposite) and
    their VP from the VP table (20 in all)."""

    table: int
    deals: tuple[DealComparison, ...]
    exact: Fraction
    mp: Pair
    vp: Pair


def round_half_away(value: Fraction) -> int:
    """``value`` rounded to the nearest integer, halves away from zero (so that
    ``round_half_away(-x) == -round_half_away(x)``: the two lines of a table stay opposite)."""
    magnitude = abs(value)
    whole = int(magnitude + Fraction(1, 2))
    return whole if value >= 0 else -whole


def compare(tables: Sequence[PlayedTable], vp: VPTable) -> dict[int, TableComparison]:
    """Every compared table of a round: for each deal, line 0's MP minus the average MP of line
    0 at the other compared tables that completed that deal (the same cards in the same
    seats); the sum over the deals, rounded, gives the line's MP and, by ``vp``, its VP.
    Tables not compared are left out (the caller scores them with T14)."""
    numbers = [t.table for t in tables]
    if len(set(numbers)) != len(numbers):
        raise ValueError("two results for one table")
    field = [t for t in tables if t.compared]
    deal_mp: dict[int, dict[int, int]] = {}
    for t in field:
        for k, (a, b) in enumerate(t.deals, 1):
            deal_mp.setdefault(k, {})[t.table] = a - b
    out: dict[int, TableComparison] = {}
    for t in field:
        rows = []
        for k, (a, b) in enumerate(t.deals, 1):
            others = [m for n, m in deal_mp[k].items() if n != t.table]
            mp = a - b
            if others:
                avg = Fraction(sum(others), len(others))
                rows.append(DealComparison(k, mp, avg, mp - avg, len(others)))
            else:
                rows.append(DealComparison(k, mp, None, Fraction(0), 0))
        exact = sum((r.difference for r in rows), Fraction(0))
        mp0 = round_half_away(exact)
        out[t.table] = TableComparison(t.table, tuple(rows), exact, (mp0, -mp0), vp.split(mp0))
    return out
