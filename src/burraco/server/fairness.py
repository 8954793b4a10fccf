"""Fair deals anyone can check: committed to before play (SHA-256 of the deck and a secret
salt) and revealed after the smazzata; and made by the server and the players together: the
deck is a function of the server's secret S, drawn from the operating system's CSPRNG and
committed to before the players reveal their seeds, and of the seeds (docs/protocol.md, "Fair
deals"; the pure functions are ``burraco.engine.fairness``).

Verification: ``sha256(f"{deck} {salt}")`` in hex, where ``deck`` is the deck's cards top
first, canonical notation, separated by single spaces (as in a game record), equals the
commitment received before the first action; with seeds the salt is S, ``sha256(S)`` the
commitment sent before the seeds, and the deck ``seeded_deck(S, seeds)``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from burraco.engine import Rules
from burraco.engine.cards import Card, standard_deck
from burraco.engine.fairness import commitment_of, deck_text, hex_commitment, seeded_deck

__all__ = [
    "CommittedDeck",
    "Seeding",
    "commitment_of",
    "deck_text",
    "fresh_deck",
    "fresh_secret",
    "hex_commitment",
    "predictable_source",
    "random_seat",
    "seeded_deal",
]

_SYSTEM: random.Random = secrets.SystemRandom()


def predictable_source(seed: int | None) -> random.Random | None:
    """FOR TESTS ONLY, never in production: with a seed (``burraco serve --test-seed N``), the
    source of one server's deals and first players, ``random.Random(seed)`` instead of the
    CSPRNG, so that browser tests get the same deals on every run. Such deals are predictable
    by anyone who knows the seed; the commitments stay correct, but the deals are no longer
    fair. None without a seed: the CSPRNG. Each server (hub) holds its own, so that servers
    sharing a process (tests) do not draw from each other's."""
    return None if seed is None else random.Random(seed)


@dataclass(frozen=True, slots=True)
class Seeding:
    """How the players' seeds went into a deal: the commitments sent before any seed was
    revealed (the server's to S, each seat's to its seed, ``None`` for a seat without one), the
    seeds used (``None``: missing) and whether they decided the deck (not on a test server)."""

    secret_commitment: str
    seed_commitments: tuple[str | None, ...]
    seeds: tuple[str | None, ...]
    derived: bool

    def to_json(self) -> dict[str, Any]:
        """As the record's ``[meta] fairness`` and the store keep it (TOML has no null: a
        missing value is an empty string)."""
        return {
            "secret_commitment": self.secret_commitment,
            "seed_commitments": [c or "" for c in self.seed_commitments],
            "seeds": [s or "" for s in self.seeds],
            "derived": self.derived,
        }

    def wire(self) -> dict[str, Any]:
        """As ``smazzata_end``'s reveal gives it (null for a missing value)."""
        return {
            "secret_commitment": self.secret_commitment,
            "seed_commitments": list(self.seed_commitments),
            "seeds": list(self.seeds),
            "derived": self.derived,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seeding:
        return cls(
            str(data["secret_commitment"]),
            tuple(c or None for c in data["seed_commitments"]),
            tuple(s or None for s in data["seeds"]),
            bool(data["derived"]),
        )


@dataclass(frozen=True, slots=True)
class CommittedDeck:
    deck: tuple[Card, ...]
    salt: str
    commitment: str
    seeding: Seeding | None = None
    """Set when the players' seeds were asked for (every deal but a lesson's)."""

    @property
    def text(self) -> str:
        return deck_text(self.deck)


def fresh_deck(rules: Rules, test: random.Random | None = None) -> CommittedDeck:
    """A uniformly shuffled deck from the system CSPRNG (R7; from ``test``, a test server's
    ``predictable_source``, when given), with its salt and commitment."""
    deck = standard_deck(rules.jokers)
    (test or _SYSTEM).shuffle(deck)
    salt = secrets.token_hex(16)
    return CommittedDeck(tuple(deck), salt, commitment_of(deck_text(deck), salt))


def fresh_secret() -> str:
    """The server's secret S for one deal: 32 bytes from the CSPRNG, in hex (never from the
    test seed: it is not what makes a test server's deals the same)."""
    return secrets.token_hex(32)


def seeded_deal(
    rules: Rules,
    secret: str,
    seed_commitments: Sequence[str | None],
    seeds: Sequence[str | None],
    *,
    test: random.Random | None,
) -> CommittedDeck:
    """The deck of S and the seeds (``seeded_deck``), committed to with S as its salt. On a
    test server (``burraco serve --test-seed``; ``test`` is its ``predictable_source``) the
    seeds are exchanged and checked as always but the deck comes from the test seed, so that
    browser tests get their fixed deals."""
    if test is not None:
        cards = standard_deck(rules.jokers)
        test.shuffle(cards)
        deck = tuple(cards)
    else:
        deck = seeded_deck(secret, seeds, rules.jokers)
    seeding = Seeding(hex_commitment(secret), tuple(seed_commitments), tuple(seeds), test is None)
    return CommittedDeck(deck, secret, commitment_of(deck_text(deck), secret), seeding)


def random_seat(players: int, test: random.Random | None = None) -> int:
    """R6: the first player of a round is drawn at random (from ``test``, a test server's
    ``predictable_source``, when given)."""
    return (test or _SYSTEM).randrange(players)
