"""The guided first game (issue 15, "Learning the game"): one smazzata of the Italian rules
against the easy bot, on a deal chosen for teaching, so that the browser's hints (coach.js)
meet a run, a set and a joker in the learner's first hand.

A lesson's deal is the same every time: it is committed and revealed like any other (the
browser still verifies it), but it is not a fair deal and a lesson is never rated or listed.
"""

from __future__ import annotations

import secrets
from typing import Final

from burraco.engine.cards import parse_cards

from .fairness import CommittedDeck, commitment_of, deck_text

LESSON_RULES: Final = "italian"
LESSON_BOT: Final = "greedy"
LESSON_SEAT: Final = 0
"""The learner's seat; he plays first."""

LESSON_DECK: Final = (
    "10H 9C JK 10D AH 7H 6C 3S AD KD QC 2C 7C 10C 3C 6D AS 8D 5C JH KH QS QH 2S 2H JD JK 3D KC "
    "9D 10S 6C 3H 2H 7H 7D 5S KC 5S 7C JC JH 8C QC JD JS 4D 9H 7S 6D 2D 8C 8D 7D 3D 6S 9C 3S "
    "2C 4S 9D 6H QD 5D QD KS JK 9S 8S 3H 10C AH KS 9H 4H 10D JK 4S KD 5D 8H 4D AC AC 5H KH 5C "
    "AS 9S 4C 7S 4H 4C JS 6H QS 8S 6S 10S 3C 5H QH 2S 2D JC 10H AD 8H"
)
"""Top card first (R7-R11 with seat 0 first): the learner holds 5C 6C 7C (a run), AD AH AS (a
set) and a joker; the first discard is QH."""


def lesson_deck() -> CommittedDeck:
    deck = tuple(parse_cards(LESSON_DECK))
    salt = secrets.token_hex(16)
    return CommittedDeck(deck, salt, commitment_of(deck_text(deck), salt))
