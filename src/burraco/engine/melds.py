"""Melds: sets and runs, their validation, the placement of the wild card, and burraco types.

A run is stored as its suit, the bitmask of the positions its natural cards hold (bit p for
position p: ace-low = 1, 2 = 2, ..., K = 13, ace-high = 14) and its wild card, if any. Natural
cards never move (R33, R37); the wild's position follows from the naturals: it fills the single gap
if there is one, otherwise it floats at an end (R37-R39). So validating an extension is validating
the resulting meld with the old naturals kept where they are (R23), which is what ``extend_run``
does.

Every check returns either a result or a ``MeldError`` naming the rule that fails. (One concept,
the meld, with its run and set readings side by side: the module is just over 600 lines.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import islice
from typing import Any, Final, NamedTuple

from .cards import CARDS, JOKER_ID, RANK_NAMES, SUITS, Card
from .errors import NO_PARAMS, Param
from .rules import Rules

RUN: Final = 0
SET: Final = 1

POSITION_BITS: Final = tuple(1 << p for p in range(16))
FULL_RUN: Final = sum(1 << p for p in range(1, 15))
"""Positions 1..14: the A..K..A run of Burraco Reale."""
ACE_LOW_TO_KING: Final = sum(1 << p for p in range(1, 14))
TWO_TO_ACE_HIGH: Final = sum(1 << p for p in range(2, 15))


def position_card(suit: int, position: int) -> Card:
    """The natural card that stands at a run position (14 is the ace)."""
    rank = 1 if position == 14 else position
    return CARDS[suit * 13 + rank - 1]


class MeldError(NamedTuple):
    """Why a group of cards is not a valid meld (or extension): the English sentence, the
    RULES.md id, a stable code and its parameters (cards in notation, ranks: IllegalActionError).
    Memoised and shared, so ``params`` is never mutated."""

    reason: str
    rule: str
    code: str = "meld_invalid"
    params: Mapping[str, Param] = NO_PARAMS


class Meld:
    """One meld on the table. Immutable: extending a meld makes a new one (cheap state copies)."""

    __slots__ = (
        "accepts_wild",
        "akey",
        "free",
        "high",
        "ident",
        "interest",
        "kind",
        "low",
        "mask",
        "naturals",
        "rank",
        "reach",
        "shift",
        "suit",
        "twin_twos",
        "wild",
        "wild_kinds",
    )

    kind: int
    suit: int
    rank: int
    mask: int
    naturals: tuple[Card, ...]
    wild: Card | None
    reach: int
    """Run positions where a card from the hand could attach: within two of an end, or the gap."""
    ident: int
    """What legal attaches depend on, packed in an int (kind, suit or rank, naturals, wild)."""
    akey: int
    """``ident`` shifted left, with room below where the move generator packs the hand's side
    of an attach memo key: 23 bits for a run; 48 for a set, whose lowest two hold its tag (2)."""
    shift: int
    """How far to shift the hand's card mask to bring this meld's cards to bit 0: 13 x suit for
    a run, rank - 1 for a set."""
    free: int
    """A run's free positions (``~mask``)."""
    interest: int
    """Bit c set for every card c that could attach alone or with others (a 53-bit mask)."""
    accepts_wild: bool
    """Whether a wild from the hand could ever join: no wild yet, or a same-suit two as the wild
    that may turn natural at position 2 and make room (E20)."""
    wild_kinds: int
    """31 if a wild from the hand could join (the move generator's 5-bit code of the kinds of
    wild held is then part of what the attaches depend on), else 0."""
    twin_twos: int
    """2 if holding both copies of the run's own two can matter (one natural, one the wild)."""
    low: int
    high: int
    """A run's lowest and highest natural positions, position 2 counted as held when the wild is
    a same-suit two that may turn natural there (E20); 0 for sets."""

    def __init__(
        self,
        kind: int,
        *,
        suit: int = -1,
        rank: int = 0,
        mask: int = 0,
        naturals: tuple[Card, ...],
        wild: Card | None,
    ) -> None:
        self.kind = kind
        self.suit = suit
        self.rank = rank
        self.mask = mask
        self.naturals = naturals
        self.wild = wild
        wild_code = 53 if wild is None else int(wild)
        if kind == RUN:
            # A same-suit two standing as the wild may turn natural at position 2 (E20), so
            # cards within two of position 2 can attach too.
            convertible = wild is not None and wild == suit * 13 + 1 and not mask & 4
            extent = mask | 4 if convertible else mask
            low = (extent & -extent).bit_length() - 1
            high = extent.bit_length() - 1
            self.low = low
            self.high = high
            reach = _span(max(1, low - 2), min(14, high + 2)) & ~mask
            self.reach = reach
            self.ident = ((suit << 15 | mask) << 6 | wild_code) << 1
            self.akey = self.ident << 23
            self.shift = 13 * suit
            self.free = ~mask
            # positions -> card bits of this suit (position 14 is the ace, like position 1)
            ranks = (reach >> 1) & 0x1FFF | (reach >> 14) & 1
            self.interest = ranks << (13 * suit)
            self.accepts_wild = wild is None or convertible
            self.twin_twos = 2 if self.accepts_wild else 0
        else:
            self.low = self.high = 0
            self.reach = 0
            self.ident = (rank << 6 | wild_code) << 1 | 1
            self.akey = self.ident << 48 | 2
            self.shift = rank - 1
            self.free = 0
            self.interest = _RANK_BITS[rank]
            self.accepts_wild = wild is None
            self.twin_twos = 0
        self.wild_kinds = 31 if self.accepts_wild else 0

    def __reduce__(self) -> tuple[object, ...]:
        # Pickle the value, not the memos (they are caches, rebuilt on demand).
        return (
            _rebuild_meld,
            ((self.kind, self.suit, self.rank, self.mask, self.naturals, self.wild),),
        )

    # -- shape --

    def __len__(self) -> int:
        return len(self.naturals) + (self.wild is not None)

    @property
    def is_run(self) -> bool:
        return self.kind == RUN

    @property
    def is_set(self) -> bool:
        return self.kind == SET

    def cards(self) -> list[Card]:
        """All cards of the meld; a run in position order with the wild where it stands."""
        if self.kind == SET:
            out = list(self.naturals)
            if self.wild is not None:
                out.append(self.wild)
            return out
        by_position = {p: position_card(self.suit, p) for p in _positions(self.mask)}
        if self.wild is not None:
            by_position[self.wild_position()] = self.wild
        return [by_position[p] for p in sorted(by_position)]

    def wild_position(self) -> int:
        """Run position of the wild: the gap it fills, else the low end when possible (R39)."""
        if self.kind != RUN or self.wild is None:
            return 0
        low, high = _low(self.mask), _high(self.mask)
        for position in range(low + 1, high):
            if not self.mask & POSITION_BITS[position]:
                return position
        return low - 1 if low > 1 else high + 1

    def wild_is_floating(self) -> bool:
        """A wild at an end, free to move when the run grows (R37)."""
        if self.kind != RUN or self.wild is None:
            return False
        return self.mask.bit_count() == _high(self.mask) - _low(self.mask) + 1

    def represented(self) -> Card | None:
        """The card the wild stands for in a run (None for sets and clean melds)."""
        if self.kind != RUN or self.wild is None:
            return None
        return position_card(self.suit, self.wild_position())

    # -- text --

    def notation(self) -> str:
        """Cards as in RULES.md: ``5H JK(6H) 7H``, natural twos of a run marked ``2H*``."""
        if self.kind == SET:
            return " ".join(str(c) for c in self.cards())
        words = []
        wild_at = self.wild_position()
        for position in sorted([*_positions(self.mask), *([wild_at] if self.wild else [])]):
            if self.wild is not None and position == wild_at:
                words.append(f"{self.wild}({position_card(self.suit, position)})")
            elif position == 2:
                words.append(f"{position_card(self.suit, 2)}*")
            else:
                words.append(str(position_card(self.suit, position)))
        return " ".join(words)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards())

    def __repr__(self) -> str:
        return f"<Meld {self.notation()}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.suit == other.suit
            and self.rank == other.rank
            and self.mask == other.mask
            and self.naturals == other.naturals
            and self.wild == other.wild
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.suit, self.rank, self.mask, self.naturals, self.wild))

    # -- scoring --

    def points(self, rules: Rules) -> int:
        """Card points of the meld (R59): every card its own value, the wild included."""
        total = sum(rules.card_value(c) for c in self.naturals)
        if self.wild is not None:
            total += rules.card_value(self.wild)
        return total

    def burraco_type(self, rules: Rules) -> str | None:
        """``clean``, ``semiclean``, ``dirty``, ``nobile``, ``reale``, or None (not a burraco)."""
        if len(self) < rules.burraco_min_length:
            return None
        if self.wild is not None:
            if rules.bonus_semiclean is not None and self._semiclean(rules):
                return "semiclean"
            return "dirty"
        if self.kind == RUN:
            if rules.bonus_reale is not None and self.mask == FULL_RUN:
                return "reale"
            if rules.bonus_nobile is not None and (
                self.mask == ACE_LOW_TO_KING
                or (rules.nobile_accepts_2_to_A and self.mask == TWO_TO_ACE_HIGH)
            ):
                return "nobile"
        return "clean"

    def _semiclean(self, rules: Rules) -> bool:
        # 3.3: one wild, and the naturals alone form a clean burraco: for a run, at least
        # burraco_min_length contiguous naturals with the wild at an end (never internal).
        if len(self.naturals) < rules.burraco_min_length:
            return False
        return self.kind == SET or self.wild_is_floating()

    def bonus(self, rules: Rules) -> int:
        kind = self.burraco_type(rules)
        if kind is None:
            return 0
        return {
            "clean": rules.bonus_clean,
            "dirty": rules.bonus_dirty,
            "semiclean": rules.bonus_semiclean or 0,
            "nobile": rules.bonus_nobile or 0,
            "reale": rules.bonus_reale or 0,
        }[kind]

    def is_clean_burraco(self, rules: Rules) -> bool:
        return self.wild is None and len(self) >= rules.burraco_min_length


_RANK_BITS: Final = (0, *(sum(1 << (s * 13 + rank - 1) for s in range(4)) for rank in range(1, 14)))
"""By rank, the bits of its four cards in a hand's card mask."""


def _rebuild_meld(fields: tuple[int, int, int, int, tuple[Card, ...], Card | None]) -> Meld:
    kind, suit, rank, mask, naturals, wild = fields
    return Meld(kind, suit=suit, rank=rank, mask=mask, naturals=naturals, wild=wild)


# ------------------------------------------------------------------------------------ bit helpers


def _span(low: int, high: int) -> int:
    """Mask of positions low..high."""
    return ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _positions(mask: int) -> list[int]:
    return [p for p in range(1, 15) if mask & POSITION_BITS[p]]


def run_shape_ok(mask: int, wilds: int) -> bool:
    """Whether naturals at ``mask`` plus ``wilds`` (0 or 1) wild form one run (R29, R30, R35).

    With no wild the naturals must be contiguous. With one wild they must be contiguous with a free
    end inside 1..14 (floating wild), or have exactly one single-position gap (fixed wild).
    """
    low = _low(mask)
    span = mask.bit_length() - low
    count = mask.bit_count()
    if wilds == 0:
        return count == span
    if count == span:
        return low > 1 or span + low - 1 < 14
    return count == span - 1


@cache
def run_natural_cards(suit: int, mask: int) -> tuple[Card, ...]:
    """The natural cards of a run of ``suit`` holding the positions of ``mask``, low to high."""
    return tuple(position_card(suit, p) for p in _positions(mask))


# ----------------------------------------------------------------------------------- validation


class RunShape(NamedTuple):
    suit: int
    mask: int
    wild: Card | None


_TWO_WILDS = MeldError("a meld may hold at most one wild card", "R24", "meld_two_wilds")
_FEW_NATURALS = MeldError("a meld needs at least two natural cards", "R25", "meld_few_naturals")


def _describe_ranks(rank: int) -> str:
    name = RANK_NAMES[rank]
    return f"{name}s" if name != "A" else "aces"


def make_room(memo: dict[Any, Any], limit: int) -> None:
    """Keep a memo bounded: once it holds ``limit`` entries, forget the older half (a dict keeps
    insertion order), so that memory stays bounded while what recurs is kept."""
    if len(memo) >= limit:
        for key in list(islice(memo, limit // 2)):
            del memo[key]


_OPEN_MEMO: dict[tuple[tuple[Card, ...], frozenset[int], int], Meld | MeldError] = {}
_OPEN_MEMO_LIMIT: Final = 100_000


def check_open(cards: Sequence[Card], rules: Rules) -> Meld | MeldError:
    """Validate a new meld (R21-R38). Does not check R27 (that needs the line's melds).

    Results are memoised: they depend only on the cards and the ruleset's meld parameters.
    """
    key = (tuple(cards), rules.set_ranks, rules.max_natural_aces_per_run)
    result = _OPEN_MEMO.get(key)
    if result is None:
        make_room(_OPEN_MEMO, _OPEN_MEMO_LIMIT)
        result = _OPEN_MEMO[key] = _check_open(cards, rules)
    return result


def _check_open(cards: Sequence[Card], rules: Rules) -> Meld | MeldError:
    if len(cards) < 3:
        return MeldError("a new meld needs at least three cards", "R21", "meld_too_short")
    naturals = [c for c in cards if c != JOKER_ID and c % 13 != 1]
    if not naturals:
        return _FEW_NATURALS
    first_rank = naturals[0] % 13
    if len(naturals) >= 2 and all(c % 13 == first_rank for c in naturals):
        # Equal ranks: only a set can hold them (a run needs distinct positions, and the two
        # aces of A..K..A come with eleven other naturals).
        wilds = [c for c in cards if c == JOKER_ID or c % 13 == 1]
        return _check_set(first_rank + 1, naturals, wilds, rules)
    return _check_new_run(cards, rules)


def _check_set(
    rank: int, naturals: list[Card], wilds: list[Card], rules: Rules
) -> Meld | MeldError:
    if rank not in rules.set_ranks:
        if not rules.set_ranks:
            return MeldError("this ruleset has no sets, only runs", "R26", "sets_not_allowed")
        return MeldError(
            f"sets of {_describe_ranks(rank)} are not allowed in this ruleset",
            "R26",
            "set_rank_not_allowed",
            {"rank": RANK_NAMES[rank]},
        )
    if len(wilds) > 1:
        return _TWO_WILDS
    return Meld(
        SET,
        rank=rank,
        naturals=tuple(sorted(naturals)),
        wild=wilds[0] if wilds else None,
    )


def _check_new_run(cards: Sequence[Card], rules: Rules) -> Meld | MeldError:
    suits = {c // 13 for c in cards if c != JOKER_ID and c % 13 != 1}
    if len(suits) > 1:
        ranks = {c % 13 for c in cards if c != JOKER_ID and c % 13 != 1}
        if len(ranks) > 1:
            return MeldError("the cards form neither a set nor a run", "R21", "not_a_meld")
        return MeldError("a run must be of one suit", "R29", "run_mixed_suits")
    (suit,) = suits
    shape = resolve_run(suit, 0, None, cards, rules)
    if isinstance(shape, MeldError):
        return shape
    return Meld(
        RUN,
        suit=suit,
        mask=shape.mask,
        naturals=run_natural_cards(suit, shape.mask),
        wild=shape.wild,
    )


_EXTEND_MEMO: dict[tuple[object, ...], Meld | MeldError] = {}


def check_extend(meld: Meld, cards: Sequence[Card], rules: Rules) -> Meld | MeldError:
    """Validate attaching ``cards`` to ``meld`` (R23): the result must be valid as a whole.

    Results are memoised by the meld's value (``ident``, and a set's naturals), shared by every
    meld of that value (melds are immutable values: a line may hold the very object another
    line or game holds).
    """
    key: tuple[int, int, tuple[Card, ...]] | tuple[int, int, tuple[Card, ...], tuple[Card, ...]]
    if meld.kind == SET:  # a set's ident leaves out which suits it holds
        key = (meld.ident, rules.max_natural_aces_per_run, tuple(cards), meld.naturals)
    else:
        key = (meld.ident, rules.max_natural_aces_per_run, tuple(cards))
    result = _EXTEND_MEMO.get(key)
    if result is None:
        make_room(_EXTEND_MEMO, _OPEN_MEMO_LIMIT)
        result = _EXTEND_MEMO[key] = _check_extend(meld, cards, rules)
    return result


def _check_extend(meld: Meld, cards: Sequence[Card], rules: Rules) -> Meld | MeldError:
    if not cards:
        return MeldError("an attach needs at least one card", "R23", "attach_no_cards")
    if meld.kind == SET:
        wilds = [c for c in cards if c == JOKER_ID or c % 13 == 1]
        naturals = [c for c in cards if c not in wilds]
        for c in naturals:
            if c % 13 + 1 != meld.rank:
                return MeldError(
                    f"{c} does not belong to a set of {_describe_ranks(meld.rank)}",
                    "R26",
                    "set_wrong_rank",
                    {"card": str(c), "rank": RANK_NAMES[meld.rank]},
                )
        if len(wilds) + (meld.wild is not None) > 1:
            return _TWO_WILDS
        return Meld(
            SET,
            rank=meld.rank,
            naturals=tuple(sorted(meld.naturals + tuple(naturals))),
            wild=meld.wild if meld.wild is not None else (wilds[0] if wilds else None),
        )
    for c in cards:
        if c != JOKER_ID and c % 13 != 1 and c // 13 != meld.suit:
            return MeldError(
                f"{c} is not of the run's suit ({SUITS[meld.suit]})",
                "R29",
                "run_wrong_suit",
                {"card": str(c), "suit": SUITS[meld.suit]},
            )
    shape = resolve_run(meld.suit, meld.mask, meld.wild, cards, rules)
    if isinstance(shape, MeldError):
        return shape
    return Meld(
        RUN,
        suit=meld.suit,
        mask=shape.mask,
        naturals=run_natural_cards(meld.suit, shape.mask),
        wild=shape.wild,
    )


def resolve_run(
    suit: int,
    fixed_mask: int,
    old_wild: Card | None,
    new_cards: Iterable[Card],
    rules: Rules,
) -> RunShape | MeldError:
    """Place ``new_cards`` in a run of ``suit`` whose naturals already hold ``fixed_mask``.

    Among the valid interpretations take one with the fewest wilds (R35: a same-suit two goes to
    position 2 whenever it can, and stays natural there, R33); on a further tie, a new ace goes low.
    ``old_wild`` is the run's current wild, which may move or become a natural two (R37, R38, R42).
    """
    two_of_suit = suit * 13 + 1
    new_aces = 0
    mask = fixed_mask
    other_wilds: list[Card] = []
    suit_twos = 0
    ace = suit * 13
    for c in new_cards:
        if c == JOKER_ID:
            other_wilds.append(c)
        elif c == two_of_suit:
            suit_twos += 1
        elif c % 13 == 1:
            other_wilds.append(c)
        elif c == ace:
            new_aces += 1
        else:
            bit = POSITION_BITS[c % 13 + 1]
            if mask & bit:
                return MeldError(
                    "a run cannot hold two cards of the same rank", "R29", "run_same_rank"
                )
            mask |= bit
    # Wild candidates besides the same-suit twos: the old wild unless it is a same-suit two.
    old_is_suit_two = old_wild is not None and old_wild == two_of_suit
    if old_wild is not None and not old_is_suit_two:
        other_wilds.append(old_wild)
    if old_is_suit_two:
        suit_twos += 1
    if len(other_wilds) > 1:
        return _TWO_WILDS

    ace_options: list[int]
    ace_bits = mask & (POSITION_BITS[1] | POSITION_BITS[14])
    if new_aces == 0:
        ace_options = [0]
    elif new_aces == 1:
        ace_options = [POSITION_BITS[1], POSITION_BITS[14]]
    elif new_aces == 2:
        ace_options = [POSITION_BITS[1] | POSITION_BITS[14]]
    else:
        return MeldError("a run cannot hold two cards of the same rank", "R29", "run_same_rank")

    best: RunShape | None = None
    best_wilds = 3
    failure = MeldError("the cards are not consecutive", "R29", "run_not_consecutive")
    for ace_choice in ace_options:
        if ace_choice & ace_bits:
            failure = MeldError("a run holds at most one natural ace", "R31", "run_two_aces")
            continue
        base = mask | ace_choice
        total_aces = (base & POSITION_BITS[1] != 0) + (base & POSITION_BITS[14] != 0)
        if total_aces > rules.max_natural_aces_per_run:
            failure = MeldError("a run holds at most one natural ace", "R31", "run_two_aces")
            continue
        # How many same-suit twos become natural at position 2 (0 or 1).
        for natural_twos in (1, 0) if suit_twos and not base & POSITION_BITS[2] else (0,):
            wild_count = len(other_wilds) + suit_twos - natural_twos
            if wild_count > 1:
                failure = _TWO_WILDS
                continue
            run_mask = base | (POSITION_BITS[2] if natural_twos else 0)
            if run_mask.bit_count() < 2:
                failure = _FEW_NATURALS
                continue
            if not run_shape_ok(run_mask, wild_count):
                shape_failure = _shape_failure(run_mask, wild_count, old_wild is not None)
                if failure.rule != "R30":  # a K-A-2 wrap explains the failure best (E5)
                    failure = shape_failure
                continue
            if wild_count < best_wilds:
                if wild_count == 0:
                    wild = None
                elif other_wilds:
                    wild = other_wilds[0]
                else:
                    wild = CARDS[two_of_suit]
                best = RunShape(suit, run_mask, wild)
                best_wilds = wild_count
    if best is None:
        return failure
    return best


def _shape_failure(mask: int, wilds: int, had_wild: bool) -> MeldError:
    low, high = _low(mask), _high(mask)
    if mask & POSITION_BITS[13] and mask & (POSITION_BITS[1] | POSITION_BITS[2]):
        return MeldError("a run cannot wrap around from K to A to 2", "R30", "run_wraps")
    if wilds and mask.bit_count() == high - low + 1:
        # Contiguous naturals filling 1..14: no place is left for the wild.
        return MeldError(
            "the wild card would have no place left in the run", "R38", "wild_no_place"
        )
    if had_wild and wilds:
        return MeldError(
            "the run would have a gap the wild cannot fill (an internal wild moves only when"
            " the card it stands for is attached)",
            "R37",
            "wild_fixed",
        )
    if wilds:
        return MeldError("one wild card can fill only one gap", "R35", "wild_one_gap")
    return MeldError("the cards are not consecutive", "R29", "run_not_consecutive")
