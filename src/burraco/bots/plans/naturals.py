"""Natural melding: extend the line's runs and sets with natural cards, open natural runs and
sets. Two orders are tried (runs first and sets first) and the one that melds more is kept."""

from __future__ import annotations

from functools import cache

from burraco.engine.cards import TWO, is_wild_kind
from burraco.engine.melds import RUN, SET, Meld, position_card

from .builder import Builder
from .geometry import NATPOS, run_positions
from .table import Table


def _run_has_natural_near(b: Builder, meld: Meld, low: int, high: int) -> bool:
    """A quick test: whether the hand holds a natural one position beyond a run's ends (two
    positions when a floating wild may move)."""
    hand = b.hand
    nat = NATPOS[meld.suit]
    return bool(
        (low > 1 and hand[nat[low - 1]])
        or (high < 14 and hand[nat[high + 1]])
        or (meld.wild is not None and low > 2 and hand[nat[low - 2]])
        or (meld.wild is not None and high < 13 and hand[nat[high + 2]])
    )


def _next_natural(b: Builder, index: int, current: Meld, added: list[int]) -> Meld | None:
    """The run ``current`` (meld ``index`` with ``added`` attached) extended by one more natural
    card of the hand, appended to ``added``; None if none fits. A two only counts at position 2,
    and never where it would stand as the wild of a clean run."""
    meld = b.melds[index]
    suit = meld.suit
    hand = b.hand
    low, high = run_positions(current)
    positions = [low - 1, high + 1, low - 2, high + 2]
    if current.wild is not None and not current.wild_is_floating():
        positions.insert(0, current.wild_position())
    for p in positions:
        if p < 1 or p > 14:
            continue
        card = position_card(suit, p)
        if is_wild_kind(card) and p != TWO:
            continue
        if hand[card] - added.count(card) <= 0:
            continue
        trial = b.try_attach(index, [*added, card])
        if trial is None:
            continue
        if trial.wild is not None and meld.wild is None:
            continue  # the two would stand as a wild
        added.append(card)
        return trial
    return None


def extend_run_naturally(b: Builder, index: int) -> bool:
    """Attach to a run every natural card of the hand that extends it (no new wild)."""
    meld = b.melds[index]
    if meld.wild is None or meld.wild_is_floating():
        low, high = run_positions(meld)
        if not _run_has_natural_near(b, meld, low, high):
            return False
    added: list[int] = []
    result: Meld | None = None
    current = meld
    while (trial := _next_natural(b, index, current, added)) is not None:
        result = current = trial
    if added and result is not None:
        b.attach(index, added, result)
        return True
    return False


def extend_set_naturally(b: Builder, index: int) -> bool:
    meld = b.melds[index]
    r = meld.rank - 1
    hand = b.hand
    if not (hand[r] or hand[13 + r] or hand[26 + r] or hand[39 + r]):
        return False
    cards = [s * 13 + r for s in range(4) for _ in range(hand[s * 13 + r])]
    if not cards:
        return False
    return b.attach(index, cards) is not None


def attach_naturals(b: Builder, kinds: tuple[int, ...] = (RUN, SET)) -> None:
    """Extend the line's melds of ``kinds`` (in that order) with the hand's natural cards."""
    melds = b.melds
    for kind in kinds:
        for index in range(len(melds)):
            meld = melds[index]
            if meld.kind != kind or not meld.interest & b.present:
                continue
            if kind == RUN:
                extend_run_naturally(b, index)
            else:
                extend_set_naturally(b, index)


@cache
def _best_segment(positions: int, two_aces: bool) -> tuple[int, int]:
    """The longest run of consecutive positions (low, length) in a 15-bit position mask."""
    best_low, best_len = 0, 0
    p = 1
    while p <= 14:
        if positions >> p & 1:
            q = p
            while q + 1 <= 14 and positions >> (q + 1) & 1:
                q += 1
            low, high = p, q
            if low == 1 and high == 14 and not two_aces:
                high = 13  # one ace only: take it low
            length = high - low + 1
            if length > best_len:
                best_low, best_len = low, length
            p = q + 1
        else:
            p += 1
    return best_low, best_len


def open_natural_runs(b: Builder) -> None:
    hand = b.hand
    two_aces_rule = b.rules.max_natural_aces_per_run == 2
    for suit in range(4):
        shift = 13 * suit
        while True:
            ranks = b.present >> shift & 0x1FFF
            mask = ranks << 1 | (ranks & 1) << 14  # run positions; the ace also high
            if not mask & (mask >> 1) & (mask >> 2):
                break
            low, length = _best_segment(mask, two_aces_rule and hand[shift] >= 2)
            if length < 3:
                break
            nat = NATPOS[suit]
            if b.open([nat[q] for q in range(low, low + length)]) is None:
                break


def open_natural_sets(b: Builder) -> None:
    hand = b.hand
    present = b.present
    across = (present | present >> 13 | present >> 26 | present >> 39) & 0x1FFF
    if not across:
        return
    for rank in b.rules.set_ranks:
        r = rank - 1
        if not across >> r & 1 or rank in b.set_ranks:
            continue
        if hand[r] + hand[13 + r] + hand[26 + r] + hand[39 + r] < 3:
            continue
        cards = [s * 13 + r for s in range(4) for _ in range(hand[s * 13 + r])]
        b.open(cards)


def natural_phase(table: Table, hold: bool) -> Builder:
    """The builder after the natural melds of the turn (only attaches when ``hold``)."""
    first = Builder(table)
    attach_naturals(first)
    if hold:
        return first
    a = first.clone()
    open_natural_runs(a)
    attach_naturals(a, (SET,))
    open_natural_sets(a)
    attach_naturals(a)
    if not table.rules.set_ranks:
        return a
    s = first.clone()
    open_natural_sets(s)
    open_natural_runs(s)
    attach_naturals(s)
    return s if s.size < a.size else a
