"""Cards: small immutable values with a text form that round-trips.

A card *type* is one of 53 values: the 52 rank-suit cards and the joker. The deck holds two
physical copies of every rank-suit card (and up to four jokers), and the two copies are
interchangeable for every rule (RULES.md R17 is handled by counting, see ``state.py``), so hands and
piles are multisets of card types, stored as count arrays indexed by the card itself.

``Card`` is an ``int`` subclass with exactly 53 interned instances, so a card indexes a count array
directly and compares and hashes as fast as an int, while ``str(card)`` gives its notation
(``"7H"``, ``"10S"``, ``"JK"``) and ``Card.parse`` reads it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .errors import NotationError

SUITS: Final = "CDHS"
"""Suit letters in their tie-break order (RULES.md T13: C < D < H < S)."""
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
ACE, TWO, JACK, QUEEN, KING = 1, 2, 11, 12, 13
NUM_TYPES: Final = 53
JOKER_ID: Final = 52


def is_wild_kind(card: int) -> bool:
    """Whether a card type (a ``Card`` or its plain int) is a wild kind: a joker or a two (the
    *matte*, R3). A two can still be natural in a run (R34). The one definition of which card
    codes are wild, for every caller outside the engine (the bots)."""
    return card == JOKER_ID or card % 13 == 1


class Card(int):
    """One of the 53 card types. Use the module constants or ``Card.parse``; never construct."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == JOKER_ID

    @property
    def suit(self) -> int:
        """0..3 for C, D, H, S; -1 for the joker."""
        return -1 if self == JOKER_ID else self // 13

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); 0 for the joker."""
        return 0 if self == JOKER_ID else self % 13 + 1

    @property
    def is_two(self) -> bool:
        return self != JOKER_ID and self % 13 == 1

    @property
    def is_wild_kind(self) -> bool:
        """True for jokers and twos (the *matte*, R3); a two can still be natural in a run (R34)."""
        return is_wild_kind(self)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``7H``, ``10s``, ``T♥``, ``JK``. Raises NotationError on anything else."""
        card = _PARSE.get(text.strip().upper())
        if card is None:
            raise NotationError(f'"{text}" is not a card (expected e.g. 7H, 10S, QC, AD or JK)')
        return card

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_NAMES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)


def _name(card_id: int) -> str:
    if card_id == JOKER_ID:
        return "JK"
    return RANK_NAMES[card_id % 13 + 1] + SUITS[card_id // 13]


_NAMES: Final = tuple(_name(i) for i in range(NUM_TYPES))
CARDS: Final = tuple(int.__new__(Card, i) for i in range(NUM_TYPES))
"""The 53 interned card values, indexed by their integer value."""
JOKER: Final = CARDS[JOKER_ID]


def _parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {"JK": JOKER, "JOKER": JOKER}
    for card in CARDS[:JOKER_ID]:
        rank = RANK_NAMES[card.rank]
        suit_letter = SUITS[card.suit]
        spellings = [rank] + (["T"] if rank == "10" else [])
        for spelled in spellings:
            table[spelled + suit_letter] = card
            table[spelled + SUIT_SYMBOLS[card.suit]] = card
    return table


_PARSE: Final = _parse_table()


def card_of(suit: int, rank: int) -> Card:
    """The card of a suit (0..3) and rank (1..13)."""
    return CARDS[suit * 13 + rank - 1]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace-separated card list (or an iterable of card strings)."""
    words = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(word) for word in words]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(_NAMES[c] for c in cards)


def standard_deck(jokers: int) -> list[Card]:
    """Two copies of each of the 52 cards plus ``jokers`` jokers, in a fixed order."""
    return [*_TWO_DECKS, *(JOKER,) * jokers]


_TWO_DECKS: Final = tuple(CARDS[i] for i in range(JOKER_ID) for _ in range(2))


def deck_counts(jokers: int) -> list[int]:
    """Count array of a full deck: 2 of every rank-suit card and ``jokers`` jokers."""
    counts = [2] * NUM_TYPES
    counts[JOKER_ID] = jokers
    return counts


def counts_of(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_TYPES
    for card in cards:
        counts[card] += 1
    return counts


def cards_of_counts(counts: Sequence[int]) -> list[Card]:
    """Expand a count array into a sorted card list (suit order, then rank, jokers last)."""
    out: list[Card] = []
    for card_id, n in enumerate(counts):
        if n:
            out.extend([CARDS[card_id]] * n)
    return out


def sort_key_by_rank(card: int) -> tuple[int, int]:
    """Sort by rank then suit (jokers last): for showing a hand by rank."""
    if card == JOKER_ID:
        return (14, 0)
    return (card % 13, card // 13)
