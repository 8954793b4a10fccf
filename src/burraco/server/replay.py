"""Replays of finished matches for the browser's replay viewer (``GET /api/tables/{id}/replay``).

The client never implements the rules: the server replays the stored record through the engine
and sends, for every smazzata, the public (spectator) view after the deal and after each action.
The match is over, so each step also carries every seat's hand, which a replay may show.
"""

from __future__ import annotations

from typing import Any

from burraco.engine import IllegalActionError
from burraco.engine.errors import RecordError
from burraco.engine.match import Match
from burraco.engine.record import read_record
from burraco.engine.state import Smazzata
from burraco.engine.views import SPECTATOR, seat_view

from .wire import score_json


def replay_json(text: str) -> dict[str, Any]:
    """Every public view of the match in record ``text``, step by step (RecordError if the
    record cannot be read or does not replay)."""
    record = read_record(text)
    rules = record.ruleset()
    match = Match(rules, first=record.hands[0].first if record.hands else 0)
    hands: list[dict[str, Any]] = []
    for number, hand in enumerate(record.hands, start=1):
        state = match.deal(deck=hand.deck, deal=hand.deal, first=hand.first)
        steps = [_step(state, None)]
        for index, action in enumerate(hand.actions, start=1):
            try:
                state.apply(action)
            except IllegalActionError as error:
                raise RecordError(f"hand {number}, action {index}: {error.explanation}") from None
            steps.append(_step(state, str(action)))
        score: dict[str, Any] | None = None
        ended = "timeout" if hand.timeout is not None else "unfinished"
        if state.is_over and hand.timeout is None:
            result = state.score()
            score = score_json(number, result)
            ended = result.ended
            match.add(result)
        hands.append(
            {
                "number": number,
                "first": hand.first,
                "ended": ended,
                "steps": steps,
                "score": score,
                "totals": list(match.totals),
            }
        )
        if not state.is_over or match.is_over:
            break
    return {
        "rules": record.rules,
        "players": list(record.players),
        "hands": hands,
        "totals": list(match.totals),
        "winner": match.winner,
    }


def _step(state: Smazzata, action: str | None) -> dict[str, Any]:
    return {
        "action": action,
        "view": seat_view(state, SPECTATOR).to_json(),
        "hands": [[str(c) for c in state.hand(s)] for s in range(state.n)],
    }
