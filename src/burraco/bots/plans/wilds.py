"""Wild-card use: wild cards (jokers and pinelle) are kept, and only spent to empty the hand for
the pozzetto (in diretta, or down to one card to discard), to close, to complete a burraco from a
six-card meld when the line needs one or the end is near, or to unload them when the smazzata is
about to end. Which cards are wild is the engine's ``is_wild_kind``."""

from __future__ import annotations

from burraco.engine.cards import JOKER_ID, is_wild_kind
from burraco.engine.melds import RUN

from .builder import Builder
from .geometry import NATPOS, NEIGHBOURS, TWOS, run_positions
from .naturals import attach_naturals
from .outlook import outs, threat
from .table import Table


def _wild_kinds(b: Builder) -> list[int]:
    """The kinds of wild held, cheapest first (twos, then the joker)."""
    hand = b.hand
    out = [two for two in TWOS if hand[two]]
    if hand[JOKER_ID]:
        out.append(JOKER_ID)
    return out


def _pair_opens(b: Builder, wild: int) -> list[tuple[int, ...]]:
    """New melds of two naturals of the hand and ``wild``: pairs for a set, near cards of a
    suit for a run."""
    hand = b.hand
    set_ranks = b.rules.set_ranks
    line_sets = b.set_ranks
    out: list[tuple[int, ...]] = []
    for c in range(52):
        k = hand[c]
        if not k or is_wild_kind(c):
            continue
        s, r = divmod(c, 13)
        rank = r + 1
        if rank in set_ranks and rank not in line_sets:
            if k >= 2:
                out.append((c, c, wild))
            for s2 in range(s + 1, 4):
                if hand[s2 * 13 + r]:
                    out.append((c, s2 * 13 + r, wild))
        for _, n, _ in NEIGHBOURS[c]:
            if n > c and hand[n] and not is_wild_kind(n):
                out.append((c, n, wild))
    return out


def _wild_attaches(b: Builder, wild: int, with_natural: bool) -> list[tuple[int, tuple[int, ...]]]:
    """Attaches of ``wild`` to the line's melds (never dirtying a clean burraco): alone, or with
    a natural card of the hand beyond a gap."""
    hand = b.hand
    need = b.rules.burraco_min_length
    out: list[tuple[int, tuple[int, ...]]] = []
    for index, meld in enumerate(b.melds):
        if not meld.accepts_wild or (meld.wild is None and len(meld) >= need):
            continue
        if with_natural:
            if meld.kind != RUN:
                continue
            low, high = run_positions(meld)
            nat = NATPOS[meld.suit]
            for p in (low - 2, high + 2):
                if 1 <= p <= 14:
                    card = nat[p]
                    if not is_wild_kind(card) and hand[card] and card != wild:
                        out.append((index, (card, wild)))
        else:
            out.append((index, (wild,)))
    return out


def _spend_one_wild(b: Builder, kinds: list[int], *, closing: bool) -> bool:
    """Meld one wild of ``kinds``: a new meld of two naturals and the wild first, then the wild
    with a natural on a run, then the wild alone (when ``closing``, only while a natural card
    would be left to discard). True if one was melded."""
    if not (closing and b.size <= 3):
        for wild in kinds:
            for cards in _pair_opens(b, wild):
                if b.open(cards) is not None:
                    return True
    if not (closing and b.size <= 2):
        for wild in kinds:
            for index, cards in _wild_attaches(b, wild, True):
                if b.attach(index, cards) is not None:
                    return True
    if not (closing and b.size <= 1):
        for wild in kinds:
            for index, cards in _wild_attaches(b, wild, False):
                if b.attach(index, cards) is not None:
                    return True
    return False


def use_wilds(b: Builder, target: int, *, closing: bool) -> bool:
    """Spend wilds until the hand holds ``target`` cards or fewer; True if reached.

    ``closing``: the hand may not be emptied, and the last card must be a natural.
    Greedy, one wild at a time (``_spend_one_wild``), the natural melds it allows after each.
    """
    kinds = _wild_kinds(b)
    if not kinds:
        return b.size <= target and not closing
    wild_count = sum(b.hand[w] for w in kinds)
    if b.size - wild_count > 2 * wild_count + target:
        return False  # each wild takes at most two naturals with it
    while b.size > target:
        kinds = _wild_kinds(b)
        if not kinds:
            return False
        if not _spend_one_wild(b, kinds, closing=closing):
            return False
        attach_naturals(b)
        if closing and b.size == 0:
            return False
    if closing:
        return b.size == 1 and not is_wild_kind(b.left()[0])
    return True


def _complete_burraco(b: Builder, index: int) -> bool:
    wilds = b.wilds()
    if not wilds:
        return False
    # the cheapest wild: a two (20) before a joker (30)
    for wild in sorted(set(wilds), key=lambda w: (w == JOKER_ID, w)):
        if b.try_attach(index, [wild]) is not None:
            b.attach(index, [wild])
            return True
    return False


def burraco_for_closing(b: Builder) -> None:
    """Complete the longest six-card meld with a wild, if the hand has one to spare."""
    need = b.rules.burraco_min_length
    candidates = [
        i for i, m in enumerate(b.melds) if len(m) == need - 1 and m.wild is None and m.accepts_wild
    ]
    if candidates and b.size >= 2 and b.wilds():
        _complete_burraco(b, max(candidates, key=lambda i: b.melds[i].points(b.rules)))


def burraco_with_wild(table: Table, b: Builder, *, force: bool) -> None:
    """Complete a six-card meld into a (dirty) burraco with a wild when it is worth it."""
    rules = table.rules
    need = rules.burraco_min_length
    taken = table.taken[table.line]
    keep = 2 if taken else 1
    while b.size > keep:
        wilds = b.wilds()
        if not wilds:
            return
        candidates = [
            i
            for i, m in enumerate(b.melds)
            if len(m) == need - 1 and m.wild is None and m.accepts_wild
        ]
        if not candidates:
            return
        has_burraco = b.has_burraco(rules.closing_requires_clean)
        index = max(candidates, key=lambda i: b.melds[i].points(rules))
        live = outs(table, b.melds[index])
        style = table.style.burraco_wild
        worth = (
            force
            or style > 0
            or (taken and not has_burraco)
            or table.turns_left() <= 3
            or threat(table)
            or (style == 0 and (live <= 2 or table.turns_left() <= 6 or len(wilds) >= 2))
        )
        if not worth or not _complete_burraco(b, index):
            return
        force = False


def dump_time(table: Table) -> bool:
    """Whether wilds still in the hand should be melded wherever they fit: the last turns, or an
    opponent about to close (a wild left in the hand costs its points)."""
    return table.turns_left() <= 1 or threat(table)


def dump_wilds(table: Table, b: Builder) -> None:
    """Meld wilds wherever they fit (without dirtying a clean burraco), keeping two cards."""
    keep = 2 if table.taken[table.line] else 1
    while b.size > keep:
        done = False
        for wild in reversed(_wild_kinds(b)):  # the joker first: it costs most in the hand
            options: list[tuple[int, tuple[int, ...]]] = []
            if b.size - 3 >= keep:
                options += [(-1, cards) for cards in _pair_opens(b, wild)]
            if b.size - 2 >= keep:
                options += _wild_attaches(b, wild, True)
            options += _wild_attaches(b, wild, False)
            for index, cards in options:
                if index < 0:
                    done = b.open(cards) is not None
                else:
                    done = b.attach(index, cards) is not None
                if done:
                    break
            if done:
                break
        if not done:
            return
