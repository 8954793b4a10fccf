"""Dealing and play: every action is checked by the engine, applied to a copy of the state,
written to the store, and only then does the copy become the table's state and the events go
out (nobody hears of an action that is not durable). Chat is numbered with the events."""

from __future__ import annotations

import logging
from typing import Any

from burraco.engine import Action, IllegalActionError, NotationError, Smazzata
from burraco.engine.actions import DISCARD
from burraco.engine.events import Event, PozzettoTaken, SmazzataEnded
from burraco.engine.record import HandRecord
from burraco.engine.views import SPECTATOR
from burraco.store import ActionRecord, ChatRecord, SmazzataRecord

from .. import messages
from ..fairness import CommittedDeck, fresh_secret, hex_commitment, seeded_deal
from ..lesson import lesson_deck
from ..protocol import ErrorCode, ProtocolError, encode
from ..tournament.samecards import committed as committed_deal
from ..tournament.samecards import deals_for
from ..wire import events_for, score_json
from . import commands as cmd
from .commands import TimerPurpose
from .core import TableCore
from .pending import PendingDeal
from .status import TableStatus

log = logging.getLogger("burraco.table")


class PlayMixin(TableCore):
    # ------------------------------------------------------------------------------ dealing

    async def _deal(self) -> None:
        """Start the next deal. A fixed deck (a lesson's) is dealt at once. Otherwise the
        server draws its secret S and tells its commitment and every seat's commitment to its
        seed (``shuffle``); the deck is dealt when the connected people who committed have
        revealed their seeds, or after ``seed_reveal_seconds`` without the missing ones (bots
        and seats without a commitment are never waited for)."""
        match = self.match
        assert match is not None
        if self.pending is not None:
            return  # this deal has begun: its seeds are awaited
        number = len(match.scores) + 1
        fixed = await self._fixed_deck(number)
        if fixed is not None:
            await self._store_deal(fixed, number)
            return
        players = self.rules.players
        commitments = {
            seat: sealed
            for seat, (user_id, sealed) in self.seed_commits.items()
            if seat < players and self.seats[seat].user_id == user_id
        }
        self.seed_commits = {}  # a commitment is good for one deal
        awaited = {seat for seat in commitments if self._person_here(seat)}
        secret = fresh_secret()
        pending = self.pending = PendingDeal(number, secret, commitments, awaited)
        wait = self.hub.config.seed_reveal_seconds if awaited else 0.0
        self._publish(
            messages.shuffle(
                number,
                hex_commitment(secret),
                pending.commitment_list(players),
                self.hub.clock.now() + wait,
            )
        )
        if wait > 0:
            self._set_timer("reveal", wait, TimerPurpose.REVEAL)
        else:
            await self._complete_deal()

    async def _fixed_deck(self, number: int) -> CommittedDeck | None:
        """A deck decided without the players' seeds: a lesson's teaching deal, or a same-cards
        round's (the tournament's, the same at every table of the round)."""
        if self.config.lesson:
            return lesson_deck()
        if self.config.same_cards is not None:
            assert self.config.tournament is not None
            deals = await deals_for(self.hub.store, self.config.tournament, self.config.same_cards)
            return committed_deal(deals, number)
        return None

    def _choose_deck(self, pending: PendingDeal) -> CommittedDeck:
        """The deck of S and the seeds revealed in time (docs/protocol.md, "Fair deals")."""
        players = self.rules.players
        return seeded_deal(
            self.rules,
            pending.secret,
            pending.commitment_list(players),
            pending.seed_list(players),
            test=self.hub.test_random,
        )

    def _person_here(self, seat: int) -> bool:
        holder = self.seats[seat]
        return holder.present and holder.substitute is None

    async def _complete_deal(self) -> None:
        """Every awaited seed came, or the wait ran out: deal."""
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        self._cancel_timer("reveal")
        if self.status != TableStatus.PLAYING or self.match is None:
            return
        await self._store_deal(self._choose_deck(pending), pending.number)

    async def _seed_gone(self, seat: int) -> None:
        """``seat``'s player left while the deal waited for his seed: it waits no longer."""
        pending = self.pending
        if pending is None or seat not in pending.awaited:
            return
        pending.awaited.discard(seat)
        if not pending.awaited:
            await self._complete_deal()

    async def _seed_commit(self, command: cmd.SeedCommit) -> None:
        seat = self.seat_of(command.conn.user)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        # For the next deal whose ``shuffle`` has not gone out yet; a new one replaces it.
        self.seed_commits[seat] = (command.conn.user.id, command.commitment)

    async def _seed_reveal(self, command: cmd.SeedReveal) -> None:
        seat = self.seat_of(command.conn.user)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        pending = self.pending
        if pending is None or pending.number != command.number:
            return  # too late (the deal went without it) or not a deal in progress: no error
        if seat not in pending.commitments or seat in pending.spoken:
            return  # no commitment to reveal, or revealed already: nothing to do
        if not pending.reveal(seat, command.seed):
            log.warning(
                "table %s: seat %d's seed for deal %d does not fit its commitment; ignored",
                self.id,
                seat,
                pending.number,
            )
        if not pending.awaited:
            await self._complete_deal()

    async def _store_deal(self, committed: CommittedDeck, number: int) -> None:
        """Store the deal, then tell it (``dealt``, with the deck's commitment)."""
        match = self.match
        assert match is not None
        first = match.next_first
        now = self.hub.clock.now()
        seq = self.seq + 1
        await self.hub.store.log_smazzata(
            self.id,
            SmazzataRecord(
                self.match_no,
                number,
                seq,
                first,
                match.late,
                committed.text,
                committed.salt,
                committed.commitment,
                now,
                None,
                None,
                None if committed.seeding is None else committed.seeding.to_json(),
            ),
        )
        self.seq = seq
        self._install_deal(committed, number, first)
        if self.clock is not None:
            self.clock.start_turn(first, now)
        self._publish_numbered(seq, messages.dealt(number, first, committed.commitment), views=True)
        self._after_change()
        await self._settle_gone()  # a seat whose player deleted his account: gone.py

    def _install_deal(self, committed: CommittedDeck, number: int, first: int) -> None:
        assert self.match is not None
        self.sheet_readers = set()
        self.state = self.match.deal(deck=committed.deck, first=first)
        self.decks.append(committed)
        self.number = number
        self.hand_actions = []

    async def _deal_next(self) -> None:
        if self.status == TableStatus.PLAYING and self.state is not None and self.state.is_over:
            await self._deal()

    # ------------------------------------------------------------------------------- play

    async def _act(self, command: cmd.Act) -> None:
        conn, ref = command.conn, command.ref
        seat = self.seat_of(conn.user)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table", ref=ref)
        if self.status != TableStatus.PLAYING or self.state is None or self.state.is_over:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "no smazzata is being played", ref=ref)
        try:
            action = Action.parse(command.action)
        except NotationError as error:
            raise ProtocolError(ErrorCode.BAD_ACTION, str(error), ref=ref) from None
        if action.seat != seat:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_SEAT, f"you play seat {seat}, not seat {action.seat}", ref=ref
            )
        try:
            self.state.verify(action)
        except IllegalActionError as error:
            raise ProtocolError(
                ErrorCode.ILLEGAL_ACTION,
                error.explanation,
                ref=ref,
                rule=error.rule,
                detail=error.code,
                params=error.params,
            ) from None
        if self.seats[seat].silent:
            self._back_from_silence(seat)
        if self.clock is not None:
            self.clock.note_own_play(seat)
            if action.verb == DISCARD:
                # Lag compensation, bounded as lichess does: the client's reported network
                # delay is not charged to its clock, up to ``lag_allowance`` per move.
                allowance = min(command.lag_ms / 1000, self.hub.config.lag_allowance)
                self.clock.compensate(allowance, self.hub.clock.now())
        seq = await self._commit(action, auto=False)
        conn.send(encode(messages.ack(self.id, ref, seq)))

    async def _commit(self, action: Action, *, auto: bool) -> int:
        """Apply a legal action: on a copy, persist it, then make it the table's state.
        Returns the action's event number."""
        state = self.state
        assert state is not None and self.match is not None
        now = self.hub.clock.now()
        trial = state.copy()
        events = trial.apply(action)
        clock_json = self._advance_clock(trial, events, now)
        seq = self.seq + 1
        await self.hub.store.log_action(
            self.id,
            ActionRecord(
                seq, self.match_no, self.number, action.seat, str(action), now, auto, clock_json
            ),
        )
        self.seq = seq
        self.state = trial
        self.hand_actions.append(action)
        rules = self.rules

        def private(seat: int) -> messages.ActionEvents:
            seen = events_for(events, None if seat == SPECTATOR else seat, rules)
            return messages.action_events(seen)

        played = messages.action(action.seat, str(action), auto=auto)
        self._publish_numbered(seq, played, private, views=True)
        if trial.is_over:
            await self._end_smazzata(now)
        else:
            self._after_change()
        return seq

    def _advance_clock(
        self, state: Smazzata, events: list[Event], now: float
    ) -> dict[str, Any] | None:
        clock = self.clock
        if clock is None:
            return None
        if any(isinstance(e, SmazzataEnded) for e in events):
            clock.pause(now)
        elif any(isinstance(e, PozzettoTaken) and e.direct for e in events):
            clock.reset_turn_timer(now)
        elif state.current != clock.running:
            clock.start_turn(state.current, now)
        snapshot = clock.snapshot()
        return {
            "banks": list(snapshot.banks),
            "credited": list(snapshot.credited),
            "auto_plays": list(snapshot.auto_plays),
        }

    async def _end_smazzata(self, now: float) -> None:
        state, match = self.state, self.match
        assert state is not None and match is not None
        score = state.score()
        committed = self.decks[-1]
        await self.hub.store.end_smazzata(
            self.id, self.match_no, self.number, result=list(score.result), ended=score.ended
        )
        match.add(score)
        self.hands.append(
            HandRecord(state.first, tuple(self.hand_actions), committed.deck, result=score.result)
        )
        sheet = score_json(self.number, score, state)
        self.scores.append(sheet)
        # The next deal waits for the people at the table to close the score sheet (``ready``),
        # at most ``sheet_seconds``: a player who is first in the next smazzata does not lose
        # clock time behind the sheet. With nobody to read it, the usual short pause.
        self.sheet_readers = set() if match.is_over else self._people_here()
        self._sheet_since = now
        pause = self.config.between_smazzate
        if self.sheet_readers:
            pause = max(pause, self.config.sheet_seconds)
        self._publish(
            messages.smazzata_end(
                sheet,
                list(match.totals),
                # A same-cards round's deck is revealed by the tournament once every table of
                # the round is over (the other tables are playing the same cards).
                deck=None if self.config.same_cards is not None else committed.text,
                salt=None if self.config.same_cards is not None else committed.salt,
                commitment=committed.commitment,
                hands=[[str(card) for card in state.hand(s)] for s in range(self.rules.players)],
                next_deal_at=None if match.is_over else now + pause,
                seeding=None if committed.seeding is None else committed.seeding.wire(),
            )
        )
        if match.is_over:
            await self._finish("complete")
        else:
            self._set_timer("deal", pause, TimerPurpose.DEAL)

    def _people_here(self) -> set[int]:
        """The seats played by a connected person (not by a bot, not by a substitute)."""
        return {
            seat
            for seat, holder in enumerate(self.seats)
            if holder.present and holder.substitute is None
        }

    async def _ready(self, command: cmd.Ready) -> None:
        seat = self.seat_of(command.conn.user)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        # A ``ready`` that comes after the deal (the wait ran out) is no error: nothing to do.
        await self._reader_gone(seat)

    async def _reader_gone(self, seat: int) -> None:
        """``seat`` no longer holds up the next deal (it closed the sheet, or left)."""
        if seat not in self.sheet_readers:
            return
        self.sheet_readers.discard(seat)
        if not self.sheet_readers and "deal" in self._timers:
            # Everybody has read the sheet: deal, though never sooner than the usual pause.
            left = self.config.between_smazzate - (self.hub.clock.now() - self._sheet_since)
            if left > 0:
                self._set_timer("deal", left, TimerPurpose.DEAL)
            else:
                self._cancel_timer("deal")
                await self._deal_next()

    # ----------------------------------------------------------------------------- chat

    async def _chat(self, command: cmd.Chat) -> None:
        conn, text = command.conn, command.text
        if conn.user.is_bot:  # decision: a bot plays, it does not talk (docs/accounts.md)
            raise ProtocolError(ErrorCode.FORBIDDEN, "a bot account cannot chat", detail="bot_chat")
        # Per account (however many sockets it holds) and per table (however many accounts
        # talk), before anything is stored or relayed: issue 19, M5.
        if not await self.hub.chat_limits.check(f"user:{conn.user.id}"):
            raise ProtocolError(
                ErrorCode.RATE_LIMITED, "too many chat messages from your account; wait a moment"
            )
        if not self.chat_limit.take():
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many chat messages at this table")
        standing = await self.hub.moderation.standing(conn.user.id)
        if standing is not None and standing.muted(self.hub.clock.utcnow()):
            until = standing.chat_muted_until
            assert until is not None
            raise ProtocolError(
                ErrorCode.MUTED,
                f"a moderator muted your chat until {until.isoformat()}",
                detail="muted_until",
                params={"until": until.isoformat()},
            )
        now = self.hub.clock.now()
        seq = self.seq + 1
        await self.hub.store.log_chat(
            self.id, ChatRecord(seq, conn.user.id, conn.user.name, text, now)
        )
        self.seq = seq
        line = messages.chat_line(conn.user.name, text, now, seat=self.seat_of(conn.user), seq=seq)
        self.chat.append(line)
        self._publish_numbered(seq, messages.chat(line))
