"""Legal action generation: every action ``Smazzata._check`` accepts, and no other.

(Over 600 lines on purpose: the tables, memos and the generator that reads them are one piece of
the hot path, measured together in bench/; split, they would cost module look-ups per decision.)

This is the hot path of self-play, so it works on bitmasks and tables built once:

* a hand's cards of one suit are a 13-bit rank mask, read as a 14-bit *position* mask (the ace
  holds both position 1 and position 14);
* ``_run_table(positions)`` lists, once per position mask, the natural runs it contains and the
  groups of naturals that one wild card completes into a run;
* sub-multisets of the cards of one rank (for sets) come from ``_sub_counts``.

Candidates are memoised as card tuples keyed by what they depend on (``_CARD_GROUPS``,
``_RUN_ATTACHES``); the actions of a listing are made from them fresh. A listing is in a fixed
order: runs by suit, sets by rank, attaches by meld number (each group in its memo's order), the
melds that needed the full R53 check after those, then the discards by card.

Cases where legality depends on more than the size of the hand (a meld that would leave one card,
or a hand tied up by the pick-up lock of R17) are decided by ``Smazzata._check`` itself, so the
generator never has a second opinion on the rules. Tests compare the generator with a brute-force
enumeration through ``_check`` on many random positions.
"""

from __future__ import annotations

from functools import cache
from itertools import compress, product
from typing import TYPE_CHECKING, Final

from .actions import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action
from .cards import CARDS, JOKER_ID, Card
from .melds import POSITION_BITS, SET, Meld, make_room

if TYPE_CHECKING:
    from .rules import Rules
    from .state import Smazzata

_new_action = tuple.__new__
_BIT1: Final = POSITION_BITS[1]
_BIT2: Final = POSITION_BITS[2]
_BIT14: Final = POSITION_BITS[14]
_ACE_BITS: Final = _BIT1 | _BIT14
_WILD_KINDS: Final = (JOKER_ID, 1, 14, 27, 40)

# Canonical order of an action's cards: by card value (``Action.make`` sorts the same way).
_DRAW: Final = tuple(_new_action(Action, (s, DRAW, (), 0)) for s in range(4))
_PICKUP: Final = tuple(_new_action(Action, (s, PICKUP, (), 0)) for s in range(4))
_DRAW_OR_PICKUP: Final = tuple((_DRAW[s], _PICKUP[s]) for s in range(4))
_DISCARD: Final = tuple(
    tuple(_new_action(Action, (s, DISCARD, (CARDS[c],), 0)) for c in range(53)) for s in range(4)
)


def _interval(low: int, high: int) -> int:
    return ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)


@cache
def _run_table(positions: int) -> tuple[tuple[int, ...], tuple[tuple[int, bool], ...]]:
    """Natural runs, and naturals completed by one wild, available in a position mask.

    Returns ``(natural, wild)``: ``natural`` holds masks of runs of >= 3 naturals; ``wild`` holds
    ``(mask, wild_may_be_two)`` for naturals (>= 2) that one wild turns into a run, either by
    filling the one gap or floating at a free end. ``wild_may_be_two`` is False when a same-suit
    two used as that wild would instead be a natural two (R35), i.e. the action is the same as a
    natural run already listed. Masks holding both ace positions need two aces (Burraco Reale).
    When the ace could stand low or high for the same cards, only the low reading is kept (the
    engine places a new ace low on a tie, see ``melds.resolve_run``).
    """
    natural: list[int] = []
    wild: list[tuple[int, bool]] = []
    for low in range(1, 15):
        if not positions >> low & 1:
            continue  # both ends of a run are naturals
        for high in range(low + 1, 15):
            span = _interval(low, high)
            missing = span & ~positions
            if missing & (missing - 1):
                break  # two positions missing: no longer span can do either
            if not positions >> high & 1:
                continue
            length = high - low + 1
            if not missing:
                if length >= 3 and not _high_ace_twin(span, 0):
                    natural.append(span)
                if (low > 1 or high < 14) and not _high_ace_twin(span, 1):
                    # floating wild at either end; a same-suit two would be natural at 2 if 2 is
                    # the free low end (low == 3)
                    wild.append((span, low != 3))
            if length >= 3:
                for hole in range(low + 1, high):
                    naturals = span ^ POSITION_BITS[hole]
                    if naturals & positions == naturals and not _high_ace_twin(naturals, 1):
                        wild.append((naturals, hole != 2))
    return tuple(natural), tuple(wild)


def _high_ace_twin(mask: int, wilds: int) -> bool:
    """Whether ``mask`` uses the high ace while the same cards also fit with the ace low."""
    if not mask & _BIT14 or mask & _BIT1:
        return False
    low_mask = (mask ^ _BIT14) | _BIT1
    low = (low_mask & -low_mask).bit_length() - 1
    span = low_mask.bit_length() - low
    count = low_mask.bit_count()
    if wilds == 0:
        return count == span
    return count == span - 1 or (count == span and (low > 1 or span + low - 1 < 14))


@cache
def _run_cards(suit: int, mask: int) -> tuple[Card, ...]:
    """The natural cards of a run mask, sorted by card value."""
    base = suit * 13
    # A mask with both ace positions (Reale's A..K..A) names the ace twice: two cards.
    out = [CARDS[base + (0 if p == 14 else p - 1)] for p in range(1, 15) if mask >> p & 1]
    return tuple(sorted(out))


@cache
def _sub_counts(counts: tuple[int, int, int, int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Non-empty sub-multisets of one rank's cards, as (size, per-suit counts)."""
    out = []
    for sub in product(*(range(k + 1) for k in counts)):
        size = sum(sub)
        if size:
            out.append((size, sub))
    return tuple(out)


@cache
def _set_cards(rank: int, sub: tuple[int, ...]) -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit, k in enumerate(sub):
        cards.extend([CARDS[suit * 13 + rank - 1]] * k)
    return tuple(sorted(cards))


def _with_wild(cards: tuple[Card, ...], wild: int) -> tuple[Card, ...]:
    if not cards or cards[-1] < wild:
        return (*cards, CARDS[wild])
    return tuple(sorted((*cards, CARDS[wild])))


# ------------------------------------------------------------------------------------ generation

# Bits of ``present`` where a suit's rank r starts three consecutive ranks (r <= J) or two near
# ones (r <= Q), so that shifted masks never run into the next suit; and each suit's ace bit,
# for the runs that end Q-K-A or K-A.
_RUN3_OK: Final = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
_NEAR_OK: Final = sum(((1 << 12) - 1) << (13 * s) for s in range(4))
_ACE_BIT_OF_SUIT: Final = sum(1 << (13 * s) for s in range(4))
_ALL_POSITIONS: Final = 0x7FFE


def _run_relevant(mask: int) -> int:
    """The cards of a suit's rank mask that could stand in a new run: those with another card
    of the suit within two positions (a run of naturals, or naturals around one wild's gap).
    Leaving the others out of the memo key makes it recur; the runs found are the same."""
    positions = mask << 1 | (mask & 1) << 14
    near = positions & (positions << 1 | positions >> 1 | positions << 2 | positions >> 2)
    return (near >> 1) & 0x1FFF | (near >> 14) & 1


_RUN_RELEVANT: Final = tuple(_run_relevant(mask) for mask in range(1 << 13))

_WILD_BITS: Final = 1 << 1 | 1 << 14 | 1 << 27 | 1 << 40 | 1 << JOKER_ID
_WILD_CODE: Final = {
    sum(1 << w for bit, w in enumerate((1, 14, 27, 40, JOKER_ID)) if code >> bit & 1): code
    for code in range(32)
}
"""The kinds of wild held (bits of ``present`` at the twos and the joker) as a 5-bit code."""
_WILDS_OF_CODE: Final = tuple(
    tuple(w for bit, w in enumerate((1, 14, 27, 40, JOKER_ID)) if code >> bit & 1)
    for code in range(32)
)


def legal_actions(state: Smazzata) -> list[Action]:
    """Every action the player to act may take now (empty once the smazzata is over).

    This is ``Smazzata.legal_actions``; it keeps what it listed in ``state.last_legal``, which
    ``apply`` trusts without checking again.
    """
    phase = state.phase
    seat = state.current
    if phase == 1:
        actions = meld_actions(state)
        # The discards: one per card type held, in card order (``compress`` picks them by the
        # counts); none before the meld a pick-up must be followed by (3.7).
        if not (state.rules.pickup_requires_meld and state.acquired == PICKUP and not state.melded):
            hand = state.hands[seat]
            size = state.sizes[seat]
            if size > 1:
                actions += compress(_DISCARD[seat], hand)
                # Only the card picked up alone can be barred (R17): every other discard is legal.
                lock = state.lock
                if lock >= 0 and hand[lock] and state._locked(hand[lock], state.lock_in_hand):
                    actions.remove(_DISCARD[seat][lock])
            else:  # the last card: it may take the pozzetto or close (R48, R55)
                problem = state._discard_problem
                lock_in_hand = state.lock_in_hand
                actions += [
                    a
                    for a in compress(_DISCARD[seat], hand)
                    if problem(seat, a.cards[0], hand[a.cards[0]], size, lock_in_hand) is None
                ]
    elif phase == 0:
        pile = state.pile
        if len(pile) > 1 and state.stock and not state.rules.pickup_requires_meld:
            # Draw, or pick up a pile of two cards or more: _check_pickup bars only a single
            # card (R54) or a pick-up that must be followed by a meld (3.7).
            state.last_legal = both = _DRAW_OR_PICKUP[seat]
            return list(both)
        actions = [_DRAW[seat]] if state.stock else []
        if pile and state._check_pickup(_PICKUP[seat]) is None:
            actions.append(_PICKUP[seat])
    else:
        actions = []
    state.last_legal = tuple(actions)
    return actions


def meld_actions(state: Smazzata) -> list[Action]:
    """Every legal OPEN and ATTACH of the player to act (in the PLAY phase)."""
    seat = state.current
    rules = state.rules
    size = state.sizes[seat]
    lock = state.lock
    line = state.line_of[seat]
    line_melds = state.melds[line]
    present = state.present[seat]
    double = state.double[seat]
    wcode = _WILD_CODE[present & _WILD_BITS]
    two_aces = rules.max_natural_aces_per_run == 2
    groups = _CARD_GROUPS
    out: list[Action] = []
    # Groups whose actions all leave two cards or more (and, after a single-card pick-up, more
    # cards than copies of the picked card) need no further check (R53, R17): see _filter.
    limit = size - 2 if lock < 0 else size - max(2, state.hands[seat][lock] + 1)
    slow: list[Action] = []

    # -- open runs: only suits with three consecutive ranks, or two near ones and a wild --
    if wcode:
        candidates = present & (present >> 1 | present >> 2) & _NEAR_OK
        candidates |= present & (present >> 11 | present >> 12) & _ACE_BIT_OF_SUIT
    else:
        candidates = present & (present >> 1) & (present >> 2) & _RUN3_OK
        candidates |= present & (present >> 11) & (present >> 12) & _ACE_BIT_OF_SUIT
    if candidates:
        for suit in range(4):
            shift = 13 * suit
            if not candidates >> shift & 0x1FFF:
                continue
            mask = _RUN_RELEVANT[present >> shift & 0x1FFF]
            doubles = double >> shift & mask & 3
            key = ((((mask << 2 | doubles) << 5 | wcode) << 2 | suit) << 1 | two_aces) << 2
            group = groups.get(key)
            if group is None:
                group = _card_groups(key, _open_runs(suit, mask, doubles, wcode, two_aces))
            if group[1] <= limit:
                if len(group[0]) == 1:  # the usual case: no comprehension to call
                    out.append(_new_action(Action, (seat, OPEN, group[0][0], 0)))
                else:
                    out += [_new_action(Action, (seat, OPEN, cards, 0)) for cards in group[0]]
            else:
                slow += [_new_action(Action, (seat, OPEN, cards, 0)) for cards in group[0]]

    # -- open sets (R26, R27) --
    # Ranks held three times (two and a wild): adding 5 (6) to a rank's 4-bit count sets its
    # top bit from 3 (2) up; ``set_tops`` keeps the top bits of the ranks that may open a set.
    ranks = (state.ranks[seat] + (_PLUS_6 if wcode else _PLUS_5)) & state.set_tops[
        state.set_mask[line]
    ]
    if ranks:
        hand = state.hands[seat]
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            r = (low.bit_length() >> 2) - 1
            counts = hand[r] | hand[13 + r] << 2 | hand[26 + r] << 4 | hand[39 + r] << 6
            key = ((r << 8 | counts) << 5 | wcode) << 2 | 1
            group = groups.get(key)
            if group is None:
                group = _card_groups(key, _open_sets(r + 1, counts, wcode))
            if group[1] <= limit:
                if len(group[0]) == 1:  # the usual case: no comprehension to call
                    out.append(_new_action(Action, (seat, OPEN, group[0][0], 0)))
                else:
                    out += [_new_action(Action, (seat, OPEN, cards, 0)) for cards in group[0]]
            else:
                slow += [_new_action(Action, (seat, OPEN, cards, 0)) for cards in group[0]]

    # -- attach (R23) --
    if line_melds:
        attaches = _RUN_ATTACHES
        for index, meld in enumerate(line_melds, 1):
            if not present & meld.interest and not (wcode and meld.accepts_wild):
                continue
            shift = meld.shift
            if meld.kind == SET:
                # The rank's cards, one bit per suit held once (and per suit held twice); the
                # meld's shape (ident, in akey) says which can join.
                key = (
                    (present >> shift & _RANK_ACROSS_SUITS)
                    | (double >> shift & _RANK_ACROSS_SUITS) << 1
                    | (wcode & meld.wild_kinds) << 41
                ) << 2 | meld.akey
                group = groups.get(key)
                if group is None:
                    group = _card_groups(key, _set_attaches(meld, state.hands[seat], wcode))
            else:
                positions = _POSITIONS[present >> shift & 0x1FFF] & meld.free
                if positions & meld.reach:
                    high = meld.high
                    positions &= (
                        _BELOW_OK[meld.low][positions & _LOWER[meld.low]]
                        & _ABOVE_OK[high][positions >> (high + 1)]
                    )
                elif wcode and meld.accepts_wild:
                    positions = 0  # only a wild can join
                else:
                    continue
                # Only what the candidates depend on goes in the key: the kinds of wild held
                # if the run can take one, two same-suit twos if one can then be the wild, two
                # aces only where a run may hold both (3.2).
                wild_kinds = wcode & meld.wild_kinds
                doubles = double >> shift & (meld.twin_twos | two_aces)
                key = meld.akey | (positions << 8 | doubles << 6 | wild_kinds << 1 | two_aces)
                group = attaches.get(key)
                if group is None:
                    group = _store(
                        attaches,
                        key,
                        _run_attaches(meld, positions, doubles, wild_kinds, two_aces),
                    )
            if not group[1]:
                continue
            if group[1] <= limit:
                if len(group[0]) == 1:  # the usual case: no comprehension to call
                    out.append(_new_action(Action, (seat, ATTACH, group[0][0], index)))
                else:
                    out += [_new_action(Action, (seat, ATTACH, cards, index)) for cards in group[0]]
            else:
                slow += [_new_action(Action, (seat, ATTACH, cards, index)) for cards in group[0]]

    if slow:
        _filter(state, slow, size, lock, out)
    return out


_RANK_ACROSS_SUITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39

CardGroups = tuple[tuple[tuple[Card, ...], ...], int]
_CARD_GROUPS: dict[int, CardGroups] = {}
"""Memo of candidate melds as card tuples, with the most cards one of them uses. The key is an
int packing exactly what the candidates depend on (the cards of one suit or rank, the kinds of
wild held, the shape of the meld being extended: ``Meld.ident``), so that it recurs from one
decision and one game to the next; the seat and meld number are not in it, the actions are made
from the candidates on each listing (a few per decision, cheaper than memoising them)."""
_CARD_GROUPS_LIMIT: Final = 200_000


_RUN_ATTACHES: dict[int, CardGroups] = {}
"""The same for attaches to runs, keyed by ``Meld.akey`` and the hand's cards that matter."""


def _card_groups(key: int, build: list[tuple[Card, ...]] | set[tuple[Card, ...]]) -> CardGroups:
    return _store(_CARD_GROUPS, key, build)


def _store(
    memo: dict[int, CardGroups], key: int, build: list[tuple[Card, ...]] | set[tuple[Card, ...]]
) -> CardGroups:
    """Store the candidates ``build`` under ``key`` (the memo kept bounded)."""
    ordered = tuple(sorted(build) if isinstance(build, set) else build)
    make_room(memo, _CARD_GROUPS_LIMIT)
    group = memo[key] = (ordered, max(map(len, ordered), default=0))
    return group


def _reach_tables() -> tuple[list[int], list[list[int]], list[list[int]]]:
    """Which hand positions could join a run, by the run's lowest and highest position.

    A run grows by contiguous cards with at most one gap (for a wild), so hand cards beyond the
    second missing position on either side can never attach; leaving them out of the memo key
    makes it recur. ``below[low][held]`` (``held``: the hand's positions under ``low``) is the
    mask of positions from just above the second missing one under the run; ``above[high][held]``
    (``held``: the hand's positions over ``high``, shifted down) the mask of positions up to just
    below the second missing one over it.
    """
    lower = [(1 << low) - 1 for low in range(16)]
    below: list[list[int]] = [[]]
    for low in range(1, 15):
        row = []
        for held in range(1 << low):
            missing = ~held & lower[low] & _ALL_POSITIONS
            if missing:
                missing ^= 1 << (missing.bit_length() - 1)  # skip the nearest missing position
            row.append(~((1 << missing.bit_length()) - 1) & _ALL_POSITIONS)
        below.append(row)
    above: list[list[int]] = []
    for high in range(15):
        row = []
        for held in range(1 << (14 - high)):
            missing = ~(held << (high + 1)) & _ALL_POSITIONS & ~lower[high + 1]
            if missing:
                missing &= missing - 1  # skip the nearest missing position
            end = (missing & -missing).bit_length() - 1 if missing else 15
            row.append((1 << end) - 1)
        above.append(row)
    return lower, below, above


_LOWER, _BELOW_OK, _ABOVE_OK = _reach_tables()
_POSITIONS: Final = tuple(mask << 1 | (mask & 1) << 14 for mask in range(1 << 13))
"""A suit's 13-bit rank mask as a position mask (the ace at positions 1 and 14)."""


def _filter(
    state: Smazzata, candidates: list[Action], size: int, lock: int, out: list[Action]
) -> None:
    """Keep the actions after which the turn can still end (R53), deciding hard cases by _check."""
    seat = state.current
    hand = state.hands[seat]
    taken = state.taken[state.line_of[seat]]
    for action in candidates:
        left = size - len(action.cards)
        if left >= 2 and (lock < 0 or left > hand[lock]):
            out.append(action)
        elif left == 0:
            if not taken:
                out.append(action)
        elif state._check(action)[0] is None:
            out.append(action)


_PLUS_5: Final = sum(5 << 4 * r for r in range(13))
_PLUS_6: Final = sum(6 << 4 * r for r in range(13))
_RANK_TOPS: Final = tuple(
    sum(8 << 4 * r for r in range(13) if ranks >> r & 1) for ranks in range(1 << 13)
)
_SET_TOPS: dict[frozenset[int], tuple[int, ...]] = {}


def set_tops(rules: Rules) -> tuple[int, ...]:
    """By a line's ``set_mask``: the top bit of each 4-bit rank count (``Smazzata.ranks``) of
    the ranks that may still open a set there (R26, R27). One table per ruleset's set ranks."""
    table = _SET_TOPS.get(rules.set_ranks)
    if table is None:
        allowed = sum(1 << (r - 1) for r in rules.set_ranks)
        table = _SET_TOPS[rules.set_ranks] = tuple(
            _RANK_TOPS[allowed & ~mask] for mask in range(1 << 13)
        )
    return table


def _open_runs(
    suit: int, mask: int, doubles: int, wcode: int, two_aces: bool
) -> list[tuple[Card, ...]]:
    positions = (mask << 1) | ((mask & 1) << 14)
    natural, wild = _run_table(positions)
    two_copies_of_ace = bool(doubles & 1)
    two_copies_of_two = bool(doubles & 2)
    own_two = suit * 13 + 1
    out = []
    for run in natural:
        if run & _ACE_BITS == _ACE_BITS and not (two_aces and two_copies_of_ace):
            continue
        out.append(_run_cards(suit, run))
    for w in _WILDS_OF_CODE[wcode]:
        is_own_two = w == own_two
        for run, two_ok in wild:
            if run & _ACE_BITS == _ACE_BITS and not (two_aces and two_copies_of_ace):
                continue
            if is_own_two and (not two_ok or (run & _BIT2 and not two_copies_of_two)):
                continue
            out.append(_with_wild(_run_cards(suit, run), w))
    return out


def _counts(packed: int) -> tuple[int, int, int, int]:
    return (packed & 3, packed >> 2 & 3, packed >> 4 & 3, packed >> 6 & 3)


def _open_sets(rank: int, packed: int, wcode: int) -> list[tuple[Card, ...]]:
    """Sets of ``rank`` from the hand's cards of that rank (2 bits per suit in ``packed``)."""
    out = []
    wilds = _WILDS_OF_CODE[wcode]
    for sub_size, sub in _sub_counts(_counts(packed)):
        if sub_size < 2:
            continue
        cards = _set_cards(rank, sub)
        if sub_size >= 3:
            out.append(cards)
        for w in wilds:
            out.append(_with_wild(cards, w))
    return out


def _set_attaches(meld: Meld, hand: list[int], wcode: int) -> list[tuple[Card, ...]]:
    """Candidate attaches to a set (R26): any of the rank's cards, and a wild if it has none."""
    rank = meld.rank
    r = rank - 1
    packed = hand[r] | hand[13 + r] << 2 | hand[26 + r] << 4 | hand[39 + r] << 6
    out = []
    wilds = _WILDS_OF_CODE[wcode] if meld.wild is None else ()
    for _size, sub in _sub_counts(_counts(packed)):
        cards = _set_cards(rank, sub)
        out.append(cards)
        for w in wilds:
            out.append(_with_wild(cards, w))
    for w in wilds:
        out.append((CARDS[w],))
    return out


def _run_attaches(
    meld: Meld, avail: int, doubles: int, wcode: int, two_aces: bool
) -> set[tuple[Card, ...]]:
    """Card groups that extend a run into a valid run (R23, R35-R38), deduplicated.

    ``avail`` holds the run positions the hand can fill with naturals of the run's suit;
    ``doubles`` says whether the hand holds two aces (bit 0) and two same-suit twos (bit 1).
    The search runs over the final span ``a..b`` of the naturals (it contains the run's span) and,
    for each span, over where a wild stands: nowhere, at an end, or in the one gap.
    """
    fixed = meld.mask
    if fixed & _ACE_BITS and not two_aces:
        avail &= ~_ACE_BITS  # the run has its natural ace; a second one only in Reale (R31)
    extender = _RunExtender(meld, avail, wcode, two_twos=bool(doubles & 2))
    # The old wild may become the natural two (R42, E20): position 2 is then filled for free.
    fillable = avail | (_BIT2 if extender.convertible else 0)
    low = (fixed & -fixed).bit_length() - 1
    high = fixed.bit_length() - 1
    for a in range(low, 0, -1):
        below = _interval(a, low - 1) & ~fixed if a < low else 0
        if (below & ~fillable).bit_count() > 1:
            break
        if a < low and not fillable >> a & 1:
            continue  # the low end must be a natural card
        for b in range(high, 15):
            if a == 1 and b == 14 and not two_aces:
                break
            span = _interval(a, b)
            need = span & ~fixed
            missing = need & ~fillable
            if missing.bit_count() > 1:
                break
            if b > high and not fillable >> b & 1:
                continue
            naturals_needed = need & ~missing
            # Aces from the hand: both ends need two of them (Reale only).
            if naturals_needed & _ACE_BITS & avail == _ACE_BITS and not doubles & 1:
                continue
            extender.span(naturals_needed, missing, span, a, b)
    return extender.results


class _RunExtender:
    """Collects the card groups of ``_run_attaches`` for one run and one hand."""

    __slots__ = (
        "avail",
        "convertible",
        "old_wild",
        "own_two",
        "results",
        "suit",
        "two_twos",
        "wilds",
    )

    def __init__(self, meld: Meld, avail: int, wcode: int, *, two_twos: bool) -> None:
        self.suit = meld.suit
        self.old_wild = meld.wild
        self.own_two = meld.suit * 13 + 1
        self.avail = avail
        self.wilds = _WILDS_OF_CODE[wcode]
        self.two_twos = two_twos
        self.convertible = (
            meld.wild is not None and meld.wild == self.own_two and not meld.mask & _BIT2
        )
        self.results: set[tuple[Card, ...]] = set()

    def _add_wilds(self, cards: tuple[Card, ...], uses_hand_two: int) -> None:
        """Add ``cards`` plus each kind of wild held (a same-suit two needs a second copy when
        the hand's other one is already the natural two)."""
        for w in self.wilds:
            if w == self.own_two and uses_hand_two and not self.two_twos:
                continue
            self.results.add(_with_wild(cards, w))

    def span(self, naturals_needed: int, missing: int, span: int, a: int, b: int) -> None:
        """The naturals fill ``a..b`` (except ``missing``, at most one position)."""
        results = self.results
        free_end = a > 1 or b < 14
        converts = (True, False) if self.convertible and naturals_needed & _BIT2 else (False,)
        for use_convert in converts:
            from_hand = naturals_needed & ~_BIT2 if use_convert else naturals_needed
            if from_hand & ~self.avail:
                continue  # position 2 was only fillable by converting the old wild
            wild_left = self.old_wild is not None and not use_convert
            base = _run_cards(self.suit, from_hand) if from_hand else ()
            if missing:
                # One gap the hand cannot fill: a wild must stand there (interior only).
                hole = missing.bit_length() - 1
                if a < hole < b:
                    if wild_left:
                        if base:
                            results.add(base)
                    else:
                        self._add_wilds(base, from_hand & _BIT2)
                continue
            # Everything fillable. (a) no gap: the old wild floats, a new one floats, or none.
            if wild_left:
                if free_end and base:
                    results.add(base)
            else:
                if base:
                    results.add(base)
                if free_end:
                    self._add_wilds(base, from_hand & _BIT2)
            # (b) leave one interior position for a wild (the old one, or a new one).
            interior = from_hand & span & ~POSITION_BITS[a] & ~POSITION_BITS[b]
            while interior:
                bit = interior & -interior
                interior ^= bit
                rest = from_hand ^ bit
                cards = _run_cards(self.suit, rest) if rest else ()
                if wild_left:
                    if cards:
                        results.add(cards)
                else:
                    self._add_wilds(cards, rest & _BIT2)
