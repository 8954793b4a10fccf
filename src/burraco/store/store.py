"""The store: every persistent change goes through here (SQLite by default, PostgreSQL too).

Callers get plain dataclasses back, never ORM objects, so the server does not depend on the
database layer's sessions. Actions are written with group commit: concurrent appends from many
tables share one transaction, and each caller resumes only once its row is committed (the server
tells nobody about an action before that).

One class for the play tables (accounts, sessions, tables, the log): the club's and the
tournaments' tables have modules of their own (``store/club/``, ``tournament_store.py``); what
is here is one transaction style and one group-commit writer, hence one module of ~700 lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from . import models
from .action_writer import SQLITE_PRAGMAS, InDoubt, SqliteActionWriter
from .fencing import LeaseLost, check_fences
from .hidden import same_cards_in_play
from .migrate import Applied, current_revision, upgrade
from .names import skeleton

if TYPE_CHECKING:
    from .pg_action_writer import PostgresActionWriter

MAX_BATCH = 500
"""Action rows written in one group-commit transaction, at most."""
_MIGRATION_LOCK = 0x6275_7272  # PostgreSQL advisory lock: one process migrates at a time

_Pending = tuple[dict[str, Any], asyncio.Future[None]]
"""An action row waiting for the group commit, and the future its caller awaits."""


class NameTaken(Exception):
    """The user name is already registered."""


@dataclass(frozen=True, slots=True)
class UserInfo:
    id: int
    name: str
    is_guest: bool
    password_hash: str | None = None
    is_bot: bool = False
    """A bot account (``bot_store``): marked as a bot wherever its name is shown."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int | None
    user_name: str | None
    bot: str | None
    user_bot: bool = False
    """The seat's user is a bot account (``bot_store``)."""


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: str
    created_by: int | None
    created_at: datetime
    status: str
    config: dict[str, Any]
    public: bool
    invite_code: str | None
    match_no: int
    seats: tuple[SeatInfo, ...]


@dataclass(frozen=True, slots=True)
class SmazzataRecord:
    match_no: int
    number: int
    seq: int
    first: int
    late: bool
    deck: str
    salt: str
    commitment: str
    dealt_at: float
    result: list[int] | None
    ended: str | None
    fairness: dict[str, Any] | None = None
    """The players' seeds of the deal (``fairness.Seeding.to_json``), None before them."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    match_no: int
    number: int
    seat: int
    action: str
    at: float
    auto: bool
    clock: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class ChatRecord:
    seq: int
    user_id: int | None
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class MatchInfo:
    table_id: str
    match_no: int
    finished_at: datetime
    players: list[str]
    totals: list[int]
    winner: int | None
    ended: str
    mp: list[int] | None = None
    """Match points by line when they apply: T14's technical score after a timeout."""
    vp: list[int] | None = None
    smazzate: int = 0
    """The smazzate finished in the match (scored); one cut by a timeout is not counted (T14)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def fresh_token() -> str:
    """A fresh secret token (256 bits, URL-safe). Never one that begins with ``-``: a bot's
    token is given on a command line (``burraco bot-connect --token T``), where such a value is
    taken for an option ("expected one argument"); one token in 64 was."""
    while True:
        token = secrets.token_urlsafe(32)
        if not token.startswith("-"):
            return token


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite returns naive datetimes for timezone-aware columns: they were stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What ``migrate_database`` did: the revision before and after, and the migrations run."""

    url: str
    """The database URL, with any password hidden."""
    before: str | None
    after: str | None
    applied: tuple[Applied, ...]


def normalize_url(url: str) -> str:
    """Accept plain ``sqlite:///path`` and ``postgresql://`` URLs and pick the async drivers."""
    if url.startswith("sqlite://") and not url.startswith("sqlite+aiosqlite://"):
        return "sqlite+aiosqlite://" + url.removeprefix("sqlite://")
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url.removeprefix(prefix)
    return url


def make_engine(url: str) -> AsyncEngine:
    """An async engine for the URL (aiosqlite or asyncpg), connecting lazily."""
    url = normalize_url(url)
    is_sqlite = url.startswith("sqlite")
    if is_sqlite:
        path = make_url(url).database
        if path and path != ":memory:" and not Path(path).parent.is_dir():
            # Checked here: a failed aiosqlite connect leaves its thread calling back into the
            # event loop, which may be closed by then.
            raise FileNotFoundError(f"no folder {Path(path).parent} for the SQLite database")
    engine = create_async_engine(
        url,
        pool_pre_ping=not is_sqlite,
        **({} if is_sqlite else {"pool_size": 10, "max_overflow": 20}),
    )
    if is_sqlite:
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def _migrate(connection: Connection) -> list[Applied]:
    if connection.dialect.name == "postgresql":
        # Several server processes may start at once on one database: one migrates, the
        # others wait and then find nothing left to do.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    return upgrade(connection)


def _migrate_and_report(connection: Connection) -> tuple[str | None, str | None, list[Applied]]:
    before = current_revision(connection)
    applied = _migrate(connection)
    return before, current_revision(connection), applied


async def migrate_database(url: str) -> MigrationReport:
    """Bring the database at ``url`` to the latest schema (``burraco db upgrade``)."""
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            before, after, applied = await connection.run_sync(_migrate_and_report)
    finally:
        await engine.dispose()
    shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
    return MigrationReport(shown, before, after, tuple(applied))


class Store:
    """Async access to the database. Build with ``await Store.open(url)``."""

    def __init__(self, engine: AsyncEngine, *, action_writer: bool = True) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._queue: asyncio.Queue[_Pending | None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self._sqlite_writes = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._action_writer: SqliteActionWriter | PostgresActionWriter | None = None
        """The action log's own writer: on a SQLite file (action_writer.py), on PostgreSQL
        (pg_action_writer.py); None (an in-memory database, or ``action_writer=False``, the
        benchmark's reference): SQLAlchemy's path."""
        if action_writer and engine.dialect.name == "sqlite":
            path = engine.url.database
            if path and path != ":memory:":
                self._action_writer = SqliteActionWriter(path)
        elif action_writer and engine.dialect.name == "postgresql":
            from .pg_action_writer import PostgresActionWriter  # asyncpg: the postgres extra

            self._action_writer = PostgresActionWriter.for_engine(engine)
        self.fences: dict[str, int] | None = None
        """In a cluster (docs/cluster.md): the tables this process holds the lease of, with
        their fencing tokens; every write of a table's log then checks its token in its own
        transaction and raises ``LeaseLost`` when another process took the table. None: one
        process alone on its database, nothing to check."""
        self.action_commits = 0
        """Group-commit transactions written so far (fewer than the actions when they batch)."""
        self.actions_written = 0

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True, action_writer: bool = True) -> Store:
        """Connect (and bring the schema up to date with the migrations)."""
        engine = make_engine(url)
        store = cls(engine, action_writer=action_writer)
        if migrate:
            try:
                async with engine.begin() as connection:
                    await connection.run_sync(_migrate)
            except BaseException:
                await engine.dispose()
                raise
        return store

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Held around every write transaction of this process on SQLite.

        SQLite has one writer at a time: without this, concurrent writers wait in SQLite's busy
        handler, which gives up after its timeout (5 s) with "database is locked" (a loaded
        server registering hundreds of guests at once did, bench/README.md), and a transaction
        that read before writing fails at once if another committed meanwhile. Waiting here
        instead has no timeout and keeps arrival order. PostgreSQL needs no such thing."""
        if self._sqlite_writes is None:
            return contextlib.nullcontext()
        return self._sqlite_writes

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A write transaction: committed at the end of the block, rolled back if it raises."""
        async with self.exclusive(), self.sessions.begin() as session:
            yield session

    @contextlib.asynccontextmanager
    async def table_write(self, table_id: str) -> AsyncIterator[AsyncSession]:
        """A write transaction about one table's log, fenced in a cluster (``fences``)."""
        async with self.write() as session:
            if self.fences is not None:
                connection = await session.connection()
                if await check_fences(connection, self.fences, [table_id]):
                    raise LeaseLost(table_id)
            yield session

    async def close(self) -> None:
        """Write the actions already handed to the store, then disconnect."""
        self._closed = True
        writer, queue = self._writer, self._queue
        if writer is not None and queue is not None:
            queue.put_nowait(None)  # the writer finishes what is queued before it, then stops
            try:
                await asyncio.wait_for(asyncio.shield(writer), timeout=30)
            except TimeoutError:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
            while not queue.empty():
                item = queue.get_nowait()
                if item is not None and not item[1].done():
                    item[1].set_exception(RuntimeError("the store is closed"))
            self._writer = None
        if self._action_writer is not None:
            await self._action_writer.close()
        await self.engine.dispose()

    # ------------------------------------------------------------------------------- users

    async def create_user(
        self, name: str, password_hash: str | None, *, guest: bool = False
    ) -> UserInfo:
        async with self.write() as session:
            user = models.User(
                name=name,
                name_key=name.casefold(),
                name_skeleton=skeleton(name),
                password_hash=password_hash,
                is_guest=guest,
                created_at=_now(),
            )
            session.add(user)
            try:
                await session.flush()
            except IntegrityError:
                raise NameTaken(name) from None
            return UserInfo(
                user.id, user.name, user.is_guest, user.password_hash, user.bot_owner_id is not None
            )

    async def user_by_name(self, name: str) -> UserInfo | None:
        async with self.sessions() as session:
            user = await session.scalar(
                select(models.User).where(models.User.name_key == name.casefold())
            )
            if user is None:
                return None
            return UserInfo(
                user.id, user.name, user.is_guest, user.password_hash, user.bot_owner_id is not None
            )

    async def user(self, user_id: int) -> UserInfo | None:
        async with self.sessions() as session:
            user = await session.get(models.User, user_id)
            if user is None:
                return None
            return UserInfo(
                user.id, user.name, user.is_guest, user.password_hash, user.bot_owner_id is not None
            )

    async def create_session(self, user_id: int, *, days: int = 30) -> str:
        """A new login token for the user (only its hash is stored)."""
        token = fresh_token()
        async with self.write() as session:
            session.add(
                models.Session(
                    token_hash=hash_token(token),
                    user_id=user_id,
                    created_at=_now(),
                    expires_at=_now() + timedelta(days=days),
                )
            )
        return token

    async def session_user(self, token: str) -> UserInfo | None:
        async with self.sessions() as session:
            row = await session.execute(
                select(models.User, models.Session.expires_at)
                .join(models.Session, models.Session.user_id == models.User.id)
                .where(models.Session.token_hash == hash_token(token))
            )
            found = row.first()
            if found is None:
                return None
            user, expires_at = found
            if _aware(expires_at) < _now():
                return None
            return UserInfo(user.id, user.name, user.is_guest, is_bot=user.bot_owner_id is not None)

    async def delete_session(self, token: str) -> None:
        async with self.write() as session:
            await session.execute(
                delete(models.Session).where(models.Session.token_hash == hash_token(token))
            )

    # ------------------------------------------------------------------------------ tables

    async def create_table(
        self,
        table_id: str,
        *,
        created_by: int | None,
        config: dict[str, Any],
        public: bool,
        invite_code: str | None,
        players: int,
    ) -> None:
        async with self.write() as session:
            session.add(
                models.GameTable(
                    id=table_id,
                    created_by=created_by,
                    created_at=_now(),
                    status="open",
                    config=config,
                    public=public,
                    invite_code=invite_code,
                    match_no=1,
                )
            )
            await session.flush()
            for seat in range(players):
                session.add(models.Seat(table_id=table_id, seat=seat))

    async def set_seat(
        self, table_id: str, seat: int, *, user_id: int | None, bot: str | None
    ) -> None:
        async with self.table_write(table_id) as session:
            await session.execute(
                update(models.Seat)
                .where(models.Seat.table_id == table_id, models.Seat.seat == seat)
                .values(user_id=user_id, bot=bot)
            )

    async def set_status(
        self, table_id: str, status: str, *, match_no: int | None = None, owner: str | None = None
    ) -> None:
        values: dict[str, Any] = {"status": status}
        if match_no is not None:
            values["match_no"] = match_no
        if owner is not None:
            values["owner_process"] = owner
        async with self.table_write(table_id) as session:
            await session.execute(
                update(models.GameTable).where(models.GameTable.id == table_id).values(**values)
            )

    async def table(self, table_id: str) -> TableInfo | None:
        tables = await self._tables(models.GameTable.id == table_id)
        return tables[0] if tables else None

    async def table_by_invite(self, code: str) -> TableInfo | None:
        tables = await self._tables(models.GameTable.invite_code == code)
        return tables[0] if tables else None

    async def tables(self, statuses: Sequence[str], *, public_only: bool = True) -> list[TableInfo]:
        condition: Any = models.GameTable.status.in_(list(statuses))
        if public_only:
            condition = condition & models.GameTable.public.is_(True)
        return await self._tables(condition)

    async def _tables(self, condition: Any) -> list[TableInfo]:
        async with self.sessions() as session:
            rows = (
                await session.scalars(
                    select(models.GameTable).where(condition).order_by(models.GameTable.created_at)
                )
            ).all()
            if not rows:
                return []
            ids = [row.id for row in rows]
            seat_rows = (
                await session.execute(
                    select(models.Seat, models.User.name, models.User.bot_owner_id)
                    .outerjoin(models.User, models.User.id == models.Seat.user_id)
                    .where(models.Seat.table_id.in_(ids))
                    .order_by(models.Seat.seat)
                )
            ).all()
            seats: dict[str, list[SeatInfo]] = {}
            for seat, user_name, bot_owner in seat_rows:
                seats.setdefault(seat.table_id, []).append(
                    SeatInfo(seat.seat, seat.user_id, user_name, seat.bot, bot_owner is not None)
                )
            return [
                TableInfo(
                    id=row.id,
                    created_by=row.created_by,
                    created_at=_aware(row.created_at),
                    status=row.status,
                    config=dict(row.config),
                    public=row.public,
                    invite_code=row.invite_code,
                    match_no=row.match_no,
                    seats=tuple(seats.get(row.id, [])),
                )
                for row in rows
            ]

    # --------------------------------------------------------------------------- gameplay log

    async def log_smazzata(self, table_id: str, record: SmazzataRecord) -> None:
        async with self.table_write(table_id) as session:
            session.add(
                models.SmazzataLog(
                    table_id=table_id,
                    match_no=record.match_no,
                    number=record.number,
                    seq=record.seq,
                    first=record.first,
                    late=record.late,
                    deck=record.deck,
                    salt=record.salt,
                    commitment=record.commitment,
                    dealt_at=record.dealt_at,
                    result=None,
                    ended=None,
                    fairness=record.fairness,
                )
            )

    async def end_smazzata(
        self, table_id: str, match_no: int, number: int, *, result: list[int] | None, ended: str
    ) -> None:
        async with self.table_write(table_id) as session:
            await session.execute(
                update(models.SmazzataLog)
                .where(
                    models.SmazzataLog.table_id == table_id,
                    models.SmazzataLog.match_no == match_no,
                    models.SmazzataLog.number == number,
                )
                .values(result=result, ended=ended)
            )

    async def log_action(self, table_id: str, record: ActionRecord) -> None:
        """Append an accepted action; returns once it is committed (group commit).

        Appends from many tables that arrive while a transaction is being written share the
        next one, so a busy server commits far fewer times than it accepts actions; each caller
        resumes only when its own row is durable, and a row that cannot be written (a duplicate
        event number, say) fails only its own caller."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._writer = loop.create_task(self._write_actions(self._queue), name="group commit")
        done: asyncio.Future[None] = loop.create_future()
        row = {
            "table_id": table_id,
            "seq": record.seq,
            "match_no": record.match_no,
            "number": record.number,
            "seat": record.seat,
            "action": record.action,
            "at": record.at,
            "auto": record.auto,
            "clock": record.clock,
        }
        self._queue.put_nowait((row, done))
        await done

    async def _write_actions(self, queue: asyncio.Queue[_Pending | None]) -> None:
        while True:
            first = await queue.get()
            if first is None:
                return
            batch = [first]
            stopping = False
            while not queue.empty() and len(batch) < MAX_BATCH:
                item = queue.get_nowait()
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            await self._commit_actions(batch)
            if stopping:
                return

    async def _commit_actions(self, batch: list[_Pending], *, in_doubt: bool = False) -> None:
        rows = [row for row, _ in batch]
        writer = self._action_writer
        try:
            if isinstance(writer, SqliteActionWriter) and self.fences is None:
                async with self.exclusive():
                    await writer.write(rows)
            elif writer is not None and not isinstance(writer, SqliteActionWriter):
                # PostgreSQL: the fences are checked in the writer's statement.
                lost = await writer.write(rows, self.fences, in_doubt=in_doubt)
                if lost:
                    batch = self._refuse_lost(batch, lost)
            else:
                async with self.exclusive(), self.engine.begin() as connection:
                    if self.fences is not None:
                        lost = await check_fences(
                            connection, self.fences, (row["table_id"] for row in rows)
                        )
                        if lost:
                            batch = self._refuse_lost(batch, lost)
                            rows = [row for row, _ in batch]
                    if rows:
                        await connection.execute(insert(models.ActionLog), rows)
        except Exception as error:
            if len(batch) > 1:
                # One bad row must not fail the others: write them one at a time. After a
                # batch whose commit is unknown, a row found stored as it is counts as written.
                doubt = in_doubt or isinstance(error, InDoubt)
                for item in batch:
                    await self._commit_actions([item], in_doubt=doubt)
                return
            if not batch[0][1].done():
                batch[0][1].set_exception(error)
            return
        self.action_commits += 1
        self.actions_written += len(batch)
        for _, done in batch:
            if not done.done():
                done.set_result(None)

    @staticmethod
    def _refuse_lost(batch: list[_Pending], lost: set[str]) -> list[_Pending]:
        """Fail the rows of tables whose lease is lost (nothing of theirs is written); the
        rest of the batch goes on."""
        kept = []
        for row, done in batch:
            if row["table_id"] in lost:
                if not done.done():
                    done.set_exception(LeaseLost(row["table_id"]))
            else:
                kept.append((row, done))
        return kept

    async def log_chat(self, table_id: str, record: ChatRecord) -> None:
        async with self.table_write(table_id) as session:
            session.add(
                models.ChatLog(
                    table_id=table_id,
                    seq=record.seq,
                    user_id=record.user_id,
                    name=record.name,
                    text=record.text,
                    at=record.at,
                )
            )

    async def log_match(
        self,
        table_id: str,
        match_no: int,
        *,
        players: list[str],
        totals: list[int],
        winner: int | None,
        ended: str,
        record: str,
        mp: list[int] | None = None,
        vp: list[int] | None = None,
    ) -> None:
        async with self.table_write(table_id) as session:
            await session.merge(
                models.MatchLog(
                    table_id=table_id,
                    match_no=match_no,
                    finished_at=_now(),
                    players=players,
                    totals=totals,
                    winner=winner,
                    ended=ended,
                    record=record,
                    mp=mp,
                    vp=vp,
                )
            )

    async def match_record(self, table_id: str, match_no: int) -> str | None:
        async with self.sessions() as session:
            row = await session.get(models.MatchLog, (table_id, match_no))
            return None if row is None else row.record

    async def matches(
        self, *, user_name: str | None = None, public_only: bool = True, limit: int = 50
    ) -> list[MatchInfo]:
        """The last finished matches (of ``user_name``'s, if given); ``public_only``: of
        public tables only (a private table's id is its invitation, issue 19). Never those of a
        same-cards round still being played (``hidden.same_cards_in_play``)."""
        match, smazzata = models.MatchLog, models.SmazzataLog
        # The smazzate log keeps every dealt smazzata; a finished one has its end (``ended``,
        # a plain string column, NULL until then; ``result`` is JSON, whose None is not NULL).
        finished = (
            select(func.count())
            .where(
                smazzata.table_id == match.table_id,
                smazzata.match_no == match.match_no,
                smazzata.ended.is_not(None),
            )
            .correlate(match)
            .scalar_subquery()
        )
        async with self.sessions() as session:
            query = (
                select(match, finished)
                .where(~same_cards_in_play(match.table_id))
                .order_by(match.finished_at.desc())
            )
            if public_only:
                table = models.GameTable
                query = query.join(table, table.id == match.table_id).where(table.public.is_(True))
            rows = (await session.execute(query.limit(limit * 4 if user_name else limit))).all()
        out = [
            MatchInfo(
                r.table_id,
                r.match_no,
                _aware(r.finished_at),
                list(r.players),
                list(r.totals),
                r.winner,
                r.ended,
                None if r.mp is None else list(r.mp),
                None if r.vp is None else list(r.vp),
                smazzate=int(count or 0),
            )
            for r, count in rows
            if user_name is None or user_name in r.players
        ]
        return out[:limit]

    # --------------------------------------------------------------------------- recovery

    async def load_log(
        self, table_id: str, match_no: int
    ) -> tuple[list[SmazzataRecord], list[ActionRecord], list[ChatRecord]]:
        """Everything needed to rebuild a table's match by replaying it."""
        async with self.sessions() as session:
            smazzate = (
                await session.scalars(
                    select(models.SmazzataLog)
                    .where(
                        models.SmazzataLog.table_id == table_id,
                        models.SmazzataLog.match_no == match_no,
                    )
                    .order_by(models.SmazzataLog.number)
                )
            ).all()
            actions = (
                await session.scalars(
                    select(models.ActionLog)
                    .where(
                        models.ActionLog.table_id == table_id,
                        models.ActionLog.match_no == match_no,
                    )
                    .order_by(models.ActionLog.seq)
                )
            ).all()
            chats = (
                await session.scalars(
                    select(models.ChatLog)
                    .where(models.ChatLog.table_id == table_id)
                    .order_by(models.ChatLog.seq)
                )
            ).all()
        return (
            [
                SmazzataRecord(
                    s.match_no,
                    s.number,
                    s.seq,
                    s.first,
                    s.late,
                    s.deck,
                    s.salt,
                    s.commitment,
                    s.dealt_at,
                    None if s.result is None else list(s.result),
                    s.ended,
                    s.fairness,
                )
                for s in smazzate
            ],
            [
                ActionRecord(a.seq, a.match_no, a.number, a.seat, a.action, a.at, a.auto, a.clock)
                for a in actions
            ],
            [ChatRecord(c.seq, c.user_id, c.name, c.text, c.at) for c in chats],
        )

    async def last_seq(self, table_id: str) -> int:
        """The highest event number persisted for a table (0 when none)."""
        async with self.sessions() as session:
            values = [
                await session.scalar(select(func.max(model.seq)).where(model.table_id == table_id))
                for model in (models.ActionLog, models.SmazzataLog, models.ChatLog)
            ]
        return max((v or 0) for v in values)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()
