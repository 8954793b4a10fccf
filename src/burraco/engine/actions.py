"""Actions and their text notation (the notation of the game record, spec/record-format.md).

An action is a small immutable value: the acting seat, a verb, the cards it names (as a sorted
multiset, so that two spellings of the same action compare equal) and, for ATTACH, the 1-based
number of the line's meld. ``Action.parse(str(a)) == a`` for every action.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from .cards import JOKER_ID, Card
from .errors import NotationError


class Verb(IntEnum):
    DRAW = 0
    PICKUP = 1
    OPEN = 2
    ATTACH = 3
    DISCARD = 4

    @property
    def word(self) -> str:
        return VERB_WORDS[self]


VERB_WORDS: Final = ("draw", "pickup", "open", "attach", "discard")
_VERBS: Final = {word: Verb(i) for i, word in enumerate(VERB_WORDS)}

DRAW, PICKUP, OPEN, ATTACH, DISCARD = (
    Verb.DRAW,
    Verb.PICKUP,
    Verb.OPEN,
    Verb.ATTACH,
    Verb.DISCARD,
)


def _display_key(card: int) -> tuple[int, int, int]:
    # Naturals by suit and rank, wild kinds (twos and jokers) last: "5H 6H 7H JK".
    wild_kind = card == JOKER_ID or card % 13 == 1
    return (wild_kind, card // 13, card % 13)


class Action(NamedTuple):
    """One player action. ``cards`` is sorted by card value; ``meld`` is 1-based (ATTACH only)."""

    seat: int
    verb: Verb
    cards: tuple[Card, ...] = ()
    meld: int = 0

    @staticmethod
    def make(
        seat: int, verb: Verb, cards: tuple[Card, ...] | list[Card] = (), meld: int = 0
    ) -> Action:
        """Build an action, putting its cards in canonical (sorted) order."""
        return Action(seat, verb, tuple(sorted(cards)), meld)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"0 open 5H 6H 7H"``, ``"1 attach 2 7H"``, ``"0 draw"``... (NotationError)."""
        words = text.split()
        if len(words) < 2:
            raise NotationError(f'"{text}" is not an action (expected "SEAT VERB [ARGS]")')
        seat_text, verb_text, *args = words
        if not (seat_text.isascii() and seat_text.isdecimal()):
            raise NotationError(f'"{text}": the seat must be a number, not "{seat_text}"')
        seat = int(seat_text)
        verb = _VERBS.get(verb_text.lower())
        if verb is None:
            raise NotationError(
                f'"{text}": unknown verb "{verb_text}" (expected draw, pickup, open, attach'
                " or discard)"
            )
        meld = 0
        if verb in (DRAW, PICKUP):
            if args:
                raise NotationError(f'"{text}": {verb.word} takes no arguments')
        elif verb == ATTACH:
            if not args or not (args[0].isascii() and args[0].isdecimal()) or int(args[0]) < 1:
                raise NotationError(f'"{text}": attach needs a meld number (1, 2, ...) first')
            meld = int(args[0])
            args = args[1:]
            if not args:
                raise NotationError(f'"{text}": attach needs at least one card')
        elif verb == DISCARD:
            if len(args) != 1:
                raise NotationError(f'"{text}": discard takes exactly one card')
        elif not args:
            raise NotationError(f'"{text}": open needs its cards')
        try:
            cards = tuple(sorted(Card.parse(word) for word in args))
        except NotationError as error:
            raise NotationError(f'"{text}": {error}') from None
        return Action(seat, verb, cards, meld)

    @property
    def card(self) -> Card:
        """The single card of a DISCARD."""
        return self.cards[0]

    def text(self, *, seat: bool = True) -> str:
        words = [str(self.seat)] if seat else []
        words.append(VERB_WORDS[self.verb])
        if self.verb == ATTACH:
            words.append(str(self.meld))
        words.extend(str(c) for c in sorted(self.cards, key=_display_key))
        return " ".join(words)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action.parse({self.text()!r})"
