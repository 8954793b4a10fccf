"""The table summary a plan reads: what the seat to act may see, and the style of play.

A ``Table`` is built either from a ``SeatView`` (the heuristic bot) or from a full state for the
seat to act (the search bot's rollouts, where the policy reads that seat's hand and the public
facts only). It holds references, not copies, of the big objects, and caches what several parts
of the planner compute from it (the cards in sight, the cards each line's melds take).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from burraco.engine.cards import NUM_TYPES
from burraco.engine.melds import Meld
from burraco.engine.rules import Rules

if TYPE_CHECKING:
    from burraco.engine.state import Smazzata
    from burraco.engine.views import SeatView


class Style(NamedTuple):
    """The constants of the rules of thumb (one object, so that variants can be compared)."""

    pickup_burden: tuple[float, float, float, float, float] = (-2.0, 5.0, 10.0, 6.0, 12.0)
    """What each card a pick-up adds to the hand without melding it costs (negative: material
    is worth having): early and safe; an opponent line able to close; an opponent about to
    close; the own line able to close; the last turns."""
    danger: float = 1.0
    """Weight of the harm a discard may do (feeding the next opponent) against its use to us."""
    close_margin: float = 0.0
    """Close when the estimated score difference after closing is at least this (or when the
    end is near or an opponent threatens to close)."""
    burraco_wild: int = 0
    """Completing a six-card meld with a wild: -1 only when needed, 0 rule of thumb, 1 always."""
    points: float = 1.0
    """Weight of a card's points in choosing the discard (a high card costs more if stuck)."""
    liveness: float = 0.0
    """Danger of a discard per unseen card that could make a meld with it in the next
    opponent's hand (a dead card, whose partners are all in sight, is safe)."""


DEFAULT_STYLE = Style()


def present_mask(hand: Sequence[int]) -> int:
    """Bit c set for every card c the count array ``hand`` holds."""
    mask = 0
    for c in range(NUM_TYPES):
        if hand[c]:
            mask |= 1 << c
    return mask


class Table:
    """What the seat to act may see, in the form the planner reads (no copies of big objects)."""

    __slots__ = (
        "acquired",
        "feeds",
        "hand",
        "known",
        "line",
        "line_of",
        "lock",
        "melded",
        "melds",
        "n",
        "pile",
        "pozzetti_left",
        "present",
        "rules",
        "seat",
        "seen",
        "sizes",
        "stock",
        "style",
        "taken",
    )

    rules: Rules
    seat: int
    n: int
    line: int
    line_of: Sequence[int]
    hand: Sequence[int]
    melds: Sequence[Sequence[Meld]]
    taken: Sequence[bool]
    pile: Sequence[int]
    stock: int
    known: Sequence[Mapping[int, int]]
    sizes: Sequence[int]
    acquired: int
    lock: int
    melded: bool
    pozzetti_left: int
    present: int
    """Bit c set when the hand holds card c."""
    style: Style
    seen: list[int] | None
    """Cards visible to the seat, per card (computed on first use, see ``seen_counts``)."""
    feeds: dict[int, dict[int, int]]
    """Per line: the cards that attach alone to its melds (computed on first use by
    ``discard.feed_cards``)."""

    @classmethod
    def of_view(cls, view: SeatView, style: Style = DEFAULT_STYLE) -> Table:
        t = object.__new__(cls)
        t.style = style
        t.rules = view.rules
        t.seat = view.seat
        t.n = view.players
        t.line_of = view.line_of
        t.line = view.line_of[view.seat]
        t.hand = view.hand
        t.present = present_mask(view.hand)
        t.melds = view.melds
        t.taken = view.taken
        t.pile = view.pile
        t.stock = view.stock_size
        t.known = [dict(k) for k in view.known]
        t.sizes = view.hand_sizes
        t.acquired = view.acquired
        t.lock = view.lock if view.is_my_turn else -1
        t.melded = view.melded
        t.pozzetti_left = len(view.pozzetti_left)
        t.seen = None
        t.feeds = {}
        return t

    @classmethod
    def of_state(cls, state: Smazzata, style: Style = DEFAULT_STYLE) -> Table:
        """The table as the player to act sees it (his own hand and public facts only)."""
        t = object.__new__(cls)
        t.style = style
        seat = state.current
        t.rules = state.rules
        t.seat = seat
        t.n = state.n
        t.line_of = state.line_of
        t.line = state.line_of[seat]
        t.hand = state.hands[seat]
        t.present = state.present[seat]
        t.melds = state.melds
        t.taken = state.taken
        t.pile = state.pile
        t.stock = len(state.stock)
        t.known = state.known
        t.sizes = state.sizes
        t.acquired = state.acquired
        t.lock = state.lock
        t.melded = state.melded
        t.pozzetti_left = len(state.pozzetti)
        t.seen = None
        t.feeds = {}
        return t

    def opponent_lines(self) -> list[int]:
        mine = self.line
        return sorted({ln for ln in self.line_of if ln != mine})

    def turns_left(self) -> int:
        """Roughly how many more turns of this seat's the stock allows (after this one)."""
        playable = self.stock - self.rules.stock_end_threshold
        return max(0, playable // self.n)

    def seen_counts(self) -> list[int]:
        """Per card: how many copies the seat can see (its hand, the pile, the melds, the cards
        other seats are known to hold)."""
        if self.seen is not None:
            return self.seen
        seen = list(self.hand)
        for c in self.pile:
            seen[c] += 1
        for line in self.melds:
            for m in line:
                for c in m.naturals:
                    seen[c] += 1
                if m.wild is not None:
                    seen[m.wild] += 1
        for seat, known in enumerate(self.known):
            if seat != self.seat:
                for c, k in known.items():
                    seen[c] += k
        self.seen = seen
        return seen
