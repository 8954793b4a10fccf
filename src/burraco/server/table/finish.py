"""The end of a match: its result (with T14's technical score after a timeout or a forfeit),
its record written to the store, and the news for the watchers and the hub's listeners."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from burraco.bots import display_name
from burraco.engine.game import options_of
from burraco.engine.record import HandRecord, Record, write_record
from burraco.engine.vp import technical_score, vp_table
from burraco.store.fencing import LeaseLost

from .. import messages
from .commands import TimerPurpose
from .core import TableCore
from .status import TableStatus

if TYPE_CHECKING:
    from .actor import TableActor

log = logging.getLogger("burraco.table")

CONCLUDE_FIRST_DELAY = 1.0
CONCLUDE_MAX_DELAY = 60.0
"""Seconds before storing a finished match is tried again, doubling from the first to the
longest wait while the store keeps failing."""


@dataclass(slots=True)
class Conclusion:
    """A finished match not yet stored and announced (``FinishMixin._conclude``)."""

    ended: str
    names: list[str]
    result: messages.MatchResult
    record: str | None
    """The record's text, or None when it could not be written at all."""
    attempts: int = 0


class FinishMixin(TableCore):
    async def _finish(
        self, ended: str, *, timed_out_line: int | None = None, timed_out_seat: int | None = None
    ) -> None:
        match = self.match
        assert match is not None
        self.ended = ended
        self.status = TableStatus.FINISHED
        self.pending = None  # a deal waiting for seeds is not dealt
        self._cancel_timers()
        if self.clock is not None and self.state is not None:
            self.clock.stop(self.hub.clock.now())
        # With 3 or 4 seats two bots of one level are told apart by their seat ("Bot Expert 3").
        numbered = len(self.seats) >= 3
        names = [
            s.name or (display_name(s.bot, i + 1 if numbered else None) if s.bot else f"seat {i}")
            for i, s in enumerate(self.seats)
        ]
        result = self._result(ended, timed_out_line)
        text = self._record_text(names, timed_out_seat=timed_out_seat)
        self.conclusion = Conclusion(ended, names, result, text)
        await self._conclude()

    async def _conclude(self) -> None:
        """Store the finished match and tell everybody (issue 19, H1: any failure here must not
        leave the table stuck). The store's writes come first: while they fail (a database
        that is down), the table stays finished in memory, nothing is announced, and they are
        tried again after 1 s, 2 s, ... up to a minute; each failure is logged with its
        traceback. The table's actions are already in the store, so a restart in the meantime
        finishes the match again from them. Once stored, a failure to rate the match or to
        write the profiles' rows is logged and the match ends anyway: ``match_end`` says the
        match could not be rated (``unrated: server_error``)."""
        done = self.conclusion
        assert done is not None and self.match is not None
        result = done.result
        try:
            if done.record is not None:
                await self.hub.store.log_match(
                    self.id,
                    self.match_no,
                    players=done.names,
                    totals=list(self.match.totals),
                    winner=result["winner"],
                    ended=done.ended,
                    record=done.record,
                    mp=result.get("mp"),
                    vp=result.get("vp"),
                )
            await self.hub.store.set_status(self.id, TableStatus.FINISHED)
        except LeaseLost:
            raise  # another process owns the table now: it finishes the match from the log
        except Exception:
            delay = min(CONCLUDE_MAX_DELAY, CONCLUDE_FIRST_DELAY * 2**done.attempts)
            done.attempts += 1
            log.exception(
                "table %s: match %d could not be stored (attempt %d); trying again in %.0f s",
                self.id,
                self.match_no,
                done.attempts,
                delay,
            )
            self._set_timer("conclude", delay, TimerPurpose.CONCLUDE)
            return
        self.conclusion = None
        rating: messages.RatingNews | None
        try:
            rating = await self._rate(result)
        except LeaseLost:
            raise
        except Exception:
            log.exception("table %s: match %d could not be rated", self.id, self.match_no)
            rating = messages.rating_news(None, unrated="server_error")
        try:
            await self._record_profiles(result, done.names)
        except LeaseLost:
            raise
        except Exception:
            log.exception(
                "table %s: the profiles' rows of match %d could not be written",
                self.id,
                self.match_no,
            )
        self._publish(messages.match_end(result, rating))
        self.hub.bots.forget_table(self.id)
        self.hub.table_finished(cast("TableActor", self), cast(dict[str, Any], result))
        self._arm_eviction()

    def _result(self, ended: str, timed_out_line: int | None) -> messages.MatchResult:
        """The ``match_end`` payload: totals and winner, and the MP and VP when they apply."""
        match = self.match
        assert match is not None
        totals = list(match.totals)
        if match.sides == 2 and ended in ("timeout", "forfeit") and timed_out_line is not None:
            technical = technical_score(match.totals, timed_out_line, vp_table("VP-3"))
            return messages.match_result(
                totals,
                1 - timed_out_line,
                ended,
                mp=list(technical.mp),
                vp=list(technical.vp),
                technical=True,
            )
        if ended == "forfeit":  # nobody came to the table: neither line wins
            return messages.match_result(totals, None, ended)
        # A same-cards table's MP and VP come from the comparison with the other tables.
        if match.sides == 2 and self.rules.smazzate in (2, 3, 4) and self.config.same_cards is None:
            rs = match.round_score()
            return messages.match_result(
                totals, match.winner, ended, mp=list(rs.mp), vp=list(rs.vp)
            )
        return messages.match_result(totals, match.winner, ended)

    def _record_text(self, names: list[str], *, timed_out_seat: int | None) -> str | None:
        """The finished match's record as text; a failure to write it never leaves the table
        playing for ever (issue 19, H1). The failure is logged with its traceback; the record
        is then written without its ``[meta]`` (the server's own notes: clock, fairness), and
        if even that fails the match ends without a stored record (``/record`` answers 404)."""
        try:
            return write_record(self.record(names, timed_out_seat=timed_out_seat))
        except Exception:
            log.exception(
                "table %s: the record of match %d could not be written; storing it without [meta]",
                self.id,
                self.match_no,
            )
        try:
            return write_record(self.record(names, timed_out_seat=timed_out_seat, meta=False))
        except Exception:
            log.exception(
                "table %s: the record of match %d could not be written at all; the match ends "
                "without a stored record",
                self.id,
                self.match_no,
            )
        return None

    def record(self, names: list[str], *, timed_out_seat: int | None, meta: bool = True) -> Record:
        hands = list(self.hands)
        state = self.state
        if (
            state is not None
            and not state.is_over
            and (self.hand_actions or timed_out_seat is not None)
        ):
            hands.append(
                HandRecord(
                    state.first,
                    tuple(self.hand_actions),
                    self.decks[-1].deck,
                    timeout=timed_out_seat,
                )
            )
        return Record(
            rules=self.rules.name,
            players=tuple(names),
            hands=tuple(hands),
            options={k: v for k, v in options_of(self.rules).items() if v is not None},
            meta=self._record_notes() if meta else {},
        )

    def _record_notes(self) -> dict[str, Any]:
        """The record's ``[meta]``: the server's notes (table, fairness, clock)."""
        notes: dict[str, Any] = {
            "site": "burraco server",
            "table": self.id,
            "match": self.match_no,
            "fairness": [
                {
                    "hand": i + 1,
                    "commitment": d.commitment,
                    "salt": d.salt,
                    **({} if d.seeding is None else d.seeding.to_json()),
                }
                for i, d in enumerate(self.decks)
            ],
        }
        if self.control is not None:
            # A chess clock without a turn timer is valid (T5-T10 without T11-T12): a record
            # has no null, so an absent timer is an absent key, not a None (issue 19, H1).
            clock: dict[str, float] = {"round_seconds": self.control.round_seconds}
            if self.control.hand_seconds is not None:
                clock["hand_seconds"] = self.control.hand_seconds
            notes["clock"] = clock
        return notes
