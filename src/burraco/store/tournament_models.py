"""The schema of online tournaments (tables ``tournament_*``, migration ``0003_tournaments``).

A tournament row holds its settings and where it stands; its entrants are listed in
registration order; each round keeps what the pairing system produced (byes, a knockout's
bracket slots) and each of its tables the server table it is played on and, once that table has
finished, its result. Standings are never stored: they are recomputed from the results with
``burraco.tournament`` whenever they are needed, so they can never disagree with them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    start: Mapped[str] = mapped_column(String(16))
    """``sitgo`` (starts when ``size`` entrants have registered) or ``scheduled``."""
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    """A scheduled tournament's start; registration closes 2 minutes before (T1)."""
    size: Mapped[int | None] = mapped_column(Integer)
    """A Sit&Go's number of entrants."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Kind, system, rounds, ruleset, smazzate per round, clock, VP table, absent players."""
    seed: Mapped[int] = mapped_column(BigInteger)
    """Seeds the draws (round 1, knockout brackets, random tie-breaks): the same after a
    restart."""
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    note: Mapped[str | None] = mapped_column(String(200))
    """Why it was cancelled, in words."""


class TournamentEntrant(Base):
    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    entrant: Mapped[str] = mapped_column(String(24), primary_key=True)
    """``u<user id>`` for a person (or the pair he registered), ``b<n>`` for a bot entrant."""
    position: Mapped[int] = mapped_column(Integer)
    """Registration order (T1 excludes the latest registrants)."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    """A fixed pair's second player (the first is ``user_id``, who registered the pair)."""
    bot: Mapped[str | None] = mapped_column(String(64))
    """A bot entrant's level (both seats of a bot pair)."""
    name: Mapped[str] = mapped_column(String(80))
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))
    """``invited`` (a pair waiting for the partner to confirm), ``registered``, ``playing``
    (admitted at the start), ``excluded`` (beyond the multiple of the table size, or the
    tournament was cancelled: T1), ``unconfirmed`` (a pair the partner never confirmed)."""


class TournamentRound(Base):
    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list[str]] = mapped_column(JSON)
    relaxed: Mapped[bool] = mapped_column(Boolean, default=False)
    slots: Mapped[list[str | None] | None] = mapped_column(JSON)
    """A knockout round's bracket slots (None: a bye)."""
    status: Mapped[str] = mapped_column(String(16))
    """``playing`` or ``finished``."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TournamentTable(Base):
    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    lines: Mapped[list[list[str]]] = mapped_column(JSON)
    """Line 0 (NS: seats 0 and 2) and line 1 (EW: seats 1 and 3): entrant ids."""
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), index=True
    )
    """The server table being played now."""
    played: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    """Knockout ties: the matches already played at this pairing (``{table_id, totals,
    closings}``) before the extra smazzata being played now (T23)."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """``{totals, timed_out, closings, mp, vp, ended}`` once the table has finished."""


class RecurringEvent(Base):
    """An organiser's schedule (``burraco.tournament.recurrence``): the server creates each
    event ahead of its start with ``settings`` (migration ``0009_recurring_events``)."""

    __tablename__ = "recurring_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    weekdays: Mapped[list[int]] = mapped_column(JSON)
    at: Mapped[str] = mapped_column(String(5))
    """``HH:MM`` on the organiser's clock."""
    zone: Mapped[str] = mapped_column(String(64))
    lead_minutes: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The tournament's settings as ``POST /api/tournaments`` takes them (without its start)."""
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_start: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """The start of the last event created (the next one comes after it)."""
