"""Engine values as JSON for the wire: events (redacted per seat), melds, score sheets, clocks."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from burraco.engine.events import (
    Attached,
    Discarded,
    Drew,
    Event,
    LineFormed,
    Opened,
    PickedUp,
    PozzettoTaken,
    SmazzataEnded,
    TurnStarted,
)
from burraco.engine.melds import Meld
from burraco.engine.rules import Rules
from burraco.engine.scoring import SmazzataScore
from burraco.engine.state import Smazzata
from burraco.engine.views import SeatView, meld_json, visible_to

__all__ = ["ViewJson", "event_json", "events_for", "meld_json", "score_json"]


def event_json(event: Event, rules: Rules) -> dict[str, Any]:
    """One engine event (already redacted for its audience). Its meld has the one shape of a
    meld on the wire, the view's (``meld_json``: number, kind, cards, notation, wild, length,
    points, burraco)."""
    if isinstance(event, Drew):
        return {"e": "drew", "seat": event.seat, "card": _card(event.card)}
    if isinstance(event, PickedUp):
        return {"e": "picked_up", "seat": event.seat, "cards": [str(c) for c in event.cards]}
    if isinstance(event, Opened):
        return {
            "e": "opened",
            "seat": event.seat,
            "line": event.line,
            "meld": meld_json(event.number, event.meld, rules),
        }
    if isinstance(event, Attached):
        return {
            "e": "attached",
            "seat": event.seat,
            "line": event.line,
            "cards": [str(c) for c in event.cards],
            "meld": meld_json(event.number, event.meld, rules),
        }
    if isinstance(event, Discarded):
        return {"e": "discarded", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, PozzettoTaken):
        return {
            "e": "pozzetto",
            "seat": event.seat,
            "line": event.line,
            "number": event.number,
            "direct": event.direct,
            "cards": None if event.cards is None else [str(c) for c in event.cards],
        }
    if isinstance(event, LineFormed):
        return {"e": "line_formed", "line": event.line, "seats": list(event.seats)}
    if isinstance(event, TurnStarted):
        return {"e": "turn", "seat": event.seat}
    if isinstance(event, SmazzataEnded):
        return {"e": "ended", "reason": event.reason, "closed_by": event.closed_by}
    raise TypeError(f"unknown event {event!r}")


def events_for(events: Sequence[Event], seat: int | None, rules: Rules) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them (None: a spectator)."""
    return [event_json(visible_to(e, seat, rules), rules) for e in events]


def score_json(number: int, score: SmazzataScore, state: Smazzata | None = None) -> dict[str, Any]:
    """A smazzata's score sheet; with the finished ``state``, each line also says whether it
    took its pozzetto (``pozzetto``: the profiles' pozzetto rate)."""
    lines = []
    for line in score.lines:
        out: dict[str, Any] = {**line.as_json(), "burrachi": list(line.burrachi)}
        if state is not None and line.seats:
            out["pozzetto"] = bool(state.taken[state.line_of[line.seats[0]]])
        lines.append(out)
    return {
        "number": number,
        "ended": score.ended,
        "closed_by": score.closed_by,
        "lines": lines,
        "result": list(score.result),
    }


class ViewJson:
    """``SeatView.to_json`` for one table's views, with the melds built once per change.

    The ``lines`` of a view (every meld on the table, with its notation and points) are public
    and the same in every seat's view; they are most of the cost of a view's JSON and change
    only when a meld is laid or extended. This keeps the last ``lines`` with what they were
    built from (melds, taken pozzetti, lines; equal melds give equal JSON) and gives every other
    view the same list: the result equals ``view.to_json()``."""

    __slots__ = ("_empty", "_key", "_lines")

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._lines: list[dict[str, Any]] = []
        self._empty: tuple[tuple[Meld, ...], ...] = ()

    def __call__(self, view: SeatView) -> dict[str, Any]:
        key = (view.rules, view.line_of, view.taken, view.melds)
        if key != self._key:
            out = view.to_json()
            self._key, self._lines = key, out["lines"]
            self._empty = tuple(() for _ in view.melds)
            return out
        out = dataclasses.replace(view, melds=self._empty).to_json()
        out["lines"] = self._lines
        return out


def _card(card: object | None) -> str | None:
    return None if card is None else str(card)
