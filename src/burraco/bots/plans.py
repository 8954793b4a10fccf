"""Whole-turn plans: what a good club player does with the cards he holds.

The planner works on a ``Table``: what one seat may see (its own hand, every meld, the discard
pile, the cards other seats are known to hold, counts), built either from a ``SeatView`` (the
heuristic bot) or from a full state for the seat to act (the search bot's rollouts, where the
policy reads that seat's hand and the public facts only). A plan is the list of actions of the
rest of the turn: meld actions, then the discard (or nothing after a meld that empties the hand
for a pozzetto in diretta, since the pozzetto's cards are not known before it is taken).

How it plays (``plan_turn``):

1. natural melds first: extend the line's runs and sets with natural cards, open natural runs and
   sets (two orders are tried, runs first and sets first, and the one that melds more is kept);
2. wild cards (jokers and pinelle) are kept, and only spent to: empty the hand for the pozzetto
   (in diretta, or down to one card to discard), close, complete a burraco from a six-card meld
   when the line needs one or the end is near, or unload them when the smazzata is about to end;
3. closing: when the line has its pozzetto and a burraco, close if it is worth it (ahead after the
   bonus, the stock running out, or the opponents threatening to close), else keep two cards;
4. the discard: the card least useful to the own hand (pairs, run neighbours, live outs) and
   least useful to the next opponent (never a card that extends his melds or fits the cards he
   picked up; a card he just discarded is safe), a wild only when forced.

``want_pickup`` decides between drawing and picking up the discard pile: what the pile melds at
once, the wild cards and partial melds it brings, and the cards it adds to the hand, which are
material for later melds while the smazzata is young and nobody can close, but a burden near the
end, when an opponent line can close, or when the own line is about to close.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from burraco.engine.actions import ATTACH, DISCARD, OPEN, PICKUP, Action
from burraco.engine.cards import CARDS, JOKER_ID, NUM_TYPES
from burraco.engine.melds import RUN, SET, Meld, MeldError, check_extend, check_open
from burraco.engine.rules import Rules

if TYPE_CHECKING:
    from burraco.engine.state import Smazzata
    from burraco.engine.views import SeatView

_new_action = tuple.__new__


def is_wild(card: int) -> bool:
    return card == JOKER_ID or card % 13 == 1


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
    """Cards visible to the seat, per card (computed on first use)."""
    feeds: dict[int, dict[int, int]]
    """Per line: the cards that attach alone to its melds (computed on first use)."""

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
        t.present = _present_mask(view.hand)
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


class PlanOptions(NamedTuple):
    """Knobs for plan variants (the search bot tries several)."""

    close: int = 0
    """0: decide by the rule of thumb; 1: close if at all possible; -1: never close."""
    wilds: int = 0
    """0: rule of thumb; 1: spend wild cards on any meld they fit; -1: only to go out or close."""
    discard: int = -1
    """A card to discard (if it is left and legal); -1: the planner's choice."""
    hold: bool = False
    """Open no new meld (only attach to the line's melds), unless it empties the hand."""


DEFAULT_OPTIONS = PlanOptions()


class Plan(NamedTuple):
    actions: tuple[Action, ...]
    """Meld actions, then the discard (none when the last meld takes a pozzetto in diretta)."""
    closes: bool
    """The discard closes the smazzata."""
    left: tuple[int, ...]
    """The hand after the melds (before the discard), as a sorted card list."""


# ------------------------------------------------------------------------------------ helpers


def _value(rules: Rules, card: int) -> int:
    return rules.card_value(card)


def _run_positions(meld: Meld) -> tuple[int, int]:
    mask = meld.mask
    return (mask & -mask).bit_length() - 1, mask.bit_length() - 1


def _natural_of(suit: int, position: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


_NATPOS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_natural_of(s, p) if 1 <= p <= 14 else 0 for p in range(16)) for s in range(4)
)
"""``_NATPOS[suit][position]``: the natural card at a run position (1..14)."""


def _present_mask(hand: Sequence[int]) -> int:
    mask = 0
    for c in range(NUM_TYPES):
        if hand[c]:
            mask |= 1 << c
    return mask


class _Builder:
    """A hand and the line's melds being changed by planned meld actions."""

    __slots__ = ("actions", "hand", "melds", "present", "rules", "seat", "set_ranks", "size")

    def __init__(self, table: Table, hand: Sequence[int] | None = None) -> None:
        self.rules = table.rules
        self.seat = table.seat
        self.hand = list(table.hand if hand is None else hand)
        self.size = sum(self.hand)
        self.present = table.present if hand is None else _present_mask(self.hand)
        self.melds = list(table.melds[table.line])
        self.actions: list[Action] = []
        self.set_ranks = {m.rank for m in self.melds if m.kind == SET}

    def clone(self) -> _Builder:
        b = object.__new__(_Builder)
        b.rules = self.rules
        b.seat = self.seat
        b.hand = self.hand[:]
        b.size = self.size
        b.present = self.present
        b.melds = self.melds[:]
        b.actions = self.actions[:]
        b.set_ranks = set(self.set_ranks)
        return b

    def open(self, cards: Sequence[int]) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        result = check_open(key, self.rules)
        if isinstance(result, MeldError):
            return None
        if result.kind == SET and result.rank in self.set_ranks:
            return None
        self._remove(key)
        self.melds.append(result)
        if result.kind == SET:
            self.set_ranks.add(result.rank)
        self.actions.append(_new_action(Action, (self.seat, OPEN, key, 0)))
        return result

    def _remove(self, cards: Sequence[int]) -> None:
        hand = self.hand
        for c in cards:
            hand[c] -= 1
            if not hand[c]:
                self.present &= ~(1 << c)
        self.size -= len(cards)

    def try_attach(self, index: int, cards: Sequence[int]) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        result = check_extend(self.melds[index], key, self.rules)
        return None if isinstance(result, MeldError) else result

    def attach(self, index: int, cards: Sequence[int], result: Meld | None = None) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        if result is None:
            checked = check_extend(self.melds[index], key, self.rules)
            if isinstance(checked, MeldError):
                return None
            result = checked
        self._remove(key)
        self.melds[index] = result
        # Attaches to the same meld merge into one action.
        actions = self.actions
        if actions and actions[-1].verb == ATTACH and actions[-1].meld == index + 1:
            merged = tuple(sorted((*actions[-1].cards, *key)))
            actions[-1] = _new_action(Action, (self.seat, ATTACH, merged, index + 1))
        else:
            actions.append(_new_action(Action, (self.seat, ATTACH, key, index + 1)))
        return result

    def wilds(self) -> list[int]:
        hand = self.hand
        out = [JOKER_ID] * hand[JOKER_ID]
        for s in range(4):
            out.extend([s * 13 + 1] * hand[s * 13 + 1])
        return out

    def left(self) -> tuple[int, ...]:
        hand = self.hand
        return tuple(c for c in range(NUM_TYPES) for _ in range(hand[c]))

    def has_burraco(self, clean: bool) -> bool:
        need = self.rules.burraco_min_length
        return any(len(m) >= need and (not clean or m.wild is None) for m in self.melds)


# ------------------------------------------------------------------------ natural melds


def _extend_run_naturally(b: _Builder, index: int) -> bool:
    """Attach to a run every natural card of the hand that extends it (no new wild)."""
    meld = b.melds[index]
    suit = meld.suit
    hand = b.hand
    base = suit * 13
    low, high = _run_positions(meld)
    if meld.wild is None or meld.wild_is_floating():
        nat = _NATPOS[suit]
        near = (
            (low > 1 and hand[nat[low - 1]])
            or (high < 14 and hand[nat[high + 1]])
            or (meld.wild is not None and low > 2 and hand[nat[low - 2]])
            or (meld.wild is not None and high < 13 and hand[nat[high + 2]])
        )
        if not near:
            return False
    added: list[int] = []
    result: Meld | None = None
    current = meld
    while True:
        low, high = _run_positions(current)
        positions = [low - 1, high + 1, low - 2, high + 2]
        if current.wild is not None and not current.wild_is_floating():
            positions.insert(0, current.wild_position())
        found = False
        for p in positions:
            if p < 1 or p > 14:
                continue
            card = _natural_of(suit, p)
            if card == base + 1 and p != 2:
                continue
            if hand[card] - added.count(card) <= 0:
                continue
            trial = b.try_attach(index, [*added, card])
            if trial is None:
                continue
            if trial.wild is not None and meld.wild is None:
                continue  # the two would stand as a wild
            added.append(card)
            result = trial
            current = trial
            found = True
            break
        if not found:
            break
    if added and result is not None:
        b.attach(index, added, result)
        return True
    return False


def _extend_set_naturally(b: _Builder, index: int) -> bool:
    meld = b.melds[index]
    r = meld.rank - 1
    hand = b.hand
    if not (hand[r] or hand[13 + r] or hand[26 + r] or hand[39 + r]):
        return False
    cards = [s * 13 + r for s in range(4) for _ in range(hand[s * 13 + r])]
    if not cards:
        return False
    return b.attach(index, cards) is not None


def _attach_naturals(b: _Builder, kinds: tuple[int, ...] = (RUN, SET)) -> None:
    melds = b.melds
    for kind in kinds:
        for index in range(len(melds)):
            meld = melds[index]
            if meld.kind != kind or not meld.interest & b.present:
                continue
            if kind == RUN:
                _extend_run_naturally(b, index)
            else:
                _extend_set_naturally(b, index)


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


def _open_natural_runs(b: _Builder) -> None:
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
            nat = _NATPOS[suit]
            if b.open([nat[q] for q in range(low, low + length)]) is None:
                break


def _open_natural_sets(b: _Builder) -> None:
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


def _natural_phase(table: Table, hold: bool) -> _Builder:
    first = _Builder(table)
    _attach_naturals(first)
    if hold:
        return first
    a = first.clone()
    _open_natural_runs(a)
    _attach_naturals(a, (SET,))
    _open_natural_sets(a)
    _attach_naturals(a)
    if not table.rules.set_ranks:
        return a
    s = first.clone()
    _open_natural_sets(s)
    _open_natural_runs(s)
    _attach_naturals(s)
    return s if s.size < a.size else a


# ---------------------------------------------------------------------------------- wilds


def _wild_kinds(b: _Builder) -> list[int]:
    """The kinds of wild held, cheapest first (twos, then the joker)."""
    hand = b.hand
    out = [s * 13 + 1 for s in range(4) if hand[s * 13 + 1]]
    if hand[JOKER_ID]:
        out.append(JOKER_ID)
    return out


def _pair_opens(b: _Builder, wild: int) -> list[tuple[int, ...]]:
    """New melds of two naturals of the hand and ``wild``: pairs for a set, near cards of a
    suit for a run."""
    hand = b.hand
    set_ranks = b.rules.set_ranks
    line_sets = b.set_ranks
    out: list[tuple[int, ...]] = []
    for c in range(52):
        k = hand[c]
        if not k or c % 13 == 1:
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
            if n > c and hand[n] and n % 13 != 1:
                out.append((c, n, wild))
    return out


def _wild_attaches(b: _Builder, wild: int, with_natural: bool) -> list[tuple[int, tuple[int, ...]]]:
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
            low, high = _run_positions(meld)
            nat = _NATPOS[meld.suit]
            for p in (low - 2, high + 2):
                if 1 <= p <= 14:
                    card = nat[p]
                    if card % 13 != 1 and hand[card] and card != wild:
                        out.append((index, (card, wild)))
        else:
            out.append((index, (wild,)))
    return out


def _use_wilds(b: _Builder, target: int, *, closing: bool) -> bool:
    """Spend wilds until the hand holds ``target`` cards or fewer; True if reached.

    ``closing``: the hand may not be emptied, and the last card must be a natural.
    Greedy: a new meld of two naturals and a wild first, then a wild with a natural on a run,
    then a wild alone.
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
        done = False
        if not (closing and b.size <= 3):
            for wild in kinds:
                for cards in _pair_opens(b, wild):
                    if b.open(cards) is not None:
                        done = True
                        break
                if done:
                    break
        if not done and not (closing and b.size <= 2):
            for wild in kinds:
                for index, cards in _wild_attaches(b, wild, True):
                    if b.attach(index, cards) is not None:
                        done = True
                        break
                if done:
                    break
        if not done and not (closing and b.size <= 1):
            for wild in kinds:
                for index, cards in _wild_attaches(b, wild, False):
                    if b.attach(index, cards) is not None:
                        done = True
                        break
                if done:
                    break
        if not done:
            return False
        _attach_naturals(b)
        if closing and b.size == 0:
            return False
    if closing:
        return b.size == 1 and not is_wild(b.left()[0])
    return True


def _complete_burraco(b: _Builder, index: int) -> bool:
    wilds = b.wilds()
    if not wilds:
        return False
    # the cheapest wild: a two (20) before a joker (30)
    for wild in sorted(set(wilds), key=lambda w: (w == JOKER_ID, w)):
        if b.try_attach(index, [wild]) is not None:
            b.attach(index, [wild])
            return True
    return False


def _burraco_for_closing(b: _Builder) -> None:
    """Complete the longest six-card meld with a wild, if the hand has one to spare."""
    need = b.rules.burraco_min_length
    candidates = [
        i for i, m in enumerate(b.melds) if len(m) == need - 1 and m.wild is None and m.accepts_wild
    ]
    if candidates and b.size >= 2 and b.wilds():
        _complete_burraco(b, max(candidates, key=lambda i: b.melds[i].points(b.rules)))


def _outs(table: Table, meld: Meld) -> int:
    """Unseen natural cards that would extend ``meld`` (a rough count of its live outs)."""
    seen = _seen_counts(table)
    if meld.kind == SET:
        r = meld.rank - 1
        return sum(2 - seen[s * 13 + r] for s in range(4))
    low, high = _run_positions(meld)
    total = 0
    for p in (low - 1, high + 1):
        if 1 <= p <= 14:
            card = _natural_of(meld.suit, p)
            total += max(0, 2 - seen[card])
    return total


def _seen_counts(table: Table) -> list[int]:
    if table.seen is not None:
        return table.seen
    seen = list(table.hand)
    for c in table.pile:
        seen[c] += 1
    for line in table.melds:
        for m in line:
            for c in m.naturals:
                seen[c] += 1
            if m.wild is not None:
                seen[m.wild] += 1
    for seat, known in enumerate(table.known):
        if seat != table.seat:
            for c, k in known.items():
                seen[c] += k
    table.seen = seen
    return seen


# ---------------------------------------------------------------------------------- scoring


def line_table_points(rules: Rules, melds: Sequence[Meld]) -> int:
    total = 0
    for m in melds:
        total += m.points(rules) + m.bonus(rules)
    return total


def _score_estimate(table: Table, own_melds: Sequence[Meld], own_hand_points: int) -> int:
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


def _threat(table: Table) -> bool:
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


def _want_close(table: Table, b: _Builder) -> bool:
    rules = table.rules
    hand_points = 0  # after closing, the hand is empty
    diff = _score_estimate(table, b.melds, hand_points) + rules.closing_bonus
    if diff >= table.style.close_margin or table.turns_left() <= 2 or _threat(table):
        return True
    return diff >= -150 and table.stock < 20


# ---------------------------------------------------------------------------------- discard


def _feed_cards(table: Table, line: int) -> dict[int, int]:
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
            c = _natural_of(suit, p)
            if c % 13 == 1 and p != 2:
                continue
            out.append((c, weight))
    return tuple(out)


def _neighbours_of(card: int) -> tuple[tuple[int, int, int], ...]:
    """Same-suit cards one or two positions away (distance, card, the card between or -1);
    the ace counts both low and high."""
    if card == JOKER_ID or card % 13 == 1:
        return ()
    s, r = divmod(card, 13)
    rank = r + 1
    out: list[tuple[int, int, int]] = []
    positions = [rank] if rank != 1 else [1, 14]
    for pos in positions:
        for d in (-2, -1, 1, 2):
            q = pos + d
            if 1 <= q <= 14 and q != rank and not (rank == 1 and q in (1, 14)):
                c = _natural_of(s, q)
                if c % 13 == 1 and q != 2:
                    continue
                mid = _natural_of(s, pos + d // 2) if abs(d) == 2 else -1
                out.append((abs(d), c, mid))
    return tuple(out)


NEIGHBOURS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    _neighbours_of(c) for c in range(NUM_TYPES)
)
"""Per card: the same-suit cards one or two run positions away (distance, card, between)."""


def keep_values(table: Table, hand: Sequence[int], melds: Sequence[Meld]) -> dict[int, float]:
    """How much each card of ``hand`` is worth keeping (higher: keep; lower: discard)."""
    rules = table.rules
    seen = _seen_counts(table)
    late = 1.0 if table.turns_left() <= 3 else 0.5 if table.turns_left() <= 8 else 0.25
    late *= table.style.points
    set_ranks = rules.set_ranks
    line_sets = {m.rank for m in melds if m.kind == SET}
    out: dict[int, float] = {}
    for c in [c for c in range(NUM_TYPES) if hand[c]]:
        if c == JOKER_ID or c % 13 == 1:
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
                if d == 2 and mid % 13 != 1 and seen[mid] >= 2:
                    value -= 8
        if hand[c] >= 2 and rank not in set_ranks:
            value -= 6  # a duplicate of a run card: only one can go in a run
        value -= _value(rules, c) * late
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
    feed = _feed_cards(table, opp_line)
    known = table.known[nxt]
    pile_size = len(table.pile) + 1
    factor = (1.0 + min(pile_size, 12) / 6.0) * table.style.danger
    top = table.pile[-1] if table.pile else -1
    live_weight = table.style.liveness
    seen = _seen_counts(table) if live_weight else None
    for c in candidates:
        if is_wild(c):
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


def _discardable(table: Table, card: int) -> bool:
    lock = table.lock
    if lock < 0:
        return True
    if card == lock:
        return False
    return not (lock == JOKER_ID and card == JOKER_ID)


def _candidates(table: Table, b: _Builder) -> list[int]:
    """The cards of the builder's hand that may be discarded (R17 lock aside)."""
    out = []
    present = b.present
    while present:
        low = present & -present
        present ^= low
        c = low.bit_length() - 1
        if _discardable(table, c):
            out.append(c)
    return out


def discard_scores(table: Table, b: _Builder, candidates: Sequence[int]) -> dict[int, float]:
    """Keep value plus danger of each candidate discard (lowest: discard it)."""
    keep = keep_values(table, b.hand, b.melds)
    danger = danger_values(table, candidates)
    return {c: keep[c] + danger[c] for c in candidates}


def choose_discard(table: Table, b: _Builder, forced: int = -1) -> int | None:
    """The card to discard from the builder's hand (None if no card may be discarded)."""
    rules = table.rules
    candidates = _candidates(table, b)
    if b.size == 1 and candidates:
        card = candidates[0]
        if table.taken[table.line]:
            if is_wild(card) and not rules.closing_discard_may_be_wild:
                return None
            if not b.has_burraco(rules.closing_requires_clean):
                return None
        elif is_wild(card) and not rules.pozzetto_discard_may_be_wild:
            return None
        return card
    if not candidates:
        return None
    if forced >= 0 and forced in candidates:
        return forced
    naturals = [c for c in candidates if c != JOKER_ID and c % 13 != 1]
    if naturals:
        candidates = naturals  # never a wild while a natural can go
    if len(candidates) == 1:
        return candidates[0]
    scores = discard_scores(table, b, candidates)
    return min(candidates, key=lambda c: (scores[c], c))


def discard_now(table: Table) -> int | None:
    """The card the planner would discard from the hand as it is (no more melds)."""
    return choose_discard(table, _Builder(table))


def discard_ranking(table: Table, b: _Builder) -> list[int]:
    """Discard candidates, best first (the search tries the first few)."""
    candidates = _candidates(table, b)
    if b.size <= 1 or len(candidates) <= 1:
        return candidates
    scores = discard_scores(table, b, candidates)
    return sorted(candidates, key=lambda c: (scores[c], c))


def discard_ranking_of(table: Table, plan: Plan | None) -> list[int]:
    """The discards of the hand left by ``plan``'s melds, best first."""
    b = _Builder(table)
    if plan is not None:
        for action in plan.actions:
            if action.verb != DISCARD and not _replay(b, action):
                break
    return discard_ranking(table, b)


# ------------------------------------------------------------------------------------- plans


def _finish(table: Table, b: _Builder, options: PlanOptions) -> Plan | None:
    """Add the discard; None if the builder's hand does not allow a legal end of turn."""
    rules = table.rules
    taken = table.taken[table.line]
    if b.size == 0:
        if taken:
            return None
        return Plan(tuple(b.actions), False, ())
    if (
        rules.pickup_requires_meld
        and table.acquired == PICKUP
        and not table.melded
        and not b.actions
    ):
        return None
    card = choose_discard(table, b, options.discard)
    if card is None:
        return None
    closes = b.size == 1 and taken
    actions = (*b.actions, _new_action(Action, (b.seat, DISCARD, (CARDS[card],), 0)))
    return Plan(actions, closes, b.left())


def _trim(table: Table, b: _Builder, keep: int) -> _Builder | None:
    """Undo planned melds (the last first, card by card when possible) until ``keep`` cards or
    more are left in the hand."""
    base = _Builder(table)
    actions = list(b.actions)
    while actions:
        last = actions.pop()
        # try the last action with fewer cards: replay everything
        for drop in range(1, len(last.cards)):
            trial = base.clone()
            ok = True
            for a in actions:
                if not _replay(trial, a):
                    ok = False
                    break
            if not ok:
                break
            partial = _shorter(trial, last, drop)
            if partial is not None and partial.size >= keep:
                return partial
        trial = base.clone()
        if all(_replay(trial, a) for a in actions) and trial.size >= keep:
            return trial
    return base if base.size >= keep else None


def _replay(b: _Builder, action: Action) -> bool:
    if action.verb == OPEN:
        return b.open(action.cards) is not None
    return b.attach(action.meld - 1, action.cards) is not None


def _shorter(b: _Builder, action: Action, drop: int) -> _Builder | None:
    """``action`` with ``drop`` of its cards left out (naturals at the ends first)."""
    cards = list(action.cards)
    # drop wilds first, then the lowest-valued naturals
    order = sorted(cards, key=lambda c: (not is_wild(c), _value(b.rules, c)))
    for c in order[:drop]:
        cards.remove(c)
    if not cards:
        return None
    trial = b.clone()
    if action.verb == OPEN:
        if len(cards) < 3 or trial.open(cards) is None:
            return None
    elif trial.attach(action.meld - 1, cards) is None:
        return None
    return trial


def plan_turn(table: Table, options: PlanOptions = DEFAULT_OPTIONS) -> Plan | None:
    """The rest of the turn for the seat to act (in the PLAY phase), or None if the planner
    finds no legal way (the caller then falls back on the legal actions)."""
    rules = table.rules
    taken = table.taken[table.line]
    b = _natural_phase(table, options.hold)
    need_clean = rules.closing_requires_clean

    if not taken:
        # Race to the pozzetto: spend wilds if that empties the hand (or leaves one card).
        if b.size > 1:
            trial = b.clone()
            if _use_wilds(trial, 1, closing=False):
                b = trial
            elif options.hold:
                full = _natural_phase(table, False)
                trial = full.clone()
                if full.size <= 1:
                    b = full
                elif _use_wilds(trial, 1, closing=False):
                    b = trial
    else:
        if b.size == 0:
            trimmed = _trim(table, b, 1)
            if trimmed is None:
                return None
            b = trimmed
        # Closing: one natural card left after the melds, with the burraco closing needs.
        trial = b.clone()
        if not trial.has_burraco(need_clean):
            _burraco_for_closing(trial)
        if trial.size > 1:
            _use_wilds(trial, 1, closing=True)
        can_close = False
        if trial.size == 1:
            last = trial.left()[0]
            can_close = (
                not is_wild(last) and _discardable(table, last) and trial.has_burraco(need_clean)
            )
        if can_close and options.close >= 0 and (options.close > 0 or _want_close(table, trial)):
            b = trial
        elif b.size < 2:
            trimmed = _trim(table, b, 2)
            if trimmed is None:
                return None
            b = trimmed

    closing_now = taken and b.size == 1
    if not closing_now and b.size > 1 and options.wilds >= 0:
        _burraco_with_wild(table, b, force=options.wilds > 0)
        if options.wilds > 0 or (options.wilds == 0 and _dump_time(table)):
            _dump_wilds(table, b)
    plan = _finish(table, b, options)
    if plan is not None:
        return plan
    # No legal end: keep more cards.
    for keep in (2, 3):
        trimmed = _trim(table, b, keep)
        if trimmed is not None:
            plan = _finish(table, trimmed, options._replace(discard=-1))
            if plan is not None:
                return plan
    return None


def _dump_time(table: Table) -> bool:
    return table.turns_left() <= 1 or _threat(table)


def _dump_wilds(table: Table, b: _Builder) -> None:
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


def _burraco_with_wild(table: Table, b: _Builder, *, force: bool) -> None:
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
        outs = _outs(table, b.melds[index])
        style = table.style.burraco_wild
        worth = (
            force
            or style > 0
            or (taken and not has_burraco)
            or table.turns_left() <= 3
            or _threat(table)
            or (style == 0 and (outs <= 2 or table.turns_left() <= 6 or len(wilds) >= 2))
        )
        if not worth or not _complete_burraco(b, index):
            return
        force = False


# ------------------------------------------------------------------------------- acquiring


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
    present = table.present if hand is table.hand else _present_mask(hand)
    if not _may_meld_naturally(table, hand, present):
        return 0, sum(hand)
    b = _Builder(table, hand)
    _attach_naturals(b)
    _open_natural_runs(b)
    _attach_naturals(b, (SET,))
    _open_natural_sets(b)
    _attach_naturals(b)
    points = 0
    rules = table.rules
    for action in b.actions:
        for c in action.cards:
            points += _value(rules, c)
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
        if c == JOKER_ID or c % 13 == 1:
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
        if c == JOKER_ID or c % 13 == 1:
            return True
        r = c % 13
        if (r + 1) in set_ranks and (hand[r] or hand[13 + r] or hand[26 + r] or hand[39 + r]):
            return True
        for _, n, _ in NEIGHBOURS[c]:
            if hand[n]:
                return True
        if feed is None:
            feed = _feed_cards(table, table.line)
        if c in feed:
            return True
    return len(table.pile) >= 3


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
        if is_wild(c):
            wilds += 1
    melded_now, left_now = _natural_value(table, hand)
    melded_pile, left_pile = _natural_value(table, with_pile)
    gain = float(melded_pile - melded_now)
    gain += 40 * wilds
    gain += 6 * _structure_gain(with_pile, pile, rules)
    # Cards added to the hand that were not melded: material while the smazzata is young and
    # nobody can close; a burden near the end, when an opponent can close, or when the own line
    # could close soon.
    extra = left_pile - left_now
    late = table.turns_left()
    burden = table.style.pickup_burden
    need_clean = rules.closing_requires_clean
    if late <= 3:
        per_card = burden[4]
    elif _threat(table):
        per_card = burden[2]
    elif any(_can_close_line(table, line) for line in table.opponent_lines()):
        per_card = burden[1]
    elif table.taken[table.line] and _can_close_line(table, table.line):
        per_card = burden[3]
    else:
        per_card = burden[0]
        if table.taken[table.line] and sum(hand) <= 6:
            # a short hand that cannot close yet needs material to build a burraco
            gain += 4.0 * min(len(pile), 6)
    del need_clean
    gain -= per_card * max(0, extra - wilds)
    # the expected worth of a drawn card instead
    gain -= 8.0
    if len(pile) == 1 and rules.lock_identical_copy:
        gain -= 2.0
    return gain


def _can_close_line(table: Table, line: int) -> bool:
    """Whether ``line`` has its pozzetto and the burraco closing needs."""
    if not table.taken[line]:
        return False
    rules = table.rules
    need = rules.burraco_min_length
    clean = rules.closing_requires_clean
    return any(len(m) >= need and (not clean or m.wild is None) for m in table.melds[line])


def want_pickup(table: Table) -> bool:
    return pickup_gain(table) > 0


__all__ = [
    "DEFAULT_OPTIONS",
    "Plan",
    "PlanOptions",
    "Table",
    "choose_discard",
    "danger_values",
    "discard_now",
    "discard_ranking",
    "discard_ranking_of",
    "is_wild",
    "keep_values",
    "pickup_gain",
    "plan_turn",
    "want_pickup",
]
