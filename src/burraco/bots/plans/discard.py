"""The discard: the card least useful to the own hand (pairs, run neighbours, live outs) and
least useful to the next opponent (never a card that extends his melds or fits the cards he
picked up; a card he just discarded is safe), a wild only when forced."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from burraco.engine.cards import JOKER_ID, NUM_TYPES, TWO, is_wild_kind
from burraco.engine.melds import SET, Meld, position_card

from .builder import Builder
from .geometry import NEIGHBOURS
from .table import Table

TAKEN_BONUS = 8.0
"""Extra keep value of a card the bot picked up from the pile and still holds."""


def feed_cards(table: Table, line: int) -> dict[int, int]:
    """Cards that attach alone to the melds of ``line``, with how much they help there."""
    cached = table.feeds.get(line)
    if cached is None:
        cached = table.feeds[line] = _compute_feed_cards(table, line)
    return cached


def _compute_feed_cards(table: Table, line: int) -> dict[int, int]:
    need = table.rules.burraco_min_length
    out: dict[int, int] = {}
    for m in table.melds[line]:
        length = len(m.naturals) + (m.wild is not None)
        for c, weight in _meld_feed((m.kind, m.suit, m.rank, m.mask, m.wild, length), need):
            if out.get(c, 0) < weight:
                out[c] = weight
    return out


@lru_cache(maxsize=65536)
def _meld_feed(
    shape: tuple[int, int, int, int, int | None, int], need: int
) -> tuple[tuple[int, int], ...]:
    """The cards that attach alone to one meld (kind, suit, rank, mask, wild, length), with how
    much they help it."""
    kind, suit, rank, mask, wild, length = shape
    weight = 40
    if length == need - 1:
        weight = 90
    elif length >= need:
        weight = 30
    if kind == SET:
        r = rank - 1
        return tuple((s * 13 + r, weight) for s in range(4))
    low, high = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
    ps = [low - 1, high + 1]
    if wild is not None:
        contiguous = mask.bit_count() == high - low + 1
        if contiguous:
            ps += [low - 2, high + 2]
        else:
            ps += [p for p in range(low + 1, high) if not mask >> p & 1]
    out = []
    for p in ps:
        if 1 <= p <= 14:
            c = position_card(suit, p)
            if is_wild_kind(c) and p != TWO:
                continue
            out.append((c, weight))
    return tuple(out)


def keep_values(table: Table, hand: Sequence[int], melds: Sequence[Meld]) -> dict[int, float]:
    """How much each card of ``hand`` is worth keeping (higher: keep; lower: discard)."""
    rules = table.rules
    seen = table.seen_counts()
    late = 1.0 if table.turns_left() <= 3 else 0.5 if table.turns_left() <= 8 else 0.25
    late *= table.style.points
    set_ranks = rules.set_ranks
    line_sets = {m.rank for m in melds if m.kind == SET}
    out: dict[int, float] = {}
    for c in [c for c in range(NUM_TYPES) if hand[c]]:
        if is_wild_kind(c):
            out[c] = 500.0 + (10 if c == JOKER_ID else 0)
            continue
        r = c % 13
        value = 0.0
        rank = r + 1
        if rank in set_ranks and rank not in line_sets:
            same = hand[r] + hand[13 + r] + hand[26 + r] + hand[39 + r] - 1
            live = 8 - seen[r] - seen[13 + r] - seen[26 + r] - seen[39 + r]
            if same >= 2:
                value += 45
            elif same == 1:
                value += 14 + 4 * live
            else:
                value += 1.5 * live
        for d, n, mid in NEIGHBOURS[c]:
            if hand[n]:
                value += 17 if d == 1 else 10
                # the card between must still be available (the second copy unseen)
                if d == 2 and not is_wild_kind(mid) and seen[mid] >= 2:
                    value -= 8
        if hand[c] >= 2 and rank not in set_ranks:
            value -= 6  # a duplicate of a run card: only one can go in a run
        value -= rules.card_value(c) * late
        out[c] = value
    return out


def danger_values(table: Table, candidates: Sequence[int]) -> dict[int, float]:
    """How much discarding each card helps the next player, if he is an opponent."""
    out = dict.fromkeys(candidates, 0.0)
    nxt = (table.seat + 1) % table.n
    opp_line = table.line_of[nxt]
    if opp_line == table.line:
        return out
    rules = table.rules
    feed = feed_cards(table, opp_line)
    known = table.known[nxt]
    pile_size = len(table.pile) + 1
    factor = (1.0 + min(pile_size, 12) / 6.0) * table.style.danger
    top = table.pile[-1] if table.pile else -1
    live_weight = table.style.liveness
    seen = table.seen_counts() if live_weight else None
    for c in candidates:
        if is_wild_kind(c):
            out[c] = 150.0
            continue
        d = float(feed.get(c, 0))
        r = c % 13
        if seen is not None:
            live = 0
            if (r + 1) in rules.set_ranks:
                live += 8 - seen[r] - seen[13 + r] - seen[26 + r] - seen[39 + r]
            for dist, n, _ in NEIGHBOURS[c]:
                if dist == 1:
                    live += 2 - seen[n]
            d += live_weight * live
        if known:
            if (r + 1) in rules.set_ranks:
                same = (
                    known.get(r, 0)
                    + known.get(13 + r, 0)
                    + known.get(26 + r, 0)
                    + known.get(39 + r, 0)
                )
                d += 22 * min(same, 2)
            for dist, n, _ in NEIGHBOURS[c]:
                if known.get(n, 0):
                    d += 16 if dist == 1 else 9
        if c == top:
            d -= 6
        elif top >= 0 and top % 13 == r and top != JOKER_ID:
            d -= 3
        out[c] = d * factor
    return out


def discardable(table: Table, card: int) -> bool:
    """Whether the lock on the card just picked up (R17) lets ``card`` be discarded."""
    lock = table.lock
    if lock < 0:
        return True
    if card == lock:
        return False
    return not (lock == JOKER_ID and card == JOKER_ID)


def _candidates(table: Table, b: Builder) -> list[int]:
    """The cards of the builder's hand that may be discarded (R17 lock aside)."""
    out = []
    present = b.present
    while present:
        low = present & -present
        present ^= low
        c = low.bit_length() - 1
        if discardable(table, c):
            out.append(c)
    return out


def discard_scores(table: Table, b: Builder, candidates: Sequence[int]) -> dict[int, float]:
    """Keep value plus danger of each candidate discard (lowest: discard it)."""
    keep = keep_values(table, b.hand, b.melds)
    danger = danger_values(table, candidates)
    # a card picked up from the pile and thrown straight back looks mechanical (issue 15,
    # defect 11): other cards of about the same worth go first
    taken = table.known[table.seat]
    return {c: keep[c] + danger[c] + (TAKEN_BONUS if c in taken else 0.0) for c in candidates}


def choose_discard(table: Table, b: Builder, forced: int = -1) -> int | None:
    """The card to discard from the builder's hand (None if no card may be discarded)."""
    rules = table.rules
    candidates = _candidates(table, b)
    if b.size == 1 and candidates:
        card = candidates[0]
        if table.taken[table.line]:
            if is_wild_kind(card) and not rules.closing_discard_may_be_wild:
                return None
            if not b.has_burraco(rules.closing_requires_clean):
                return None
        elif is_wild_kind(card) and not rules.pozzetto_discard_may_be_wild:
            return None
        return card
    if not candidates:
        return None
    if forced >= 0 and forced in candidates:
        return forced
    naturals = [c for c in candidates if not is_wild_kind(c)]
    if naturals:
        candidates = naturals  # never a wild while a natural can go
    if len(candidates) == 1:
        return candidates[0]
    scores = discard_scores(table, b, candidates)
    return min(candidates, key=lambda c: (scores[c], c))


def discard_now(table: Table) -> int | None:
    """The card the planner would discard from the hand as it is (no more melds)."""
    return choose_discard(table, Builder(table))


def discard_ranking(table: Table, b: Builder) -> list[int]:
    """Discard candidates, best first (the search tries the first few)."""
    candidates = _candidates(table, b)
    if b.size <= 1 or len(candidates) <= 1:
        return candidates
    scores = discard_scores(table, b, candidates)
    return sorted(candidates, key=lambda c: (scores[c], c))
