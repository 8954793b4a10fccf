"""The pick-up decision: drawing or picking up the discard pile.

``pickup_gain`` weighs what the pile melds at once, the wild cards and partial melds it brings,
and the cards it adds to the hand, which are material for later melds while the smazzata is young
and nobody can close, but a burden near the end, when an opponent line can close, or when the own
line is about to close.
"""

from __future__ import annotations

from collections.abc import Sequence

from burraco.engine.cards import is_wild_kind
from burraco.engine.melds import SET
from burraco.engine.rules import Rules

from .builder import Builder
from .discard import feed_cards, keep_values
from .geometry import NEIGHBOURS
from .naturals import attach_naturals, open_natural_runs, open_natural_sets
from .outlook import can_close_line, threat
from .table import Table, present_mask


def _may_meld_naturally(table: Table, hand: Sequence[int], present: int) -> bool:
    """A quick test: could the hand meld anything without wilds (a run of three, three of a
    rank, or a card the line's melds are interested in)?"""
    for m in table.melds[table.line]:
        if m.interest & present:
            return True
    for shift in (0, 13, 26, 39):
        ranks = present >> shift & 0x1FFF
        mask = ranks << 1 | (ranks & 1) << 14
        if mask & (mask >> 1) & (mask >> 2):
            return True
    across = (present | present >> 13 | present >> 26 | present >> 39) & 0x1FFF
    for r in range(13):
        if across >> r & 1 and hand[r] + hand[13 + r] + hand[26 + r] + hand[39 + r] >= 3:
            return True
    return False


def _natural_value(table: Table, hand: Sequence[int]) -> tuple[int, int]:
    """(points melded by the natural phase, cards left) for a hand on this table."""
    present = table.present if hand is table.hand else present_mask(hand)
    if not _may_meld_naturally(table, hand, present):
        return 0, sum(hand)
    b = Builder(table, hand)
    attach_naturals(b)
    open_natural_runs(b)
    attach_naturals(b, (SET,))
    open_natural_sets(b)
    attach_naturals(b)
    points = 0
    rules = table.rules
    for action in b.actions:
        for c in action.cards:
            points += rules.card_value(c)
    # bonus for burrachi completed
    own = table.melds[table.line]
    need = rules.burraco_min_length
    before = sum(1 for m in own if len(m) >= need)
    after = sum(1 for m in b.melds if len(m) >= need)
    points += 150 * (after - before)
    return points, b.size


def _structure_gain(with_pile: Sequence[int], pile: Sequence[int], rules: Rules) -> float:
    """Roughly how many partial melds (pairs, run neighbours) the pile's cards make."""
    total = 0.0
    set_ranks = rules.set_ranks
    for c in set(pile):
        if is_wild_kind(c):
            continue
        r = c % 13
        if (r + 1) in set_ranks and with_pile[r] + with_pile[13 + r] + with_pile[
            26 + r
        ] + with_pile[39 + r] >= 2:
            total += 1.0
        for d, n, _ in NEIGHBOURS[c]:
            if with_pile[n]:
                total += 1.0 if d == 1 else 0.5
    return total


def _pile_relevant(table: Table) -> bool:
    """Whether some card of the pile is a wild, attaches to the line's melds, or has a pair or a
    run neighbour in the hand (a cheap filter before the full comparison)."""
    hand = table.hand
    set_ranks = table.rules.set_ranks
    feed: dict[int, int] | None = None
    for c in table.pile:
        if is_wild_kind(c):
            return True
        r = c % 13
        if (r + 1) in set_ranks and (hand[r] or hand[13 + r] or hand[26 + r] or hand[39 + r]):
            return True
        for _, n, _ in NEIGHBOURS[c]:
            if hand[n]:
                return True
        if feed is None:
            feed = feed_cards(table, table.line)
        if c in feed:
            return True
    return len(table.pile) >= 3


THROWBACK_PENALTY = 25.0
"""What a pick-up costs when nothing of the pile melds now and the card the bot would then
discard is one of the pile's own cards: such a pick-up is a draw of the other pile card at best,
and repeated turn after turn it is the mechanical pick-up-and-throw-back loop (issue 15,
defect 11)."""


def _throws_back(table: Table, with_pile: Sequence[int], pile: Sequence[int]) -> bool:
    """Whether the least useful natural card of the hand with the pile (the one the bot would
    discard, roughly) is one of the pile's cards: often the bot's own last discard."""
    keep = keep_values(table, with_pile, table.melds[table.line])
    naturals = [c for c in keep if not is_wild_kind(c)]
    if not naturals:
        return False
    worst = min(naturals, key=lambda c: (keep[c], c))
    return worst in pile


def _burden_case(table: Table) -> int:
    """Which of the style's ``pickup_burden`` figures applies: 4 the last turns, 2 an opponent
    about to close, 1 an opponent line able to close, 3 the own line able to close, 0 else
    (early and safe)."""
    if table.turns_left() <= 3:
        return 4
    if threat(table):
        return 2
    if any(can_close_line(table, line) for line in table.opponent_lines()):
        return 1
    if table.taken[table.line] and can_close_line(table, table.line):
        return 3
    return 0


def pickup_gain(table: Table) -> float:
    """How much better picking up the discard pile looks than drawing (positive: pick up)."""
    rules = table.rules
    pile = table.pile
    if not pile:
        return -1e9
    hand = table.hand
    if len(pile) == 1 and not _pile_relevant(table):
        return -10.0
    with_pile = list(hand)
    wilds = 0
    for c in pile:
        with_pile[c] += 1
        if is_wild_kind(c):
            wilds += 1
    if wilds and not any(n and not is_wild_kind(c) for c, n in enumerate(with_pile)):
        # a hand of wilds only must throw a wild back: a one-for-one swap of wilds is no gain,
        # and two such hands swap wilds turn after turn until the smazzata stalls
        wilds -= 1
    melded_now, left_now = _natural_value(table, hand)
    melded_pile, left_pile = _natural_value(table, with_pile)
    gain = float(melded_pile - melded_now)
    if wilds == 0 and melded_pile <= melded_now and _throws_back(table, with_pile, pile):
        gain -= THROWBACK_PENALTY
    gain += 40 * wilds
    gain += 6 * _structure_gain(with_pile, pile, rules)
    # Cards added to the hand that were not melded: material while the smazzata is young and
    # nobody can close; a burden near the end, when an opponent can close, or when the own line
    # could close soon.
    extra = left_pile - left_now
    case = _burden_case(table)
    per_card = table.style.pickup_burden[case]
    if case == 0 and table.taken[table.line] and sum(hand) <= 6:
        # a short hand that cannot close yet needs material to build a burraco
        gain += 4.0 * min(len(pile), 6)
    gain -= per_card * max(0, extra - wilds)
    # the expected worth of a drawn card instead
    gain -= 8.0
    if len(pile) == 1 and rules.lock_identical_copy:
        gain -= 2.0
    return gain


def want_pickup(table: Table) -> bool:
    return pickup_gain(table) > 0
