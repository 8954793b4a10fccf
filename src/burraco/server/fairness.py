"""Fair deals anyone can check: a deck shuffled by the operating system's CSPRNG, committed to
before play (SHA-256 of the deck and a secret salt) and revealed after the smazzata.

Verification (docs/protocol.md): ``sha256(f"{deck} {salt}")`` in hex, where ``deck`` is the
deck's cards top first, canonical notation, separated by single spaces (as in a game record),
equals the commitment received before the first action.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from burraco.engine import Rules
from burraco.engine.cards import Card, standard_deck
from burraco.engine.fairness import commitment_of, deck_text

__all__ = ["CommittedDeck", "commitment_of", "deck_text", "fresh_deck", "random_seat"]

_SYSTEM: random.Random = secrets.SystemRandom()


def use_test_seed(seed: int) -> None:
    """FOR TESTS ONLY, never in production: deals and first players come from
    ``random.Random(seed)`` instead of the CSPRNG, so that browser tests get the same deals on
    every run (``burraco serve --test-seed N``). Such deals are predictable by anyone who knows
    the seed; the commitments stay correct, but the deals are no longer fair."""
    global _SYSTEM  # noqa: PLW0603 (a test switch, set once at start-up)
    _SYSTEM = random.Random(seed)


@dataclass(frozen=True, slots=True)
class CommittedDeck:
    deck: tuple[Card, ...]
    salt: str
    commitment: str

    @property
    def text(self) -> str:
        return deck_text(self.deck)


def fresh_deck(rules: Rules) -> CommittedDeck:
    """A uniformly shuffled deck from the system CSPRNG (R7), with its salt and commitment."""
    deck = standard_deck(rules.jokers)
    _SYSTEM.shuffle(deck)
    salt = secrets.token_hex(16)
    return CommittedDeck(tuple(deck), salt, commitment_of(deck_text(deck), salt))


def random_seat(players: int) -> int:
    """R6: the first player of a round is drawn at random."""
    return _SYSTEM.randrange(players)
