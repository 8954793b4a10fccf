"""Deals anyone can check (docs/protocol.md, "Fair deals"): the commitments and the deck that
the server's secret and the players' seeds decide, as pure functions of text, and the checks
``burraco verify`` runs on a record's ``[meta] fairness``.

Everything hashed is UTF-8 text and every digest is lowercase hex, so that the browser (js/
fairdeal.js) computes the same values with the same few lines:

- the deck's commitment: ``sha256(DECK + " " + SALT)``, DECK the deck top first in canonical
  notation separated by single spaces (as in a game record);
- a secret's or a seed's commitment: ``sha256(HEX)``, HEX its 64 lowercase hex characters;
- the deck from the server's secret S and the seats' seeds: ``seeded_deck`` below.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card, standard_deck

DECK_DOMAIN: Final = "burraco-deck/1"
"""The first word of the text whose SHA-256 keys the shuffle (a new version, a new word)."""
MISSING: Final = "-"
"""A seat's place in that text when its seed did not enter the deck."""
HEX64: Final = re.compile(r"^[0-9a-f]{64}$")


def deck_text(deck: Sequence[Card]) -> str:
    return " ".join(str(c) for c in deck)


def commitment_of(deck_string: str, salt: str) -> str:
    """The deck's commitment, sent before the first card of a smazzata."""
    return hashlib.sha256(f"{deck_string} {salt}".encode()).hexdigest()


def hex_commitment(value: str) -> str:
    """The commitment to a secret or a seed: the SHA-256 of its hex text."""
    return hashlib.sha256(value.encode()).hexdigest()


def shuffle_key(secret: str, seeds: Sequence[str | None]) -> bytes:
    """``sha256("burraco-deck/1 S SEED0 SEED1 ...")``: the seeds in seat order, ``-`` for a seat
    whose seed is missing, single spaces between the words."""
    words = [DECK_DOMAIN, secret, *(seed if seed else MISSING for seed in seeds)]
    return hashlib.sha256(" ".join(words).encode()).digest()


def _words(key: bytes) -> Iterator[int]:
    """SHA-256 in counter mode: block j is ``sha256(key + j as 4 bytes big-endian)``, read as
    eight 32-bit big-endian words."""
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(4, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def seeded_deck(secret: str, seeds: Sequence[str | None], jokers: int) -> tuple[Card, ...]:
    """The deck the secret and the seeds decide: the ruleset's standard deck (``standard_deck``:
    AC AC 2C 2C ... KS KS, then the jokers) shuffled by Fisher-Yates from the last place down,
    place i taking the card at r, uniform in 0..i: a word w of the stream is used when
    ``w < 2**32 - 2**32 % (i + 1)`` (else the next word, so that r is exactly uniform) and
    r = w % (i + 1). The top card is place 0."""
    deck = standard_deck(jokers)
    words = _words(shuffle_key(secret, seeds))
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        w = next(words)
        while w >= limit:
            w = next(words)
        r = w % n
        deck[i], deck[r] = deck[r], deck[i]
    return tuple(deck)


# ----------------------------------------------------------------------- checking a record


class FairnessFormatError(ValueError):
    """The record's ``[meta] fairness`` is not of the documented shape (exit 2)."""


@dataclass(frozen=True, slots=True)
class SmazzataCheck:
    """What ``burraco verify`` found for one smazzata: ``failures`` empty when verified."""

    number: int
    failures: tuple[str, ...]
    seeded: bool = False
    derived: bool = False
    seeds_used: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str):
        raise FairnessFormatError(f"{where}: {key!r} must be a string")
    return value


def _seat_list(entry: Mapping[str, Any], key: str, players: int, where: str) -> list[str]:
    value = entry.get(key)
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(v, str) for v in value)
    ):
        raise FairnessFormatError(f"{where}: {key!r} must be a list of {players} strings")
    return list(value)


def check_smazzata(
    number: int,
    entry: Mapping[str, Any],
    deck: Sequence[Card] | None,
    *,
    players: int,
    jokers: int,
) -> SmazzataCheck:
    """Check one smazzata's fairness entry against the deck its hand was played with."""
    where = f"[meta] fairness, hand {number}"
    commitment = _text(entry, "commitment", where)
    salt = _text(entry, "salt", where)
    failures: list[str] = []
    if deck is None:
        return SmazzataCheck(number, ("the hand gives no deck: it was not dealt from one",))
    if commitment_of(deck_text(deck), salt) != commitment:
        failures.append("the deck and the salt do not give the commitment")
    if "secret_commitment" not in entry:
        return SmazzataCheck(number, tuple(failures))
    # A deal with the players' seeds: the salt is the server's secret S.
    secret_commitment = _text(entry, "secret_commitment", where)
    seed_commitments = _seat_list(entry, "seed_commitments", players, where)
    seeds = _seat_list(entry, "seeds", players, where)
    derived = entry.get("derived", True)
    if not isinstance(derived, bool):
        raise FairnessFormatError(f"{where}: 'derived' must be true or false")
    if hex_commitment(salt) != secret_commitment:
        failures.append("the server's secret does not give its commitment")
    used: list[int] = []
    missing: list[int] = []
    for seat, (seed, sealed) in enumerate(zip(seeds, seed_commitments, strict=True)):
        if not seed:
            missing.append(seat)
        elif not sealed:
            failures.append(f"seat {seat}'s seed was used without a commitment")
        elif hex_commitment(seed) != sealed:
            failures.append(f"seat {seat}'s seed does not give its commitment")
        else:
            used.append(seat)
    notes: list[str] = []
    if derived:
        if not HEX64.match(salt):
            failures.append("the server's secret is not 64 hex digits")
        elif tuple(deck) != seeded_deck(salt, seeds, jokers):
            failures.append("the deck is not the one the secret and the seeds give")
    else:
        notes.append("the seeds did not decide this deck (a test server's or a fixed deal)")
    return SmazzataCheck(
        number,
        tuple(failures),
        seeded=True,
        derived=derived,
        seeds_used=tuple(used),
        missing=tuple(missing),
        notes=tuple(notes),
    )


def check_fairness(
    fairness: Any, decks: Sequence[Sequence[Card] | None], *, players: int, jokers: int
) -> list[SmazzataCheck]:
    """Check every smazzata of a record (``decks`` its hands' decks, in order) against the
    entries of its ``[meta] fairness``. Raises FairnessFormatError for a malformed one."""
    if not isinstance(fairness, list) or not all(isinstance(e, dict) for e in fairness):
        raise FairnessFormatError("[meta] fairness must be an array of tables")
    by_hand: dict[int, Mapping[str, Any]] = {}
    for entry in fairness:
        hand = entry.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
            raise FairnessFormatError("[meta] fairness: every entry needs 'hand', a number from 1")
        if hand in by_hand:
            raise FairnessFormatError(f"[meta] fairness: hand {hand} is given twice")
        by_hand[hand] = entry
    checks: list[SmazzataCheck] = []
    for number, deck in enumerate(decks, start=1):
        entry = by_hand.pop(number, None)
        if entry is None:
            checks.append(SmazzataCheck(number, ("no fairness entry: nothing was committed",)))
            continue
        checks.append(check_smazzata(number, entry, deck, players=players, jokers=jokers))
    # An entry beyond the record's hands is a deal committed to but never played (the match
    # ended before its first action): there is no deck to check it against.
    return checks


__all__ = [
    "FairnessFormatError",
    "SmazzataCheck",
    "check_fairness",
    "check_smazzata",
    "commitment_of",
    "deck_text",
    "hex_commitment",
    "seeded_deck",
    "shuffle_key",
]
