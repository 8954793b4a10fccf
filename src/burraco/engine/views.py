"""What one seat may see, and hidden-card sampling consistent with it.

A ``SeatView`` holds the seat's own hand (minus a pozzetto taken con scarto that is not yet
revealed to it, R48), every public fact (melds, the discard pile, card counts, pozzetti taken,
cards known to be in other hands because they were picked up from the face-up pile) and nothing
else. Bots and clients decide from views only; ``sample_state`` deals the hidden cards at random
in a way consistent with a view, which is what determinized search needs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from .actions import Action
from .cards import CARDS, NUM_TYPES, Card, cards_of_counts, deck_counts
from .deal import Deal, pozzetto_layout
from .events import Drew, Event, PozzettoTaken
from .melds import Meld
from .movegen import set_tops
from .rules import Rules
from .state import Phase, Smazzata

VIEW_SCHEMA: Final = "burraco-view/1"
"""The ``schema`` field of ``SeatView.to_json``: bumped whenever a field changes meaning."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """The information set of ``seat``: everything it may know about the smazzata."""

    rules: Rules
    seat: int
    players: int
    first: int
    current: int
    phase: Phase
    end_reason: str | None
    closed_by: int | None
    hand: tuple[int, ...]
    """Own hand as a count array (53 entries), without an unrevealed pozzetto."""
    hidden_own: int
    """Cards of an own pozzetto taken con scarto and not yet revealed (R48)."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[Card, ...]
    """The discard pile, bottom to top (face up: public)."""
    pozzetti_left: tuple[int, ...]
    """Sizes of the pozzetti not yet taken, in the order they will be taken."""
    line_of: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]
    """Per line id."""
    opened: tuple[tuple[int, ...], ...]
    """Per line id, the opening number of each meld (``Smazzata.opened``)."""
    taken: tuple[bool, ...]
    """Per line id: whether the line has taken its pozzetto."""
    unplayed: tuple[int, ...]
    """Per seat: size of a pozzetto taken con scarto whose owner has not played since (R50)."""
    known: tuple[tuple[tuple[int, int], ...], ...]
    """Per seat: (card, count) known to be in that hand (picked up, not yet played)."""
    acquired: int
    drawn: int
    """The card this seat drew from the stock this turn (-1: none, or not this seat's turn)."""
    lock: int
    lock_in_hand: bool
    melded: bool
    stall: int
    turns: int
    solo_mode: bool
    late: bool
    seq: int
    removed: tuple[Card, ...] = ()
    """Cards out of play in a constructed position (public; empty in real games)."""

    @property
    def line(self) -> int:
        """The view's line (-1 for a spectator)."""
        return self.line_of[self.seat] if self.seat >= 0 else -1

    @property
    def is_my_turn(self) -> bool:
        return self.phase != Phase.OVER and self.current == self.seat

    def hand_cards(self) -> list[Card]:
        return cards_of_counts(self.hand)

    def known_cards(self, seat: int) -> list[Card]:
        out: list[Card] = []
        for card, count in self.known[seat]:
            out.extend([CARDS[card]] * count)
        return out

    def unseen_counts(self) -> list[int]:
        """How many copies of each card are out of this seat's sight (hands, stock, pozzetti)."""
        counts = deck_counts(self.rules.jokers)
        for c in range(NUM_TYPES):
            counts[c] -= self.hand[c]
        for c in self.pile:
            counts[c] -= 1
        for c in self.removed:
            counts[c] -= 1
        for line in self.melds:
            for meld in line:
                for c in meld.naturals:
                    counts[c] -= 1
                if meld.wild is not None:
                    counts[meld.wild] -= 1
        for seat, known in enumerate(self.known):
            if seat != self.seat:
                for c, k in known:
                    counts[c] -= k
        return counts

    def to_json(self) -> dict[str, Any]:
        """The view in the JSON form of the outside-bot protocol (docs/bot-protocol.md, where
        every field is described). Only what this seat may see; cards as text (``7H``, ``JK``)."""
        playing = self.phase == Phase.PLAY
        return {
            "schema": VIEW_SCHEMA,
            "rules": self.rules.name,
            "seat": self.seat,
            "line": self.line,
            "players": self.players,
            "first": self.first,
            "current": self.current,
            "phase": self.phase.name.lower(),
            "acquired": _ACQUIRED[self.acquired] if playing else None,
            "melded": self.melded if playing else False,
            "locked_card": str(CARDS[self.lock]) if self.lock >= 0 and self.is_my_turn else None,
            "drawn": str(CARDS[self.drawn]) if self.drawn >= 0 else None,
            "ended": self.end_reason,
            "closed_by": self.closed_by,
            "hand": [str(c) for c in self.hand_cards()],
            "hidden_pozzetto": self.hidden_own,
            "hand_sizes": list(self.hand_sizes),
            "known": {
                str(s): [str(CARDS[c]) for c, k in kn for _ in range(k)]
                for s, kn in enumerate(self.known)
                if kn and s != self.seat
            },
            "stock": self.stock_size,
            "discard_pile": [str(c) for c in self.pile],
            "pozzetti_left": list(self.pozzetti_left),
            "unplayed_pozzetto": list(self.unplayed),
            "lines": [
                {
                    "line": line,
                    "seats": [s for s, ln in enumerate(self.line_of) if ln == line],
                    "taken_pozzetto": self.taken[line],
                    "melds": [
                        meld_json(i + 1, meld, self.rules)
                        for i, meld in enumerate(self.melds[line])
                    ],
                }
                for line in sorted(set(self.line_of))
            ],
            "turns": self.turns,
            "stall": self.stall,
            "solo_mode": self.solo_mode,
            "late": self.late,
            "removed": [str(c) for c in self.removed],
        }


def meld_json(number: int, meld: Meld, rules: Rules) -> dict[str, Any]:
    """A meld as JSON: in a view's ``lines`` and, on the server, in the ``opened`` and
    ``attached`` events (one shape wherever a meld is sent; docs/bot-protocol.md)."""
    return {
        "number": number,
        "kind": "run" if meld.is_run else "set",
        "cards": [str(c) for c in meld.cards()],
        "notation": meld.notation(),
        "wild": None if meld.wild is None else str(meld.wild),
        "length": len(meld),
        "points": meld.points(rules),
        "burraco": meld.burraco_type(rules),
    }


_ACQUIRED: Final = {-1: None, 0: "draw", 1: "pickup"}


SPECTATOR = -1
"""The seat of a spectator's view: public information only, no hand."""


def seat_view(state: Smazzata, seat: int) -> SeatView:
    """What ``seat`` may see; ``SPECTATOR`` (-1) gives the public view of a spectator."""
    if seat == SPECTATOR:
        hand = [0] * len(state.hands[0])
        hidden = 0
        own_turn = False
    else:
        if not 0 <= seat < state.n:
            raise ValueError(f"there is no seat {seat} at a {state.n}-player table")
        hand = list(state.hands[seat])
        hidden = 0
        unplayed_own = state.unplayed[seat]
        if unplayed_own is not None and not state.rules.reveal_pozzetto_immediately:
            for c in unplayed_own:
                hand[c] -= 1
            hidden = len(unplayed_own)
        own_turn = state.current == seat
    return SeatView(
        rules=state.rules,
        seat=seat,
        players=state.n,
        first=state.first,
        current=state.current,
        phase=state.phase,
        end_reason=state.end_reason,
        closed_by=state.closed_by,
        hand=tuple(hand),
        hidden_own=hidden,
        hand_sizes=tuple(state.sizes),
        stock_size=len(state.stock),
        pile=tuple(state.pile),
        pozzetti_left=tuple(len(p) for p in state.pozzetti),
        line_of=tuple(state.line_of),
        melds=tuple(tuple(m) for m in state.melds),
        opened=tuple(state.opened),
        taken=tuple(state.taken),
        unplayed=tuple(0 if u is None else len(u) for u in state.unplayed),
        known=tuple(tuple(sorted(k.items())) for k in state.known),
        acquired=state.acquired,
        drawn=state.drawn if own_turn else -1,
        lock=state.lock,
        lock_in_hand=state.lock_in_hand if own_turn else False,
        melded=state.melded,
        stall=state.stall,
        turns=state.turns,
        solo_mode=state.solo_mode,
        late=state.late,
        seq=state.seq,
        removed=state.removed,
    )


def sample_state(view: SeatView, rng: random.Random) -> Smazzata:
    """A full state consistent with ``view``: the hidden cards dealt at random among the hidden
    places (other hands beyond their known cards, the stock, the untaken pozzetti and an own
    pozzetto not yet revealed). Everything the view shows is kept exactly."""
    pool: list[Card] = []
    for c, k in enumerate(view.unseen_counts()):
        if k < 0:
            raise ValueError(f"the view is inconsistent: {-k} too many {CARDS[c]} are visible")
        pool.extend([CARDS[c]] * k)
    rng.shuffle(pool)
    n = view.players
    state = object.__new__(Smazzata)
    state.rules = view.rules
    state.n = n
    state.first = view.first
    state.late = view.late
    state.hands = [[0] * NUM_TYPES for _ in range(n)]
    state.present = [0] * n
    state.double = [0] * n
    state.ranks = [0] * n
    state.sizes = [0] * n
    state.known = [dict(k) for k in view.known]
    unplayed: list[tuple[Card, ...] | None] = [None] * n
    taken_from = 0

    def take(k: int) -> list[Card]:
        nonlocal taken_from
        if taken_from + k > len(pool):
            raise ValueError("the view is inconsistent: not enough unseen cards for hidden places")
        out = pool[taken_from : taken_from + k]
        taken_from += k
        return out

    for seat in range(n):
        if seat == view.seat:
            cards = cards_of_counts(view.hand)
            if view.hidden_own:
                hidden = take(view.hidden_own)
                cards += hidden
                unplayed[seat] = tuple(hidden)
        else:
            known = [CARDS[c] for c, k in view.known[seat] for _ in range(k)]
            cards = known + take(view.hand_sizes[seat] - len(known))
            if view.unplayed[seat]:
                # The unplayed pozzetto is among the seat's hidden cards; which ones is unknown,
                # and only its size matters for scoring under either R50 policy's arithmetic.
                unplayed[seat] = tuple(cards[-view.unplayed[seat] :])
        for c in cards:
            state._add(seat, c)
    state.stock = take(view.stock_size)
    state.unplayed = tuple(unplayed)
    state.pozzetti = tuple(tuple(take(size)) for size in view.pozzetti_left)
    if taken_from != len(pool):
        raise ValueError("the view is inconsistent: unseen cards left over after sampling")
    first_number = _first_untaken_number(view)
    state.pozzetto_number = tuple(range(first_number, first_number + len(view.pozzetti_left)))
    state.pile = list(view.pile)
    state.removed = view.removed
    state.line_of = view.line_of
    state.melds = list(view.melds)
    state.opened = list(view.opened)
    state.set_tops = set_tops(view.rules)
    state.set_mask = tuple(
        sum(1 << (rank - 1) for rank in {m.rank for m in line if m.is_set}) for line in view.melds
    )
    state.taken = view.taken
    state.current = view.current
    state.phase = view.phase
    state.acquired = view.acquired
    state.lock = view.lock
    state.lock_in_hand = view.lock_in_hand
    state.melded = view.melded
    state.drawn = view.drawn
    state.stall = view.stall
    state.seq = view.seq
    state.turns = view.turns
    state.solo_mode = view.solo_mode
    state.end_reason = view.end_reason
    state.closed_by = view.closed_by
    state.last_legal = None
    state.deal = Deal(hands=(), pozzetti=(), discard=(), stock=())
    return state


def _first_untaken_number(view: SeatView) -> int:
    total = len(pozzetto_layout(view.rules, late=view.late))
    return total - len(view.pozzetti_left) + 1


def visible_to(event: Event, seat: int | None, rules: Rules) -> Event:
    """``event`` as ``seat`` may see it (None: a spectator, who sees only public facts).

    A pozzetto taken con scarto stays hidden from its owner too until his next turn (R48) unless
    ``rules.reveal_pozzetto_immediately``; his next view shows it.
    """
    if isinstance(event, Drew) and event.seat != seat:
        return Drew(event.seat, None)
    if isinstance(event, PozzettoTaken):
        hidden_from_owner = not event.direct and not rules.reveal_pozzetto_immediately
        if event.seat != seat or hidden_from_owner:
            return event._replace(cards=None)
    return event


def legal_actions_for(view: SeatView) -> list[Action]:
    """The legal actions of the view's seat (empty unless it is its turn).

    Legality depends only on what the seat can see, so any consistent sample gives the same list.
    """
    if not view.is_my_turn:
        return []
    return sample_state(view, random.Random(0)).legal_actions()
