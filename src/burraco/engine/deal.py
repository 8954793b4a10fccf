"""The deal: from a deck order (or an explicit layout) to hands, discard, pozzetti and stock.

RULES.md R7-R12: card ``d[i]`` of the deck (top first) goes to seat ``first + i`` (mod n) for the
first ``hand_size * n`` cards, the next card is the initial discard (if the ruleset has one),
the pozzetti are formed from the bottom one card at a time, round robin among the pozzetti still
short of their size (R10; 3.5 for 18 + 11), and the rest is the stock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARDS, Card, counts_of, deck_counts, format_cards, standard_deck
from .errors import RecordError
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt smazzata: what each seat, pozzetto, the discard pile and the stock hold."""

    hands: tuple[tuple[Card, ...], ...]
    """Per seat, in seat order."""
    pozzetti: tuple[tuple[Card, ...], ...]
    """In the order they are taken (R12)."""
    discard: tuple[Card, ...]
    """Bottom to top."""
    stock: tuple[Card, ...]
    """Top first."""
    deck: tuple[Card, ...] | None = None
    """The deck order this deal came from, if it came from one (top first)."""

    def all_cards(self) -> list[Card]:
        out: list[Card] = []
        for hand in self.hands:
            out.extend(hand)
        for pozzetto in self.pozzetti:
            out.extend(pozzetto)
        out.extend(self.discard)
        out.extend(self.stock)
        return out

    def __str__(self) -> str:
        lines = [f"hand {seat}: {format_cards(sorted(h))}" for seat, h in enumerate(self.hands)]
        lines += [
            f"pozzetto {i + 1}: {format_cards(sorted(p))}" for i, p in enumerate(self.pozzetti)
        ]
        lines.append(f"discard: {format_cards(self.discard)}")
        lines.append(f"stock: {format_cards(self.stock)}")
        return "\n".join(lines)


def pozzetto_layout(rules: Rules, *, late: bool = False) -> tuple[int, ...]:
    """Pozzetto sizes for this table; ``late``: a 3-player match after the switch (3.5)."""
    if rules.players == 3:
        return rules.three_player_late_pozzetto_sizes if late else rules.three_player_pozzetto_sizes
    return rules.pozzetto_sizes


def shuffled_deck(rules: Rules, rng: random.Random) -> list[Card]:
    """A uniformly shuffled deck of the ruleset (R7), drawn from the given generator."""
    deck = standard_deck(rules.jokers)
    rng.shuffle(deck)
    return deck


def check_deck(deck: Sequence[Card], rules: Rules) -> None:
    """Raise RecordError unless ``deck`` is exactly the ruleset's cards."""
    if len(deck) != rules.deck_size:
        raise RecordError(
            f"the deck has {len(deck)} cards, the ruleset's deck has {rules.deck_size}"
        )
    check_cards(list(deck), rules)


def check_cards(cards: list[Card], rules: Rules) -> None:
    """Raise RecordError unless ``cards`` are exactly the ruleset's deck (as a multiset)."""
    have = counts_of(cards)
    want = deck_counts(rules.jokers)
    for card_id, (n_have, n_want) in enumerate(zip(have, want, strict=True)):
        if n_have != n_want:
            raise RecordError(
                f"the deal has {n_have} × {CARDS[card_id]}, the ruleset's deck has {n_want}"
            )


def deal_from_deck(
    deck: Sequence[Card], rules: Rules, first: int, *, late: bool = False, checked: bool = False
) -> Deal:
    """Deal ``deck`` (top first) as R7-R12 say, starting with seat ``first``.

    ``checked``: the deck is known to be the ruleset's (a shuffle of ``standard_deck``).
    """
    if not checked:
        check_deck(deck, rules)
    n = rules.players
    dealt = rules.hand_size * n
    # Card i goes to seat first + i (mod n): seat s gets every n-th card from its offset.
    hands = [list(deck[(s - first) % n : dealt : n]) for s in range(n)]
    top = dealt
    discard: tuple[Card, ...] = ()
    if rules.initial_discard:
        discard = (deck[top],)
        top += 1
    sizes = pozzetto_layout(rules, late=late)
    bottom = len(deck) - 1
    # Round by round from the bottom of the deck, one card to each pozzetto not yet full.
    pozzetti: list[tuple[Card, ...]]
    if len(set(sizes)) == 1:  # every round serves every pozzetto: pozzetto j takes every k-th
        k, size = len(sizes), sizes[0]
        from_bottom = deck[::-1]
        pozzetti = [tuple(from_bottom[j : k * size : k]) for j in range(k)]
        bottom -= k * size
    else:
        lists: list[list[Card]] = [[] for _ in sizes]
        for round_ in range(max(sizes, default=0)):
            for pozzetto, size in zip(lists, sizes, strict=True):
                if round_ < size:
                    pozzetto.append(deck[bottom])
                    bottom -= 1
        pozzetti = [tuple(p) for p in lists]
    stock = tuple(deck[top : bottom + 1])
    return Deal(
        hands=tuple(tuple(h) for h in hands),
        pozzetti=tuple(pozzetti),
        discard=discard,
        stock=stock,
        deck=tuple(deck),
    )


def check_explicit_deal(deal: Deal, rules: Rules, *, late: bool = False) -> None:
    """Raise RecordError unless an explicit deal has the ruleset's layout and exact cards."""
    if len(deal.hands) != rules.players:
        raise RecordError(f"hands_dealt has {len(deal.hands)} hands for {rules.players} players")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != rules.hand_size:
            raise RecordError(
                f"hands_dealt: seat {seat} has {len(hand)} cards, a hand has {rules.hand_size}"
            )
    sizes = pozzetto_layout(rules, late=late)
    if tuple(len(p) for p in deal.pozzetti) != sizes:
        raise RecordError(
            f"pozzetti have {[len(p) for p in deal.pozzetti]} cards, the ruleset deals"
            f" {list(sizes)}"
        )
    want_discard = 1 if rules.initial_discard else 0
    if len(deal.discard) != want_discard:
        raise RecordError(
            f"discard has {len(deal.discard)} cards, this ruleset starts with {want_discard}"
        )
    check_cards(deal.all_cards(), rules)
    if len(deal.stock) <= rules.stock_end_threshold:
        raise RecordError("the stock is too small to play")
