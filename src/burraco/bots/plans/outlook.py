"""How the smazzata stands for the seat to act: the live outs of a meld, the score if it ended
now, whether an opponent line threatens to close, and whether closing now is worth it."""

from __future__ import annotations

from collections.abc import Sequence

from burraco.engine.melds import SET, Meld, position_card
from burraco.engine.rules import Rules

from .builder import Builder
from .geometry import run_positions
from .table import Table


def outs(table: Table, meld: Meld) -> int:
    """Unseen natural cards that would extend ``meld`` (a rough count of its live outs)."""
    seen = table.seen_counts()
    if meld.kind == SET:
        r = meld.rank - 1
        return sum(2 - seen[s * 13 + r] for s in range(4))
    low, high = run_positions(meld)
    total = 0
    for p in (low - 1, high + 1):
        if 1 <= p <= 14:
            card = position_card(meld.suit, p)
            total += max(0, 2 - seen[card])
    return total


def line_table_points(rules: Rules, melds: Sequence[Meld]) -> int:
    total = 0
    for m in melds:
        total += m.points(rules) + m.bonus(rules)
    return total


def score_estimate(table: Table, own_melds: Sequence[Meld], own_hand_points: int) -> int:
    """Own line minus the best opponent line, if the smazzata ended now (hands of the others
    estimated at 8 points a card)."""
    rules = table.rules
    mine = line_table_points(rules, own_melds) - own_hand_points
    if not table.taken[table.line]:
        mine -= rules.no_pozzetto_penalty
    best_other = None
    for line in table.opponent_lines():
        pts = line_table_points(rules, table.melds[line])
        cards = sum(table.sizes[s] for s in range(table.n) if table.line_of[s] == line)
        pts -= 8 * cards
        if not table.taken[line]:
            pts -= rules.no_pozzetto_penalty
        if best_other is None or pts > best_other:
            best_other = pts
    return mine - (best_other or 0)


def threat(table: Table) -> bool:
    """Whether an opponent line could close soon (pozzetto taken, a burraco, few cards)."""
    rules = table.rules
    for line in table.opponent_lines():
        if not table.taken[line]:
            continue
        melds = table.melds[line]
        need_clean = rules.closing_requires_clean
        if not any(
            len(m) >= rules.burraco_min_length and (not need_clean or m.wild is None) for m in melds
        ):
            continue
        small = min(table.sizes[s] for s in range(table.n) if table.line_of[s] == line)
        if small <= 5:
            return True
    return False


def can_close_line(table: Table, line: int) -> bool:
    """Whether ``line`` has its pozzetto and the burraco closing needs."""
    if not table.taken[line]:
        return False
    rules = table.rules
    need = rules.burraco_min_length
    clean = rules.closing_requires_clean
    return any(len(m) >= need and (not clean or m.wild is None) for m in table.melds[line])


def want_close(table: Table, b: Builder) -> bool:
    """Whether closing with the builder's melds is worth it: ahead after the bonus, the stock
    running out, or an opponent threatening to close."""
    rules = table.rules
    hand_points = 0  # after closing, the hand is empty
    diff = score_estimate(table, b.melds, hand_points) + rules.closing_bonus
    if diff >= table.style.close_margin or table.turns_left() <= 2 or threat(table):
        return True
    return diff >= -150 and table.stock < 20
