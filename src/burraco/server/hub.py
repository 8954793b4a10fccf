"""The hub: what the whole server process shares (store, bots, settings) and its tables."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from burraco.store import (
    AccountStore,
    BotStore,
    ModerationStore,
    ProfileStore,
    RatingStore,
    Store,
    UserInfo,
)
from burraco.store.store import hash_token

from . import fairness, messages
from .botrunner import BotRunner
from .clock import Clock, SystemClock
from .config import BOT_BURST_SECONDS, ServerConfig
from .connection import Connection
from .invitemail import InvitationMail
from .mailer import Mailer
from .protocol import encode
from .quickplay import QuickPlay
from .ratelimit import Bucket, Limiter, RateLimiter
from .reviews import ReviewService
from .table import TableActor, TableError, TableStatus, commands
from .table.status import LIVE_STATUSES
from .tableconfig import TableConfig

if TYPE_CHECKING:
    from .cluster.node import Cluster
    from .tournaments import TournamentManager

log = logging.getLogger("burraco.hub")


def new_table_id() -> str:
    """Random, URL-safe and unguessable: the id of a private table is its invitation."""
    return secrets.token_urlsafe(9)


class Hub:
    def __init__(
        self, config: ServerConfig, store: Store, bots: BotRunner, *, clock: Clock | None = None
    ) -> None:
        self.config = config
        self.clock: Clock = clock or SystemClock()
        """The time of every table, timer and limit of this process (server/clock.py): a test
        gives a ``FakeClock`` and moves it instead of waiting."""
        self.store = store
        self.ratings = RatingStore(store)
        self.accounts = AccountStore(store)
        self.bot_accounts = BotStore(store)
        """Bot accounts (routes/bots.py); ``bots`` is the runner of the server's own bots."""
        self.profiles = ProfileStore(store)
        self.moderation = ModerationStore(store)
        self.invitations: dict[int, list[dict[str, Any]]] = {}
        """The last invitations and challenges each user got (friends.py), newest last."""
        self.announcement: messages.Announcement | None = None
        """The last announcement (shown to pages that open later, until replaced)."""
        self.mailer = Mailer(config)
        self.invitation_mail = InvitationMail(self.accounts, self.mailer, self.clock)
        """Invitations and challenges by mail to who asked and has no page open (friends.py)."""
        self.quickplay = QuickPlay(self, now=self.clock.monotonic)
        self.reviews = ReviewService(self)
        """The bot's reviews of finished matches (reviews.py), started by the app."""
        self.bots = bots
        self.test_random = fairness.predictable_source(config.test_seed)
        """Tests only (``--test-seed``): this server's source of deals and first players; None:
        the CSPRNG (fairness.py)."""
        self.tables: dict[str, TableActor] = {}
        self.connections: set[Connection] = set()
        self._bot_buckets: dict[int, Bucket] = {}
        """A bot account's WebSocket messages, shared by all its sockets (``bot_bucket``)."""
        self._sockets_of: Counter[int] = Counter()
        """Open WebSockets per user id, kept with ``connections`` by ``connect``/``disconnect``."""
        self._lock = asyncio.Lock()
        self.finish_listeners: list[Callable[[TableActor, dict[str, Any]], None]] = []
        """Told of every match that ends (the table, its ``match_end`` payload)."""
        self.tournaments: TournamentManager | None = None
        self.cluster: Cluster | None = None
        """Set when this process is one of several (docs/cluster.md); None: alone."""
        rate = config.chats_per_minute_per_account / 60
        self.chat_limits: Limiter = RateLimiter(
            rate=rate, burst=max(5.0, 3 * rate), monotonic=self.clock.monotonic
        )
        """Chat lines per account, over all its sockets (issue 19, M5)."""
        rate = config.joins_per_minute_per_account / 60
        self.join_limits: Limiter = RateLimiter(
            rate=rate, burst=max(10.0, 15 * rate), monotonic=self.clock.monotonic
        )
        """Joins per account, over all its sockets (issue 19, M5: each is a snapshot)."""
        rate = config.invitations_per_minute_per_account / 60
        self.invitation_limits: Limiter = RateLimiter(
            rate=rate, burst=5.0, monotonic=self.clock.monotonic
        )
        """Invitations and challenges per account (routes/friends.py)."""

    async def recover(self) -> int:
        """Resume every table that was open or in play when the server stopped. In a cluster
        nothing is resumed here: the tables of a stopped process are orphans, which the live
        processes take over as their heartbeats find them (``cluster/node.py``)."""
        if self.cluster is not None:
            return 0
        infos = await self.store.tables(LIVE_STATUSES, public_only=False)
        for info in infos:
            actor = TableActor(self, info)
            self.tables[info.id] = actor
            actor.start()
            # Open tables too: their event numbers must go on after the stored ones. One table
            # that cannot be rebuilt must not keep the server (and every other table) down.
            try:
                await actor.call(commands.Resume())
            except Exception:
                log.exception("table %s could not be resumed", info.id)
        return len(infos)

    async def create_table(
        self, user: UserInfo, config: TableConfig, *, seat: int | None, bot_seats: int = 0
    ) -> TableActor:
        """A new table created by ``user`` (sitting at ``seat`` if given; ``bot_seats``: how
        many seats the caller is about to give to bots), within the account's limits."""
        config.validate()
        if user.is_bot:
            if seat is None:
                # Its limits count the tables it sits at: one it does not sit at would be
                # beyond them (issue 19, M1: three bot accounts gave their owner 4x his own).
                raise TableError(
                    "forbidden",
                    "a bot account sits at the tables it creates",
                    detail="bot_must_sit",
                )
            self.check_bot_seats(user)
        mine = self.live_tables_of(user.id)
        elsewhere = self._created_elsewhere(user.id)
        waiting = sum(1 for t in mine if t.status == TableStatus.OPEN)
        waiting += sum(1 for status, _ in elsewhere if status == TableStatus.OPEN)
        limit = self.config.max_open_tables_per_user
        if waiting >= limit:
            raise TableError(
                "too_many_tables",
                f"you already have {waiting} tables waiting for players (at most {limit}):"
                " start or cancel one first",
            )
        self.check_live_tables(user.id)
        if seat is None and bot_seats >= config.players:
            self.check_bot_table(user.id)
        table_id = new_table_id()
        await self.store.create_table(
            table_id,
            created_by=user.id,
            config=config.to_json(),
            public=config.public,
            invite_code=None,
            players=config.players,
        )
        if self.cluster is not None:
            await self.cluster.acquire(table_id)
        info = await self.store.table(table_id)
        assert info is not None
        actor = TableActor(self, info)
        self.tables[table_id] = actor
        actor.start()
        if seat is not None:
            await actor.call(commands.Sit(user, seat))
        return actor

    async def open_seated_table(
        self,
        config: TableConfig,
        seats: Sequence[tuple[int | None, str | None]],
        *,
        created_by: int | None,
        before_start: Callable[[str], Awaitable[None]] | None = None,
    ) -> str:
        """A table with every seat taken (``seats``: user id or bot level per seat), started at
        once: a tournament's, quick play's. ``before_start`` is awaited with the new table's id
        before it starts (to record where it belongs first)."""
        config.validate()
        table_id = new_table_id()
        await self.store.create_table(
            table_id,
            created_by=created_by,
            config=config.to_json(),
            public=config.public,
            invite_code=None,
            players=config.players,
        )
        if self.cluster is not None:
            await self.cluster.acquire(table_id)  # its seats are written under its lease
        for seat, (user_id, bot) in enumerate(seats):
            await self.store.set_seat(table_id, seat, user_id=user_id, bot=bot)
        if before_start is not None:
            await before_start(table_id)
        if self.cluster is not None and await self.cluster.place(table_id):
            return table_id  # the process it went to starts it (an open, full table)
        stored = await self.store.table(table_id)
        assert stored is not None
        actor = TableActor(self, stored)
        self.tables[table_id] = actor
        actor.start()
        await actor.call(commands.Start())
        return table_id

    def live_tables_of(self, user_id: int) -> list[TableActor]:
        """The lobby tables ``user_id`` created that wait for players or are in play (every
        such table is in memory: open and playing tables are never evicted)."""
        return [
            t
            for t in self.tables.values()
            if t.created_by == user_id and t.config.tournament is None and t.status.is_live
        ]

    def check_live_tables(self, user_id: int, *, besides: object = None) -> None:
        """Refuse ``user_id`` one more live table (waiting or in play): those it created, and
        those where it plays through quick play (issue 19, M1: quick play and rematches went
        past the limit). ``besides``: a table not to count (the one being rematched)."""
        live = {
            t.id
            for t in self.tables.values()
            if t is not besides
            and t.config.tournament is None
            and t.status.is_live
            and (t.created_by == user_id or any(s.user_id == user_id for s in t.seats))
        }
        count = len(live) + len(self._created_elsewhere(user_id))
        limit = self.config.max_live_tables_per_user
        if count >= limit:
            raise TableError(
                "too_many_tables",
                f"you already have {count} tables waiting or in play (at most {limit}):"
                " finish or cancel one first",
            )

    def check_bot_table(self, user_id: int, *, besides: object = None) -> None:
        """Refuse one more table of ``user_id``'s where only bots sit (issue 19, M1)."""
        only_bots = [
            t
            for t in self.live_tables_of(user_id)
            if t is not besides and all(s.user_id is None for s in t.seats)
        ]
        count = len(only_bots) + sum(1 for _, bots in self._created_elsewhere(user_id) if bots)
        limit = self.config.max_bot_tables_per_user
        if count >= limit:
            raise TableError(
                "too_many_bots",
                f"you already have {count} tables where only bots play (at most"
                f" {limit}): let one finish first",
            )

    def check_bot_seats(self, user: UserInfo) -> None:
        """Refuse a bot account one more seat beyond ``bot_max_tables`` tables not finished
        (this process's tables: a bot's connector plays through one process at a time)."""
        limit = self.config.bot_max_tables
        count = sum(
            1
            for actor in self.tables.values()
            if actor.status in LIVE_STATUSES and actor.seat_of(user) is not None
        )
        if count >= limit:
            raise TableError(
                "too_many_tables",
                f"a bot account plays at most {limit} tables at once",
                detail="bot_tables",
                params={"limit": limit},
            )

    def _created_elsewhere(self, user_id: int) -> list[tuple[str, bool]]:
        """(status, only bots) of the live lobby tables ``user_id`` created that run in the
        cluster's other processes (as of their last heartbeat)."""
        if self.cluster is None:
            return []
        return [(s, b) for c, s, b in self.cluster.elsewhere.created if c == user_id]

    async def table(self, table_id: str) -> TableActor:
        actor = self.tables.get(table_id)
        if actor is not None:
            return actor
        async with self._lock:
            actor = self.tables.get(table_id)
            if actor is not None:
                return actor
            info = await self.store.table(table_id)
            if info is None:
                raise TableError("no_such_table", f"there is no table {table_id!r}")
            if self.cluster is not None:
                await self.cluster.acquire(table_id)  # or NotOwner: it runs elsewhere
                if info.status in LIVE_STATUSES:
                    # An orphan of a stopped process (or one handed over): rebuilt from
                    # the log, as after a restart.
                    return await self._resume(info)
            actor = TableActor(self, info)
            # A table from before a restart: its events (a rematch's) are numbered after the
            # stored ones and any unstored ones clients saw (see TableActor.RESUME_SEQ_SKIP).
            actor.seq = await self.store.last_seq(table_id) + TableActor.RESUME_SEQ_SKIP
            self.tables[table_id] = actor
            actor.start()
            return actor

    async def _resume(self, info: Any) -> TableActor:
        actor = TableActor(self, info)
        self.tables[info.id] = actor
        actor.start()
        try:
            await actor.call(commands.Resume())
        except Exception:
            log.exception("table %s could not be resumed", info.id)
        return actor

    async def adopt(self, table_id: str) -> bool:
        """Run a table this process was handed or found orphaned (cluster); False when it
        is already here."""
        if table_id in self.tables:
            return False
        await self.table(table_id)
        return True

    def connect(self, user: UserInfo, *, session: str | None = None) -> Connection | None:
        """A new connection of ``user`` (opened with the session token ``session``), or None
        when he already has ``max_sockets_per_user``."""
        most = self.config.bot_max_sockets if user.is_bot else self.config.max_sockets_per_user
        if self._sockets_of[user.id] >= most:
            return None
        self._sockets_of[user.id] += 1
        conn = Connection(
            user,
            joins_per_minute=self.config.joins_per_minute,
            session=session,
            monotonic=self.clock.monotonic,
        )
        self.connections.add(conn)
        if self.cluster is not None:
            self.cluster.connected(conn)
        return conn

    def bot_bucket(self, user_id: int) -> Bucket:
        """The message bucket of a bot account, one for all its sockets (config
        ``bot_messages_per_second``, bursts of ``BOT_BURST_SECONDS``' worth)."""
        bucket = self._bot_buckets.get(user_id)
        if bucket is None:
            rate = self.config.bot_messages_per_second
            burst = rate * BOT_BURST_SECONDS
            bucket = Bucket(rate, burst, burst, self.clock.monotonic(), self.clock.monotonic)
            self._bot_buckets[user_id] = bucket
        return bucket

    def end_session(self, token: str) -> int:
        """Close the connections opened with a session that has just ended (a logout): a
        socket must not outlive the login it was opened with. Returns how many (here)."""
        return self.end_sessions_hashed([hash_token(token)])

    def end_sessions_hashed(self, hashes: Sequence[str]) -> int:
        """Close the connections opened with any of these sessions (by their stored hash):
        a password change or "log out everywhere" ends them at once, in every process."""
        if self.cluster is not None:
            self.cluster.end_sessions_everywhere(hashes)
        return self.end_sessions_local(hashes)

    def end_sessions_local(self, hashes: Sequence[str]) -> int:
        wanted = set(hashes)
        ended = [c for c in self.connections if c.session and hash_token(c.session) in wanted]
        for conn in ended:
            conn.close()
        return len(ended)

    def announce(self, text: str, at: float) -> int:
        """An administrator's announcement to every connection; how many were told (in a
        cluster, here: the other processes tell theirs)."""
        if self.cluster is not None:
            self.cluster.announce_everywhere(text, at)
        return self.announce_local(text, at)

    def announce_local(self, text: str, at: float) -> int:
        self.announcement = messages.announcement(text, at)
        encoded = encode(self.announcement)
        for conn in list(self.connections):
            conn.send(encoded)
        return len(self.connections)

    def end_user(self, user_id: int) -> int:
        """Close every connection of a user (suspended or banned), in every process."""
        if self.cluster is not None:
            self.cluster.end_user_everywhere(user_id)
        return self.end_user_local(user_id)

    def end_user_local(self, user_id: int) -> int:
        ended = [c for c in self.connections if c.user.id == user_id]
        for conn in ended:
            conn.close()
        return len(ended)

    async def account_gone(self, user_id: int, name: str) -> None:
        """The account ``user_id`` is about to be deleted: it leaves quick play, and every
        table he sits at or created settles his seats (table/gone.py), here first (awaited,
        so that a forfeit is rated while his rating exists) and in the other processes."""
        await self.quickplay.forget(user_id)
        if self.cluster is not None:
            self.cluster.account_gone_everywhere(user_id, name)
        await self.account_gone_local(user_id, name)

    async def account_gone_local(self, user_id: int, name: str) -> None:
        for actor in list(self.tables.values()):
            if actor.created_by == user_id or any(s.user_id == user_id for s in actor.seats):
                await actor.call(commands.AccountGone(user_id, name))

    def disconnect(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if self.cluster is not None:
            self.cluster.disconnected(conn)
        self._sockets_of[conn.user.id] -= 1
        if not self._sockets_of[conn.user.id]:
            del self._sockets_of[conn.user.id]

    def forget(self, actor: TableActor) -> None:
        """Drop a finished, unwatched table from memory (``TableActor._evict_if_idle``)."""
        if self.tables.get(actor.id) is actor:
            del self.tables[actor.id]
            if self.cluster is not None and not actor.status.is_live:
                self.cluster.spawn(self.cluster.release(actor.id))

    def table_finished(self, actor: TableActor, result: dict[str, Any]) -> None:
        for listener in self.finish_listeners:
            listener(actor, result)

    def lobby(self) -> list[dict[str, Any]]:
        """Public tables that have not finished, with their free seats (in a cluster, the
        other processes' as of their last heartbeat too)."""
        local = self.local_lobby()
        if self.cluster is None:
            return local
        return local + self.cluster.elsewhere.lobby

    def local_lobby(self) -> list[dict[str, Any]]:
        out = []
        for actor in self.tables.values():
            if not actor.config.public or not actor.status.is_live:
                continue
            info = actor.info_json()
            info["free_seats"] = [i for i, s in enumerate(actor.seats) if s.free]
            out.append(info)
        return out

    @staticmethod
    def lobby_entries_json(actors: Iterable[TableActor]) -> list[bytes]:
        """The lobby entries (``local_lobby``'s) of those of ``actors`` that are in the lobby,
        serialised, each table's settings serialised once: what a cluster's process
        publishes at its heartbeats."""
        return [a.lobby_json() for a in actors if a.config.public and a.status.is_live]

    def online(self) -> set[int]:
        """The users with an open WebSocket (a page of the site open) now."""
        if self.cluster is None:
            return self.local_online()
        return self.local_online() | self.cluster.elsewhere.users

    def local_online(self) -> set[int]:
        return set(self._sockets_of)

    def playing_at(self, user_id: int) -> str | None:
        """The table in play where ``user_id`` has a seat, if any."""
        here = self.local_playing().get(user_id)
        if here is None and self.cluster is not None:
            return self.cluster.elsewhere.playing_at.get(user_id)
        return here

    def local_playing(self, actors: Iterable[TableActor] | None = None) -> dict[int, str]:
        """Who plays where, at this process's tables (or at ``actors``)."""
        return {
            s.user_id: actor.id
            for actor in (self.tables.values() if actors is None else actors)
            if actor.status == TableStatus.PLAYING
            for s in actor.seats
            if s.user_id is not None
        }

    def presence(self) -> dict[str, int]:
        """The lobby's figures: people online, tables in play and waiting."""
        figures = self.local_presence()
        figures["online"] = len(self.online())
        if self.cluster is not None:
            figures["playing"] += self.cluster.elsewhere.playing
            figures["waiting"] += self.cluster.elsewhere.waiting
        return figures

    def local_presence(self, actors: Iterable[TableActor] | None = None) -> dict[str, int]:
        """The lobby's figures here: ``playing`` and ``waiting`` among this process's tables
        (or ``actors``)."""
        every = self.tables.values() if actors is None else actors
        live = [a for a in every if a.config.lesson is False]
        return {
            "online": len(self._sockets_of),
            "playing": sum(1 for a in live if a.status == TableStatus.PLAYING),
            "waiting": sum(1 for a in live if a.status == TableStatus.OPEN and a.config.public),
        }

    def tell(self, user_id: int, message: Mapping[str, Any]) -> int:
        """Send a message to every connection of one user; how many got it here (in a
        cluster the other processes tell theirs)."""
        text = encode(message)
        if self.cluster is not None:
            self.cluster.tell_everywhere(user_id, text)
        return self.tell_local(user_id, text)

    def tell_local(self, user_id: int, text: str) -> int:
        conns = [c for c in self.connections if c.user.id == user_id]
        for conn in conns:
            conn.send(text)
        return len(conns)

    async def close(self) -> None:
        for actor in list(self.tables.values()):
            await actor.stop()
        for conn in list(self.connections):
            conn.close()
        self.bots.close()
        await self.reviews.close()
        await self.invitation_mail.close()
        await self.store.close()
