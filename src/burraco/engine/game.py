"""A match being played: the match score, the current smazzata and the history of every deal and
action, so that any game can be written as a record and replayed exactly.

Randomness is passed in: each deal shuffles a deck with the given generator and records the
resulting order (DESIGN.md, habit 5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action
from .cards import Card
from .deal import shuffled_deck
from .events import Event
from .match import Match
from .record import HandRecord, Record
from .rules import Rules, find_rules, parameter_names
from .scoring import SmazzataScore
from .state import Smazzata


class Game:
    """Plays a whole match: ``apply`` actions; a new smazzata is dealt when one ends."""

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        *,
        rng: random.Random,
        first: int | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.names = (
            tuple(names)
            if names is not None
            else tuple(f"Player {i + 1}" for i in range(rules.players))
        )
        if len(self.names) != rules.players:
            raise ValueError(f"{len(self.names)} names for {rules.players} players")
        self.rng = rng
        self.match = Match(rules, first=rng.randrange(rules.players) if first is None else first)
        self.meta = dict(meta or {})
        self.hands: list[HandRecord] = []
        self._actions: list[Action] = []
        self._deck: tuple[Card, ...] = ()
        self.state = self._deal()

    def _deal(self) -> Smazzata:
        deck = shuffled_deck(self.rules, self.rng)
        self._deck = tuple(deck)
        self._actions = []
        return self.match.deal(deck=deck)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def apply(self, action: Action) -> list[Event]:
        """Apply an action to the current smazzata; count it and deal the next when it ends."""
        events = self.state.apply(action)
        self._actions.append(action)
        if self.state.is_over:
            score = self.state.score()
            self.hands.append(self._hand_record(score))
            self.match.add(score)
            if not self.match.is_over:
                self.state = self._deal()
        return events

    def _hand_record(self, score: SmazzataScore | None) -> HandRecord:
        return HandRecord(
            first=self.state.first,
            actions=tuple(self._actions),
            deck=self._deck,
            result=score.result if score is not None else None,
        )

    def record(self) -> Record:
        """The game so far as a record (an unfinished smazzata included, without a result)."""
        hands = list(self.hands)
        if not self.state.is_over and self._actions:
            hands.append(self._hand_record(None))
        return Record(
            rules=self.rules.name,
            players=self.names,
            hands=tuple(hands),
            options=options_of(self.rules),
            meta=self.meta,
        )


def options_of(rules: Rules) -> dict[str, Any]:
    """The parameters in which ``rules`` differ from its preset (the record's ``[options]``)."""
    preset = find_rules(rules.name, players=rules.players)
    return {
        name: getattr(rules, name)
        for name in parameter_names()
        if name != "players" and getattr(rules, name) != getattr(preset, name)
    }
