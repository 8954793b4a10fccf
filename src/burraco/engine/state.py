"""One smazzata: the state machine of RULES.md section 2 (and the variants of section 3).

``legal_actions()``, ``verify(action)``, ``can(action)`` and ``apply(action)`` share one source of
legality: ``verify`` and ``apply`` go through ``_check``, and ``legal_actions`` (``movegen.py``)
lists exactly the actions ``_check`` accepts, which the random-simulation tests confirm after every
step of thousands of games.

Hands are count arrays indexed by card (two decks: multisets). The stock is a list whose *end* is
its top, so drawing is a ``pop``. Melds are immutable, so a copy of the state shares them.

The module is long on purpose: it is the one place that decides every rule (``_check`` and the
``apply`` steps share the hand bookkeeping), and splitting the class across modules would put
attribute look-ups on the self-play hot path (docs/architecture.md, "Why it is fast").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple

from . import movegen
from .actions import DISCARD, DRAW, OPEN, PICKUP, Action, Verb
from .cards import CARDS, JOKER_ID, NUM_TYPES, RANK_NAMES, Card, cards_of_counts, format_cards
from .deal import Deal, check_explicit_deal, deal_from_deck, pozzetto_layout, shuffled_deck
from .errors import IllegalActionError, Param
from .events import (
    Attached,
    Discarded,
    Drew,
    Event,
    LineFormed,
    Opened,
    PickedUp,
    PozzettoTaken,
    SmazzataEnded,
    TurnStarted,
)
from .melds import SET, Meld, MeldError, check_extend, check_open
from .rules import Rules

if TYPE_CHECKING:
    from .scoring import SmazzataScore
    from .views import SeatView


class Phase(IntEnum):
    ACQUIRE = 0
    """The player to act must draw or pick up (R14)."""
    PLAY = 1
    """The player may open and attach, and must end with a discard (R13)."""
    OVER = 2
    """The smazzata has ended (closing, stock or stall)."""


_ACQUIRE, _PLAY, _OVER = Phase.ACQUIRE, Phase.PLAY, Phase.OVER  # fast global lookups
_BIT = tuple(1 << c for c in range(NUM_TYPES))
_CLEAR = tuple(~(1 << c) for c in range(NUM_TYPES))
_RANK_UNIT = (*(1 << 4 * (c % 13) for c in range(JOKER_ID)), 0)
_new = tuple.__new__  # builds the frequent events without a Python-level __new__
_END_RULES = {"closing": "R56", "stock": "R57", "stall": "R58"}


class Problem(NamedTuple):
    """Why an action is illegal, before it becomes an IllegalActionError: the English sentence,
    the RULES.md id, the stable code and its parameters (as a MeldError has them)."""

    reason: str
    rule: str
    code: str
    params: Mapping[str, Param]


def _is_wild(card: int) -> bool:
    return card == JOKER_ID or card % 13 == 1


class Smazzata:
    """The complete state of one smazzata (all hidden information included).

    Build one with ``Smazzata.new(rules, rng=...)`` (or ``deck=`` / ``deal=``). A seat's view of it
    is ``view(seat)``; bots and clients should only ever look at views.
    """

    __slots__ = (
        "acquired",
        "closed_by",
        "current",
        "deal",
        "double",
        "drawn",
        "end_reason",
        "first",
        "hands",
        "known",
        "last_legal",
        "late",
        "line_of",
        "lock",
        "lock_in_hand",
        "melded",
        "melds",
        "n",
        "opened",
        "phase",
        "pile",
        "pozzetti",
        "pozzetto_number",
        "present",
        "ranks",
        "removed",
        "rules",
        "seq",
        "set_mask",
        "set_tops",
        "sizes",
        "solo_mode",
        "stall",
        "stock",
        "taken",
        "turns",
        "unplayed",
    )

    rules: Rules
    n: int
    first: int
    deal: Deal
    late: bool
    hands: list[list[int]]
    present: list[int]
    """Per seat, bit c set when the hand holds at least one card c (kept for movegen)."""
    double: list[int]
    """Per seat, bit c set when the hand holds at least two cards c."""
    ranks: list[int]
    """Per seat, how many cards of each rank the hand holds, 4 bits a rank (bits 4r..4r+3 for
    rank index r, 0 = ace; jokers not counted): sets are found from it (kept for movegen)."""
    sizes: list[int]
    stock: list[Card]
    pile: list[Card]
    # Fields that change rarely are tuples, replaced (never mutated) when they change, so that a
    # copy can share them: pozzetti, pozzetto_number, line_of, melds[line], set_mask, taken,
    # unplayed.
    pozzetti: tuple[tuple[Card, ...], ...]
    pozzetto_number: tuple[int, ...]
    removed: tuple[Card, ...]
    """Cards set aside, out of play: empty in real games; used by constructed positions."""
    line_of: tuple[int, ...]
    melds: list[tuple[Meld, ...]]
    opened: list[tuple[int, ...]]
    """Per line, the number (1, 2, ... in the smazzata, ``seq``) with which each of its melds
    was opened: what orders two lines' melds when they merge (3.5)."""
    set_mask: tuple[int, ...]
    """Per line, bit r-1 set when the line has a set of rank r (R27)."""
    set_tops: tuple[int, ...]
    """The ruleset's table of the ranks that may open a set by ``set_mask`` (movegen)."""
    taken: tuple[bool, ...]
    unplayed: tuple[tuple[Card, ...] | None, ...]
    known: list[dict[int, int]]
    """Per seat, the cards others know it holds (picked up from the pile): card -> copies."""
    current: int
    phase: Phase
    acquired: int
    lock: int
    lock_in_hand: bool
    melded: bool
    drawn: int
    stall: int
    seq: int
    turns: int
    solo_mode: bool
    end_reason: str | None
    closed_by: int | None
    last_legal: tuple[Action, ...] | None
    """The actions ``legal_actions`` listed for the state as it is now (None after any change):
    ``apply`` trusts them without checking them again, as they came from the same rules."""

    # ------------------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
        deal: Deal | None = None,
        first: int = 0,
        late: bool = False,
    ) -> Smazzata:
        """Deal a smazzata from a seeded generator, an explicit deck order, or an explicit deal.

        ``late`` selects the 3-player layout after the switch to three pozzetti (3.5).
        """
        if sum(x is not None for x in (rng, deck, deal)) != 1:
            raise ValueError("give exactly one of rng, deck or deal")
        if not 0 <= first < rules.players:
            raise ValueError(f"first seat {first} is not a seat of a {rules.players}-player table")
        if deal is None:
            if rng is not None:
                shuffled = shuffled_deck(rules, rng)
                deal = deal_from_deck(shuffled, rules, first, late=late, checked=True)
            else:
                assert deck is not None
                deal = deal_from_deck(deck, rules, first, late=late)
        else:
            check_explicit_deal(deal, rules, late=late)
        return cls._from_deal(rules, deal, first, late)

    @classmethod
    def _from_deal(cls, rules: Rules, deal: Deal, first: int, late: bool) -> Smazzata:
        self = object.__new__(cls)
        n = rules.players
        self.rules = rules
        self.n = n
        self.first = first
        self.deal = deal
        self.late = late
        self.hands = [[0] * NUM_TYPES for _ in range(n)]
        self.present = [0] * n
        self.double = [0] * n
        self.ranks = [0] * n
        self.sizes = [0] * n
        for seat, cards in enumerate(deal.hands):
            for c in cards:
                self._add(seat, c)
        self.stock = list(reversed(deal.stock))
        self.pile = list(deal.discard)
        self.pozzetti = tuple(deal.pozzetti)
        self.pozzetto_number = tuple(range(1, len(deal.pozzetti) + 1))
        self.removed = ()
        self.solo_mode = n == 3 and len(pozzetto_layout(rules, late=late)) == 2
        self.line_of = tuple(seat % 2 for seat in range(n)) if n == 4 else tuple(range(n))
        lines = 2 if n == 4 else n
        self.melds = [() for _ in range(lines)]
        self.opened = [() for _ in range(lines)]
        self.set_mask = (0,) * lines
        self.set_tops = movegen.set_tops(rules)
        self.taken = (False,) * lines
        self.unplayed = (None,) * n
        self.known = [{} for _ in range(n)]
        self.current = first
        self.phase = _ACQUIRE
        self.acquired = -1
        self.lock = -1
        self.lock_in_hand = False
        self.melded = False
        self.drawn = -1
        self.stall = 0
        self.seq = 0
        self.turns = 0
        self.end_reason = None
        self.closed_by = None
        self.last_legal = None
        return self

    def copy(self) -> Smazzata:
        """An independent copy (cheap: melds and the deal are immutable and shared)."""
        new = object.__new__(Smazzata)
        new.rules = self.rules
        new.n = self.n
        new.first = self.first
        new.deal = self.deal
        new.late = self.late
        new.hands = [h[:] for h in self.hands]
        new.present = self.present[:]
        new.double = self.double[:]
        new.ranks = self.ranks[:]
        new.sizes = self.sizes[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.pozzetti = self.pozzetti
        new.pozzetto_number = self.pozzetto_number
        new.removed = self.removed
        new.line_of = self.line_of
        new.melds = self.melds[:]
        new.opened = self.opened[:]
        new.set_mask = self.set_mask
        new.set_tops = self.set_tops
        new.taken = self.taken
        new.unplayed = self.unplayed
        new.known = [k.copy() for k in self.known]
        new.current = self.current
        new.phase = self.phase
        new.acquired = self.acquired
        new.lock = self.lock
        new.lock_in_hand = self.lock_in_hand
        new.melded = self.melded
        new.drawn = self.drawn
        new.stall = self.stall
        new.seq = self.seq
        new.turns = self.turns
        new.solo_mode = self.solo_mode
        new.end_reason = self.end_reason
        new.closed_by = self.closed_by
        new.last_legal = self.last_legal
        return new

    __copy__ = copy

    # ------------------------------------------------------------------------------- queries

    @property
    def players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the smazzata is over (OpenSpiel's name)."""
        return None if self.phase == _OVER else self.current

    def hand(self, seat: int) -> list[Card]:
        return cards_of_counts(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        return self.sizes[seat]

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Bottom to top."""
        return tuple(self.pile)

    def line_melds(self, line: int) -> tuple[Meld, ...]:
        return tuple(self.melds[line])

    def lines(self) -> list[tuple[int, ...]]:
        """The lines as they stand now: for each active line id, its seats."""
        out: dict[int, list[int]] = {}
        for seat, line in enumerate(self.line_of):
            out.setdefault(line, []).append(seat)
        return [tuple(seats) for _, seats in sorted(out.items())]

    def line_ids(self) -> list[int]:
        return sorted(set(self.line_of))

    def has_burraco(self, line: int, *, clean: bool = False) -> bool:
        rules = self.rules
        return any(
            len(m) >= rules.burraco_min_length and (not clean or m.wild is None)
            for m in self.melds[line]
        )

    # ------------------------------------------------------------------------------- legality

    legal_actions = movegen.legal_actions

    def verify(self, action: Action) -> None:
        """Raise IllegalActionError (quoting the action and citing the rule) unless legal."""
        error, _ = self._check(action)
        if error is not None:
            raise error

    def can(self, action: Action) -> bool:
        return self._check(action)[0] is None

    def _illegal(
        self, action: Action, reason: str, rule: str, code: str, **params: Param
    ) -> tuple[IllegalActionError, None]:
        return IllegalActionError(action.text(), reason, rule, code=code, params=params), None

    def _refuse(self, action: Action, problem: Problem) -> tuple[IllegalActionError, None]:
        return self._illegal(action, problem.reason, problem.rule, problem.code, **problem.params)

    def _check(self, action: Action) -> tuple[IllegalActionError | None, Meld | None]:
        """The single source of legality: (error, None) or (None, resulting meld or None)."""
        seat = action.seat
        verb = action.verb
        if self.phase == _OVER:
            reason = self.end_reason or "closing"
            return self._illegal(
                action,
                f"the smazzata is over (it ended by {reason})",
                _END_RULES[reason],
                "smazzata_over",
                ended=reason,
            )
        if not 0 <= seat < self.n:
            return self._illegal(
                action,
                f"there is no seat {seat} at a {self.n}-player table",
                "R1",
                "no_such_seat",
                seat=seat,
                players=self.n,
            )
        if seat != self.current:
            return self._illegal(
                action,
                f"it is seat {self.current}'s turn, not seat {seat}'s",
                "R5",
                "not_your_turn",
                seat=seat,
                current=self.current,
            )
        if self.phase == _ACQUIRE:
            if verb == DRAW:
                if len(self.stock) == 0:
                    return self._illegal(action, "the stock is empty", "R57", "stock_empty")
                return None, None
            if verb == PICKUP:
                return self._check_pickup(action), None
            return self._illegal(
                action,
                "the turn starts by drawing or picking up the discard pile",
                "R13",
                "acquire_first",
            )
        if verb in (DRAW, PICKUP):
            how = "drew" if self.acquired == DRAW else "picked up the discard pile"
            return self._illegal(
                action,
                f"seat {seat} already {how} this turn",
                "R14",
                "already_acquired",
                drew=self.acquired == DRAW,
            )
        if verb == DISCARD:
            return self._check_discard(action), None
        return self._check_meld(action)

    def _check_pickup(self, action: Action) -> IllegalActionError | None:
        pile = self.pile
        if not pile:
            return self._illegal(action, "the discard pile is empty", "R14", "pile_empty")[0]
        hand = self.hands[action.seat]
        if len(pile) == 1 and self.rules.lock_identical_copy:
            card = pile[0]
            if hand[card] == self.sizes[action.seat]:
                return self._illegal(
                    action,
                    f"every card in the hand is a {card}, so after picking up the single {card}"
                    " nothing could be discarded",
                    "R54",
                    "pickup_nothing_to_discard",
                    card=str(card),
                )[0]
        if self.rules.pickup_requires_meld and not self._pickup_allows_meld(action.seat):
            need = "open a new meld" if len(pile) == 1 else "open or attach"
            return self._illegal(
                action,
                f"a pick-up must be followed by a meld, and with these cards seat"
                f" {action.seat} could not {need}",
                "R14, 3.7",
                "pickup_needs_meld",
                single=len(pile) == 1,
            )[0]
        return None

    def _pickup_allows_meld(self, seat: int) -> bool:
        trial = self.copy()
        trial.last_legal = None
        trial._do_pickup(seat)
        melds = movegen.meld_actions(trial)
        if len(self.pile) == 1:
            return any(a.verb == OPEN for a in melds)
        return bool(melds)

    def _check_discard(self, action: Action) -> IllegalActionError | None:
        seat = action.seat
        if len(action.cards) != 1:
            return self._illegal(
                action, "a discard is exactly one card", "R20", "discard_one_card"
            )[0]
        card = action.cards[0]
        hand = self.hands[seat]
        if not hand[card]:
            return self._illegal(
                action, f"seat {seat} does not hold {card}", "R20", "card_not_held", card=str(card)
            )[0]
        if self.rules.pickup_requires_meld and self.acquired == PICKUP and not self.melded:
            return self._illegal(
                action,
                "after picking up the discard pile the player must open or attach before"
                " discarding",
                "3.7",
                "discard_before_meld",
            )[0]
        problem = self._discard_problem(seat, card, hand[card], self.sizes[seat], self.lock_in_hand)
        if problem is not None:
            return self._refuse(action, problem)[0]
        return None

    def _locked(self, copies: int, lock_in_hand: bool) -> bool:
        """R17: whether the card picked up alone (held ``copies`` times) is barred from the
        discard: always, or (without the twin rule) while that very copy is in the hand and no
        twin is."""
        return self.rules.lock_identical_copy or (lock_in_hand and copies < 2)

    def _discard_problem(
        self,
        seat: int,
        card: int,
        copies: int,
        size: int,
        lock_in_hand: bool,
        *,
        burraco: bool | None = None,
    ) -> Problem | None:
        """Why discarding ``card`` (held ``copies`` times, hand of ``size``) is illegal, or None.

        R52. ``burraco`` overrides whether the line has a (qualifying) burraco, for the R53 check
        of a meld that would make one.
        """
        rules = self.rules
        if card == self.lock and self._locked(copies, lock_in_hand):
            name = str(CARDS[card])
            if rules.lock_identical_copy:
                return Problem(
                    f"{name} cannot be discarded: the single card picked up from the"
                    " discard pile (or its twin) may not be discarded in the same turn",
                    "R17",
                    "discard_locked_twin",
                    {"card": name},
                )
            return Problem(
                f"{name} is the single card picked up from the discard pile and may"
                " not be discarded in the same turn",
                "R17",
                "discard_locked",
                {"card": name},
            )
        if size > 1:
            return None
        line = self.line_of[seat]
        if not self.taken[line]:
            if not rules.pozzetto_discard_may_be_wild and _is_wild(card):
                return Problem(
                    "the discard that takes the pozzetto cannot be a wild card here",
                    "R48",
                    "discard_wild_pozzetto",
                    {"card": str(CARDS[card])},
                )
            return None
        # The discard would empty the hand of a line that has its pozzetto: a closing (R55).
        if burraco is None:
            burraco = self.has_burraco(line, clean=rules.closing_requires_clean)
        if not burraco:
            clean = rules.closing_requires_clean
            kind = "a clean burraco" if clean else "a burraco"
            return Problem(
                f"the line cannot close without {kind} on the table",
                "R55",
                "close_needs_clean_burraco" if clean else "close_needs_burraco",
                {"card": str(CARDS[card])},
            )
        if _is_wild(card) and not rules.closing_discard_may_be_wild:
            return Problem(
                "the closing discard cannot be a wild card",
                "R55",
                "discard_wild_closing",
                {"card": str(CARDS[card])},
            )
        return None

    def _check_meld(self, action: Action) -> tuple[IllegalActionError | None, Meld | None]:
        seat = action.seat
        cards = action.cards
        hand = self.hands[seat]
        # The named cards must be in the hand (as a multiset).
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        for card_id, k in need.items():
            if hand[card_id] < k:
                have = "only " + str(hand[card_id]) if hand[card_id] else "no"
                # Melded cards come from the hand: OPEN R22, ATTACH R23 (which also forbids
                # taking cards back from the table or moving them between melds).
                return self._illegal(
                    action,
                    f"seat {seat} holds {have} {CARDS[card_id]}, the action names {k}",
                    "R22" if action.verb == OPEN else "R23",
                    "card_not_held",
                    card=str(CARDS[card_id]),
                    held=hand[card_id],
                    named=k,
                )
        line = self.line_of[seat]
        line_melds = self.melds[line]
        if action.verb == OPEN:
            result = check_open(cards, self.rules)
            if isinstance(result, MeldError):
                return self._refuse(action, Problem(*result))
            if result.kind == SET:
                for m in line_melds:
                    if m.kind == SET and m.rank == result.rank:
                        return self._illegal(
                            action,
                            f"the line already has a set of {result.naturals[0]}'s rank;"
                            " the cards must be attached to it",
                            "R27",
                            "set_exists",
                            rank=RANK_NAMES[result.rank],
                        )
            replaced = -1
        else:
            if not 1 <= action.meld <= len(line_melds):
                return self._illegal(
                    action,
                    f"the line has no meld {action.meld} (it has {len(line_melds)})",
                    "R23",
                    "no_such_meld",
                    meld=action.meld,
                    melds=len(line_melds),
                )
            replaced = action.meld - 1
            result = check_extend(line_melds[replaced], cards, self.rules)
            if isinstance(result, MeldError):
                return self._refuse(action, Problem(*result))
        problem = self._completion_problem(seat, need, len(cards), result, replaced)
        if problem is not None:
            return self._refuse(action, problem)
        return None, result

    def _completion_problem(
        self, seat: int, removed: dict[int, int], k: int, result: Meld, replaced: int
    ) -> Problem | None:
        """R53: after a meld the player must still be able to finish the turn."""
        size = self.sizes[seat] - k
        line = self.line_of[seat]
        if size == 0:
            if self.taken[line]:
                return Problem(
                    "the line already has its pozzetto, so the hand may only be emptied by a"
                    " closing discard (R49); keep a card to discard",
                    "R53",
                    "meld_empties_hand",
                    {},
                )
            return None
        lock = self.lock
        if size >= 2 and lock < 0:
            return None
        hand = self.hands[seat]
        lock_in_hand = self.lock_in_hand and not removed.get(lock, 0)
        burraco: bool | None = None
        if size == 1 and self.taken[line]:
            burraco = self._burraco_after(line, result, replaced)
        held = self.present[seat]  # only the card types held can be left
        last: Problem | None = None
        while held:
            low = held & -held
            held ^= low
            c = low.bit_length() - 1
            left = hand[c] - removed.get(c, 0)
            if left:
                last = self._discard_problem(seat, c, left, size, lock_in_hand, burraco=burraco)
                if last is None:
                    return None
        if size == 1 and last is not None:
            # One card left: its discard is what fails, and why it fails is the real cause (a
            # closing without a burraco, R55; a wild closing discard; the locked card, R17), not
            # the generic R53 that only says the turn could not end.
            return Problem(
                f"after this meld the last card {last.params.get('card', '')} could not be"
                f" discarded: {last.reason}",
                last.rule,
                last.code,
                {**last.params, "after_meld": True},
            )
        left_cards = [
            CARDS[c] for c in range(NUM_TYPES) for _ in range(hand[c] - removed.get(c, 0))
        ]
        return Problem(
            f"the hand would be left with {format_cards(left_cards)} and no legal discard",
            "R53",
            "no_legal_discard",
            {"cards": " ".join(str(c) for c in left_cards)},
        )

    def _burraco_after(self, line: int, result: Meld, replaced: int) -> bool:
        rules = self.rules
        need_clean = rules.closing_requires_clean
        melds = list(self.melds[line])
        if replaced >= 0:
            melds[replaced] = result
        else:
            melds.append(result)
        return any(
            len(m) >= rules.burraco_min_length and (not need_clean or m.wild is None) for m in melds
        )

    # --------------------------------------------------------------------------------- apply

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` (after checking it) and return the events that happened.

        An illegal action raises IllegalActionError and leaves the state unchanged.
        """
        listed = self.last_legal
        self.last_legal = None
        meld = None
        if listed is None or action not in listed:
            error, meld = self._check(action)
            if error is not None:
                raise error
        # else listed by legal_actions() for this very state: legal, and checked no further
        verb = action.verb
        if verb == DISCARD:
            return self._do_discard(action.seat, action.cards[0])
        seat = action.seat
        if verb == DRAW:
            card = self.stock.pop()
            self._add(seat, card)
            self.drawn = card
            self.acquired = DRAW
            self.phase = _PLAY
            return [_new(Drew, (seat, card))]
        if verb == PICKUP:
            return [_new(PickedUp, (seat, self._do_pickup(seat)))]
        return self._do_meld(action, self._meld_of(action) if meld is None else meld)

    def _meld_of(self, action: Action) -> Meld:
        """The meld a legal OPEN or ATTACH makes (memoised in melds.py)."""
        if action.verb == OPEN:
            result = check_open(action.cards, self.rules)
        else:
            line = self.line_of[action.seat]
            result = check_extend(self.melds[line][action.meld - 1], action.cards, self.rules)
        assert isinstance(result, Meld)
        return result

    def _do_pickup(self, seat: int) -> tuple[Card, ...]:
        cards = tuple(self.pile)
        self.pile = []
        known = self.known[seat]
        hand = self.hands[seat]
        present = self.present[seat]
        double = self.double[seat]
        ranks = self.ranks[seat]
        for c in cards:  # _add, for many cards at once
            held = hand[c]
            if held == 0:
                present |= _BIT[c]
            elif held == 1:
                double |= _BIT[c]
            hand[c] = held + 1
            ranks += _RANK_UNIT[c]
            known[c] = known.get(c, 0) + 1
        self.present[seat] = present
        self.double[seat] = double
        self.ranks[seat] = ranks
        self.sizes[seat] += len(cards)
        if len(cards) == 1:
            self.lock = cards[0]
            self.lock_in_hand = True
        self.acquired = PICKUP
        self.phase = _PLAY
        return cards

    def _add(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        held = hand[card]
        if held == 0:
            self.present[seat] |= _BIT[card]
        elif held == 1:
            self.double[seat] |= _BIT[card]
        hand[card] = held + 1
        self.ranks[seat] += _RANK_UNIT[card]
        self.sizes[seat] += 1

    def _remove(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        held = hand[card] - 1
        hand[card] = held
        if held == 0:
            self.present[seat] &= _CLEAR[card]
        elif held == 1:
            self.double[seat] &= _CLEAR[card]
        self.ranks[seat] -= _RANK_UNIT[card]
        self.sizes[seat] -= 1
        known = self.known[seat]
        if card in known:  # a card the others knew of (picked up from the pile) has left
            if known[card] == 1:
                del known[card]
            else:
                known[card] -= 1

    def _do_meld(self, action: Action, meld: Meld) -> list[Event]:
        seat = action.seat
        line = self.line_of[seat]
        for c in action.cards:
            self._remove(seat, c)
            if c == self.lock:
                # The engine melds the locked copy first, which leaves the most discards legal.
                self.lock_in_hand = False
        self.melded = True
        events: list[Event]
        if action.verb == OPEN:
            self.seq += 1
            self.melds[line] = (*self.melds[line], meld)
            self.opened[line] = (*self.opened[line], self.seq)
            if meld.kind == SET:
                masks = list(self.set_mask)
                masks[line] |= 1 << (meld.rank - 1)
                self.set_mask = tuple(masks)
            events = [_new(Opened, (seat, line, len(self.melds[line]), meld))]
        else:
            melds = list(self.melds[line])
            melds[action.meld - 1] = meld
            self.melds[line] = tuple(melds)
            events = [_new(Attached, (seat, line, action.meld, action.cards, meld))]
        if self.sizes[seat] == 0:
            events.extend(self._take_pozzetto(seat, direct=True))
        return events

    def _take_pozzetto(self, seat: int, *, direct: bool) -> list[Event]:
        """R44-R48: the hand is empty and the line has no pozzetto yet: take the next one."""
        line = self.line_of[seat]
        cards = self.pozzetti[0]
        number = self.pozzetto_number[0]
        self.pozzetti = self.pozzetti[1:]
        self.pozzetto_number = self.pozzetto_number[1:]
        taken = list(self.taken)
        taken[line] = True
        self.taken = tuple(taken)
        for c in cards:
            self._add(seat, c)
        if not direct:
            unplayed = list(self.unplayed)
            unplayed[seat] = cards
            self.unplayed = tuple(unplayed)
        events: list[Event] = [PozzettoTaken(seat, line, number, direct, cards)]
        if self.solo_mode:
            events.extend(self._form_pair(seat))
        return events

    def _form_pair(self, solo: int) -> list[Event]:
        """3 players (3.5): the first pozzetto taker plays alone; the other two become a line."""
        self.solo_mode = False
        pair = sorted(s for s in range(self.n) if s != solo)
        keep, merged = pair
        line_of = list(self.line_of)
        line_of[merged] = keep
        self.line_of = tuple(line_of)
        # The merged line numbers its melds in the order they were opened.
        combined = sorted(
            zip(
                self.opened[keep] + self.opened[merged],
                self.melds[keep] + self.melds[merged],
                strict=True,
            ),
            key=lambda pair: pair[0],
        )
        self.opened[keep] = tuple(number for number, _ in combined)
        self.melds[keep] = tuple(meld for _, meld in combined)
        self.opened[merged] = ()
        self.melds[merged] = ()
        masks = list(self.set_mask)
        masks[keep] |= masks[merged]
        masks[merged] = 0
        self.set_mask = tuple(masks)
        return [LineFormed(keep, tuple(pair))]

    def _do_discard(self, seat: int, card: Card) -> list[Event]:
        self._remove(seat, card)
        size = self.sizes[seat]
        self.pile.append(card)
        events: list[Event] = [_new(Discarded, (seat, card))]
        rules = self.rules
        if not size:
            line = self.line_of[seat]
            if self.taken[line]:
                return [*events, *self._end("closing", seat)]
            events.extend(self._take_pozzetto(seat, direct=False))
        if len(self.stock) <= rules.stock_end_threshold:
            events.extend(self._end("stock", None))
            return events
        if self.acquired == DRAW or self.melded:
            self.stall = 0
        else:
            self.stall += 1
            if rules.stall_limit and self.stall >= rules.stall_limit:
                events.extend(self._end("stall", None))
                return events
        # Next turn (R5: clockwise).
        nxt = (seat + 1) % self.n
        self.current = nxt
        self.phase = _ACQUIRE
        self.acquired = -1
        self.lock = -1
        self.lock_in_hand = False
        self.melded = False
        self.drawn = -1
        self.turns += 1
        # R50: a pozzetto taken con scarto counts as played once its owner's next turn begins.
        if self.unplayed[nxt] is not None:
            unplayed = list(self.unplayed)
            unplayed[nxt] = None
            self.unplayed = tuple(unplayed)
        events.append(_new(TurnStarted, (nxt,)))
        return events

    def _end(self, reason: str, closed_by: int | None) -> list[Event]:
        self.phase = _OVER
        self.end_reason = reason
        self.closed_by = closed_by
        return [SmazzataEnded(reason, closed_by)]

    # ------------------------------------------------------------------------------ results

    def score(self) -> SmazzataScore:
        """The scores of the smazzata (R60); valid once it is over."""
        from .scoring import score_smazzata

        return score_smazzata(self)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see (and nothing more)."""
        from .views import seat_view

        return seat_view(self, seat)

    # ----------------------------------------------------------------------------- checking

    def all_cards(self) -> list[int]:
        """Every card, wherever it is (for the card-conservation invariant)."""
        out: list[int] = []
        for hand in self.hands:
            for c in range(NUM_TYPES):
                out.extend([c] * hand[c])
        out.extend(self.stock)
        out.extend(self.pile)
        for pozzetto in self.pozzetti:
            out.extend(pozzetto)
        out.extend(self.removed)
        for line in self.melds:
            for meld in line:
                out.extend(meld.naturals)
                if meld.wild is not None:
                    out.append(meld.wild)
        return out

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.is_over else f"seat {self.current} to act"
        return f"<Smazzata {self.rules.name} {self.n}p, {status}, stock {len(self.stock)}>"


def play_actions(state: Smazzata, actions: Iterable[Action]) -> Smazzata:
    """Apply actions in order (raising on the first illegal one); returns the same state."""
    for action in actions:
        state.apply(action)
    return state


__all__ = ["Phase", "Smazzata", "Verb", "play_actions"]
