"""Where cards stand in runs, for the planner: run ends, the natural card at a run position, the
same-suit neighbours of a card, and the wild cards by kind.

Which cards are wild is the engine's ``is_wild_kind`` and which card stands at a run position is
the engine's ``position_card``; the tables here are built from them once, at import.
"""

from __future__ import annotations

from typing import Final

from burraco.engine.cards import JOKER_ID, NUM_TYPES, TWO, is_wild_kind
from burraco.engine.melds import Meld, position_card

WILD_CARDS: Final = tuple(c for c in range(NUM_TYPES) if is_wild_kind(c))
"""The wild card types: the twos in suit order, then the joker."""
TWOS: Final = tuple(c for c in WILD_CARDS if c != JOKER_ID)
"""The four twos, in suit order."""


def run_positions(meld: Meld) -> tuple[int, int]:
    """A run's lowest and highest natural positions (from its mask alone)."""
    mask = meld.mask
    return (mask & -mask).bit_length() - 1, mask.bit_length() - 1


NATPOS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(position_card(s, p) if 1 <= p <= 14 else 0 for p in range(16)) for s in range(4)
)
"""``NATPOS[suit][position]``: the natural card at a run position (1..14)."""


def _neighbours_of(card: int) -> tuple[tuple[int, int, int], ...]:
    """Same-suit cards one or two positions away (distance, card, the card between or -1);
    the ace counts both low and high. A two is a neighbour only at position 2."""
    if is_wild_kind(card):
        return ()
    s, r = divmod(card, 13)
    rank = r + 1
    out: list[tuple[int, int, int]] = []
    positions = [rank] if rank != 1 else [1, 14]
    for pos in positions:
        for d in (-2, -1, 1, 2):
            q = pos + d
            if 1 <= q <= 14 and q != rank and not (rank == 1 and q in (1, 14)):
                c = position_card(s, q)
                if is_wild_kind(c) and q != TWO:
                    continue
                mid = position_card(s, pos + d // 2) if abs(d) == 2 else -1
                out.append((abs(d), c, mid))
    return tuple(out)


NEIGHBOURS: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    _neighbours_of(c) for c in range(NUM_TYPES)
)
"""Per card: the same-suit cards one or two run positions away (distance, card, between)."""
