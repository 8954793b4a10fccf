"""Restart recovery: a table in play is rebuilt from the store's log (src/burraco/store).
tests/server/test_crash.py kills a server with SIGKILL mid-match and checks what follows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from burraco.engine import Action
from burraco.engine.cards import parse_cards
from burraco.engine.clock import RoundClock
from burraco.engine.match import Match
from burraco.engine.record import HandRecord
from burraco.store import ActionRecord, SmazzataRecord

from .. import messages
from ..fairness import CommittedDeck, Seeding, commitment_of, deck_text
from ..wire import score_json
from .commands import TimerPurpose
from .core import TableCore
from .history import CHAT_MEMORY
from .status import TableStatus


class RecoveryMixin(TableCore):
    RESUME_SEQ_SKIP: ClassVar[int] = 1000
    """After a restart the event numbers go on this far past the last stored one. Events that
    are not stored (seats, away, smazzata_end, ...) may have used numbers past it before the
    crash: skipping ahead gives a client that saw them a snapshot when it reconnects, rather
    than new events under numbers it believes it already has."""

    async def _resume(self) -> None:
        """Rebuild the table from the store's log after a restart: the match in play is
        replayed through the engine to its last accepted action (same deals), and its clocks
        through the same arithmetic as ``_commit``, so that they stand as at that action; every
        bank then gets ``restart_grace`` and the seat on turn goes on from now."""
        store = self.hub.store
        self.seq = await store.last_seq(self.id) + self.RESUME_SEQ_SKIP
        finished = await store.match_record(self.id, self.match_no)
        if self.status == TableStatus.PLAYING and finished is not None:
            # The crash came after the finished match was stored, before the table was marked.
            self.status = TableStatus.FINISHED
            await store.set_status(self.id, TableStatus.FINISHED)
            return
        smazzate, actions, chats = await store.load_log(self.id, self.match_no)
        for chat in chats[-CHAT_MEMORY:]:
            self.chat.append(messages.stored_chat_line(chat.name, chat.text, chat.at, chat.seq))
        if not smazzate:
            self.status = TableStatus.OPEN
            await self._start_if_full()
            return
        self.match = Match(self.rules, first=smazzate[0].first)
        if self.control is not None:
            self.clock = RoundClock.start_round(self.control, self._clock_lines())
        last_at, last_clock = await self._replay_log(smazzate, actions)
        state = self.state
        assert state is not None
        now = self.hub.clock.now()
        self._restore_clock(last_at, last_clock, now)
        if state.is_over:
            if self.match.is_over:
                await self._finish("complete")
                return
            self._set_timer("deal", self.config.between_smazzate, TimerPurpose.DEAL)
        # Nobody is connected after a restart: a player who does not come back gets a bot
        # after the usual grace, as if he had just left (else the table would wait forever);
        # at a casual table with nobody there, the match waits and ends once deserted.
        for seat, holder in enumerate(self.seats):
            if holder.user_id is not None and holder.connections == 0:
                holder.came = True  # the match was under way: they had come before the stop
                self._mark_away(seat, now)
        self._arm_deserted()
        self._publish(messages.resumed(self.number), views=True)
        self._after_change()
        await self._settle_gone()  # a player who deleted his account meanwhile: gone.py

    async def _replay_log(
        self, smazzate: Sequence[SmazzataRecord], actions: Sequence[ActionRecord]
    ) -> tuple[float, dict[str, Any] | None]:
        """Deal every stored smazzata and apply its stored actions, as ``_deal`` and
        ``_commit`` did. Returns the server time of the last stored deal or action (where the
        clocks stood) and the clock stored with the last action that has one."""
        by_hand: dict[int, list[ActionRecord]] = {}
        for record in actions:
            by_hand.setdefault(record.number, []).append(record)
        last_at = 0.0
        last_clock: dict[str, Any] | None = None
        for row in smazzate:
            self._redeal(row)
            state = self.state
            assert state is not None
            last_at = max(last_at, row.dealt_at)
            for record in by_hand.get(row.number, []):
                action = Action.parse(record.action)
                events = state.apply(action)
                self.hand_actions.append(action)
                self._advance_clock(state, events, record.at)  # as _commit did
                last_at = max(last_at, record.at)
                if record.clock is not None:
                    last_clock = record.clock
            if state.is_over:
                await self._replay_end(row)
        return last_at, last_clock

    def _redeal(self, row: SmazzataRecord) -> None:
        """Deal a stored smazzata again, after checking its deck against its commitment."""
        deck = tuple(parse_cards(row.deck))
        if commitment_of(deck_text(deck), row.salt) != row.commitment:
            raise RuntimeError(f"table {self.id}: stored deck does not match its commitment")
        # The stored deck is the deal, whatever the seeds were: a restart never deals again.
        seeding = None if row.fairness is None else Seeding.from_json(row.fairness)
        self._install_deal(
            CommittedDeck(deck, row.salt, row.commitment, seeding), row.number, row.first
        )
        if self.clock is not None:
            self.clock.start_turn(row.first, row.dealt_at)  # as _deal did

    async def _replay_end(self, row: SmazzataRecord) -> None:
        """A replayed smazzata is over: score it (storing its end if the crash came first)."""
        state, match = self.state, self.match
        assert state is not None and match is not None
        score = state.score()
        if row.result is None:  # the crash came before the end was stored
            await self.hub.store.end_smazzata(
                self.id, self.match_no, row.number, result=list(score.result), ended=score.ended
            )
        match.add(score)
        self.hands.append(
            HandRecord(
                state.first, tuple(self.hand_actions), self.decks[-1].deck, result=score.result
            )
        )
        self.scores.append(score_json(row.number, score, state))

    def _restore_clock(self, last_at: float, last_clock: dict[str, Any] | None, now: float) -> None:
        """The banks as at the last stored moment, plus the grace; the turn in progress goes
        on from now, without a second increment and with its turn timer full again."""
        clock = self.clock
        if clock is None:
            return
        if last_clock is not None:
            clock.auto_plays = list(last_clock["auto_plays"])  # T13 counts: not replayable
        running = clock.running
        clock.stop(last_at)
        clock.grace(self.hub.config.restart_grace)
        if running is not None:
            clock.running, clock.since = running, now
            clock.turn_left = clock.control.hand_seconds
