"""The table's numbered events: publishing them to every watcher as its seat may see them,
keeping the last ones to resend to a client that reconnects, and the snapshot for the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias

from burraco.engine.views import SPECTATOR, SeatView

from .. import messages
from ..connection import Connection
from ..protocol import encode
from .core import TableCore

EVENT_MEMORY: Final = 256
"""Events kept (compact, encoded) to resend to reconnecting clients; older gaps get a
snapshot. Views are not kept: a resend ends with ``synced`` carrying the current view."""
CHAT_MEMORY: Final = 50
"""Chat lines kept for the snapshot."""

Stored: TypeAlias = tuple[int, str, tuple[str, ...]]
"""A numbered event, encoded: ``(seq, public, private)``, its number, its public form and the
forms private to each seat, by seat (empty when every seat sees the public form); without the
views, which only the live message carries. A plain tuple of numbers and strings, which the
garbage collector stops tracking: a busy server keeps hundreds of thousands of them, and a full
collection that scans them all stalls every table."""


class HistoryMixin(TableCore):
    def _view(self, seat: int | None) -> SeatView | None:
        if self.state is None:
            return None
        return self.state.view(SPECTATOR if seat is None else seat)

    def _legal(self, seat: int | None) -> list[str] | None:
        state = self.state
        if seat is None or state is None or state.is_over or state.current != seat:
            return None
        return [str(a) for a in state.legal_actions()]

    def _clock_json(self, now: float) -> messages.ClockJson | None:
        clock = self.clock
        if clock is None or self.state is None:
            return None
        turn_left = clock.turn_remaining(now)
        return messages.clock(
            [round(clock.remaining(s, now), 3) for s in range(self.rules.players)],
            clock.running,
            None if turn_left is None else round(turn_left, 3),
            now,
        )

    def _match_json(self) -> messages.MatchJson | None:
        if self.match is None:
            return None
        return messages.match(
            self.match_no,
            number=self.number,
            totals=list(self.match.totals),
            scores=self.scores,
            target=self.match.target,
            smazzate=self.rules.smazzate,
            ended=self.ended,
            winner=self.match.winner,
        )

    def snapshot(self, conn: Connection) -> messages.Snapshot:
        seat = self.watchers.get(conn)
        now = self.hub.clock.now()
        return messages.snapshot(
            self.id,
            self.seq,
            you=seat,
            info=self._info(),
            match=self._match_json(),
            extras=self._extras(seat, now),
            commitment=self.decks[-1].commitment if self.decks and self.state else None,
            chat=list(self.chat),
            server_time=now,
        )

    def _publish(
        self,
        body: messages.EventBody,
        private: Callable[[int], messages.ActionEvents] | None = None,
        *,
        views: bool = False,
    ) -> None:
        """Number an event, keep it for resends, and send it to every watcher as it may see it."""
        self.seq += 1
        self._publish_numbered(self.seq, body, private, views=views)

    def _publish_numbered(
        self,
        seq: int,
        body: messages.EventBody,
        private: Callable[[int], messages.ActionEvents] | None = None,
        *,
        views: bool = False,
    ) -> None:
        """``private(seat)`` adds what only ``seat`` (or SPECTATOR) sees to the event;
        ``views``: the live message also carries each watcher's view, legal actions and clock."""
        base = messages.event(self.id, seq, body)
        cores: dict[int, dict[str, Any]] = {}
        if private is not None:
            cores = {s: {**base, **private(s)} for s in (SPECTATOR, *range(self.rules.players))}
        public = cores.pop(SPECTATOR, base)
        private_texts = tuple(encode(cores[s]) for s in range(self.rules.players)) if cores else ()
        self.memory.append((seq, encode(public), private_texts))
        now = self.hub.clock.now()
        sent: dict[tuple[int | None, int | None], str] = {}
        for conn, watched in list(self.watchers.items()):
            key = watched if watched is not None and watched in cores else None
            # With views every seat gets its own view and legal actions: a message encoded for
            # one seat must never be reused for another (nor for a spectator).
            slot = (key, watched if views else None)
            text = sent.get(slot)
            if text is None:
                message = cores[key] if key is not None else public
                if views:
                    message = {**message, **self._extras(watched, now)}
                text = sent[slot] = encode(message)
            conn.send(text)

    def _extras(self, seat: int | None, now: float) -> messages.Live:
        """What a live event adds for a watcher: its view, its legal actions, the clocks."""
        view = self._view(seat)
        return messages.live(
            None if view is None else self._view_json(view),
            self._legal(seat),
            self._clock_json(now),
        )

    def _can_resend(self, last_seq: int) -> bool:
        if last_seq == self.seq:
            return True
        if not self.memory:
            return False
        return self.memory[0][0] <= last_seq + 1

    def _catch_up(self, conn: Connection, seat: int | None, last_seq: int | None) -> None:
        """Bring a joining connection up to date: the events after ``last_seq`` and ``synced``
        when they are still kept, else a snapshot."""
        if last_seq is not None and self._can_resend(last_seq):
            for seq, public, private in self.memory:
                if seq > last_seq:
                    conn.send(private[seat] if seat is not None and private else public)
            extras = self._extras(seat, self.hub.clock.now())
            conn.send(encode(messages.synced(self.id, self.seq, extras)))
        else:
            conn.send(encode(self.snapshot(conn)))
