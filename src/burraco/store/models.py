"""The database schema (SQLAlchemy 2 declarative models). Migrations live in ``migrations/``.

Gameplay is an append-only log: a table's smazzate (each with its deck, salt and commitment) and
its accepted actions in order. Everything else about a table in play (hands, melds, scores) is
recomputed by replaying that log through the engine, which is how a restarted server resumes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name folded to lower case: names are unique regardless of case."""
    name_skeleton: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    """What the name reads as (``names.skeleton``): a name reading like a taken one is taken.
    None only for an account older than this column whose skeleton an older account held."""
    password_hash: Mapped[str | None] = mapped_column(String(200))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    email: Mapped[str | None] = mapped_column(String(254), unique=True, default=None)
    """A verified address (lower case), or None; set only through its verification link."""
    mail_standings: Mapped[bool] = mapped_column(Boolean, default=False)
    """The player asked to receive online tournaments' standings by e-mail."""
    mail_invitations: Mapped[bool] = mapped_column(Boolean, default=False)
    """The player asked to be told by e-mail of the invitations and challenges he gets while
    he has no page of the site open (migration ``0010_mail_invitations``)."""
    role: Mapped[str] = mapped_column(String(16), default="player")
    """``player``, ``moderator`` or ``admin`` (docs/moderation.md)."""
    chat_muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    suspended_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_owner_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), default=None, index=True
    )
    """Set on a bot account (migration ``0012_bot_accounts``): the person who registered it.
    A bot plays with an API token (a session that lasts), never with a password."""


class Session(Base):
    """A login: a random token given to the client, stored only as its SHA-256."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameTable(Base):
    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for players), ``playing``, ``finished`` or ``abandoned``."""
    config: Mapped[dict[str, object]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    invite_code: Mapped[str | None] = mapped_column(String(32), unique=True)
    match_no: Mapped[int] = mapped_column(Integer, default=1)
    """The match being played at the table (a rematch starts the next one)."""
    owner_process: Mapped[str | None] = mapped_column(String(64))
    """Which server process runs the table (several processes may share the database)."""


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    bot: Mapped[str | None] = mapped_column(String(64))
    """A bot level when a bot holds the seat."""


class SmazzataLog(Base):
    """One dealt smazzata: its deck (top first), the salt and the commitment sent before play."""

    __tablename__ = "smazzate"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    """The table event number at which it was dealt."""
    first: Mapped[int] = mapped_column(Integer)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    deck: Mapped[str] = mapped_column(Text)
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    dealt_at: Mapped[float] = mapped_column(Float)
    result: Mapped[list[int] | None] = mapped_column(JSON)
    ended: Mapped[str | None] = mapped_column(String(16))
    fairness: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The players' seeds of the deal: the commitments and the seeds used (docs/protocol.md,
    "Fair deals"); null for a deal made before them, or a lesson's."""


class ActionLog(Base):
    """An accepted action, written before anyone is told about it."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    """The smazzata it belongs to."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(120))
    at: Mapped[float] = mapped_column(Float)
    """Server time (Unix seconds) when it was accepted."""
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played automatically (turn timer T13, or a bot holding an absent player's seat)."""
    clock: Mapped[dict[str, object] | None] = mapped_column(JSON)
    """The clocks after the action, to resume them after a restart."""


Index("ix_actions_table_match", ActionLog.table_id, ActionLog.match_no)


class ChatLog(Base):
    __tablename__ = "chat"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[float] = mapped_column(Float)


class MatchLog(Base):
    """A finished (or abandoned) match: its record, downloadable and replayable."""

    __tablename__ = "matches"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    players: Mapped[list[str]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer)
    ended: Mapped[str] = mapped_column(String(16))
    """``complete``, ``timeout`` (T14) or ``abandoned``."""
    record: Mapped[str] = mapped_column(Text)
    mp: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    """Match points by line when they apply (T14's technical score after a timeout)."""
    vp: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    """Victory points by line when they apply."""


class Node(Base):
    """A running server process of a cluster (docs/cluster.md). ``id`` is the process's own
    instance (its ``--node`` name and a random suffix drawn at start), so that a process
    restarted under the same name never inherits the leases of the one that died. Times are
    the database's clock in seconds since the epoch: every machine reads one clock."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(200))
    started_at: Mapped[float] = mapped_column(Float)
    heartbeat_at: Mapped[float] = mapped_column(Float)
    draining: Mapped[bool] = mapped_column(Boolean, default=False)
    tables: Mapped[int] = mapped_column(Integer, default=0)
    """The live tables it runs (its load, for placing new tables)."""


class TableLease(Base):
    """Which process runs a table, and the fencing token of that ownership: every claim bumps
    ``token``, and every write of the table's log checks it in its own transaction, so a
    process that lost the table can never append to its log (``lease_store``)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    node: Mapped[str | None] = mapped_column(String(80), index=True)
    """The owning ``Node.id``; None: released (any process may claim it at once)."""
    token: Mapped[int] = mapped_column(BigInteger)
    since: Mapped[float] = mapped_column(Float)


class ClusterRole(Base):
    """A job one process of a cluster does for all (``tournaments``: running the online
    tournaments, quick play and recurring events), held like a table's lease."""

    __tablename__ = "cluster_roles"

    role: Mapped[str] = mapped_column(String(32), primary_key=True)
    node: Mapped[str | None] = mapped_column(String(80))
    token: Mapped[int] = mapped_column(BigInteger)
    since: Mapped[float] = mapped_column(Float)
