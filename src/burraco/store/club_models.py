"""The club manager's schema (tables ``club_*``): clubs, members, seasons and their evenings
played with real cards, check-ins, the drawn rests and seatings of each game, table results,
score checks, the audit trail of every officer's change, fees, payments and prizes.

Self-contained: the only link to the rest of the platform is a member's (optional) platform
account (``users.id``), through which officers and members log in to the club pages. Migration
``0002_club`` creates these tables.
"""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    Text,
    Time,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Club(Base):
    __tablename__ = "club_clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    timezone: Mapped[str] = mapped_column(String(64))
    """IANA name (``Europe/Rome``): evenings and check-in windows are in the club's local time."""
    place: Mapped[str] = mapped_column(String(200), default="")
    """Where the evenings are played (the calendar's LOCATION)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubMember(Base):
    __tablename__ = "club_members"
    __table_args__ = (
        UniqueConstraint("club_id", "name", name="uq_club_members_name"),
        UniqueConstraint("club_id", "user_id", name="uq_club_members_user"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(
        ForeignKey("club_clubs.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str | None] = mapped_column(String(254))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    """The platform account the member logs in with (None: no login, an officer acts for him)."""
    officer: Mapped[bool] = mapped_column(Boolean, default=False)
    """One of the club's *Responsabili*: may change results, fees and the calendar."""
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubSeason(Base):
    """One tournament of the club's year (seed 003: two a year of about 15 evenings each).

    The settings have no defaults here: a row is always made of a whole ``SeasonSettings``
    (``burraco.tournament.season``), where the defaults are written."""

    __tablename__ = "club_seasons"
    __table_args__ = (UniqueConstraint("club_id", "name", name="uq_club_seasons_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(
        ForeignKey("club_clubs.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(80))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    weekday: Mapped[int] = mapped_column(Integer)
    """The evenings' day of the week for the calendar (Monday 0, Friday 4)."""
    checkin_opens: Mapped[time] = mapped_column(Time)
    checkin_closes: Mapped[time] = mapped_column(Time)
    break_minutes: Mapped[int] = mapped_column(Integer)
    seating: Mapped[str] = mapped_column(String(16))
    two_left_over: Mapped[str] = mapped_column(String(16))
    vp_table: Mapped[str] = mapped_column(String(16))
    monthly_fee_cents: Mapped[int] = mapped_column(Integer)
    pool_share_cents: Mapped[int] = mapped_column(Integer)
    """Of each monthly fee, what goes to the prize pool (*montepremi*)."""
    weekly_prize_cents: Mapped[int] = mapped_column(Integer)
    season_prizes_cents: Mapped[list[int]] = mapped_column(JSON)
    """The value of the prizes of places 1, 2, 3 (non-monetary prizes bought from the pool)."""
    rules_note: Mapped[str] = mapped_column(Text)
    """The club's own words added to the rules sent with the calendar."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubEvening(Base):
    __tablename__ = "club_evenings"
    __table_args__ = (UniqueConstraint("season_id", "date", name="uq_club_evenings_date"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("club_seasons.id", ondelete="CASCADE"), index=True
    )
    date: Mapped[date] = mapped_column(Date)
    type: Mapped[str] = mapped_column(String(16))
    """``internazionale`` (3 games of 50 minutes) or ``italiano`` (4 games of 35 minutes)."""
    one_game_fewer: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="scheduled")
    """``scheduled``, ``playing`` (seats drawn), ``finished`` (every game's results in) or
    ``cancelled``."""
    seed: Mapped[int | None] = mapped_column(BigInteger)
    """The draw's seed: each game's draw is ``random.Random(f"{seed}:{game}")``, reproducible."""
    stations: Mapped[list[int] | None] = mapped_column(JSON)
    """The member ids in the order drawn when check-in closed."""
    drawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the partial and general standings were last e-mailed."""
    note: Mapped[str] = mapped_column(String(200), default="")


class ClubCheckin(Base):
    __tablename__ = "club_checkins"

    evening_id: Mapped[int] = mapped_column(
        ForeignKey("club_evenings.id", ondelete="CASCADE"), primary_key=True
    )
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    """After the window closed: admitted only by an officer's override."""
    recorded_by: Mapped[str] = mapped_column(String(64))
    override_by: Mapped[str | None] = mapped_column(String(64))
    override_reason: Mapped[str | None] = mapped_column(Text)


class ClubGame(Base):
    __tablename__ = "club_games"

    evening_id: Mapped[int] = mapped_column(
        ForeignKey("club_evenings.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    drawn: Mapped[bool] = mapped_column(Boolean, default=True)
    """False: the seating was entered by hand (seed 003's *sorteggio manuale*)."""
    relaxed: Mapped[bool] = mapped_column(Boolean, default=False)
    """A partner had to repeat: no seating without one existed."""
    seated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the room's timer was started for this game."""


class ClubSeat(Base):
    __tablename__ = "club_seats"
    __table_args__ = (
        ForeignKeyConstraint(
            ["evening_id", "game"],
            ["club_games.evening_id", "club_games.number"],
            ondelete="CASCADE",
        ),
        UniqueConstraint(
            "evening_id", "game", "table_no", "line", "position", name="uq_club_seats_place"
        ),
    )

    evening_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    """0 = NS, 1 = EW."""
    position: Mapped[int] = mapped_column(Integer)
    """0 or 1 within the line (partners sit opposite)."""


class ClubRest(Base):
    __tablename__ = "club_rests"
    __table_args__ = (
        ForeignKeyConstraint(
            ["evening_id", "game"],
            ["club_games.evening_id", "club_games.number"],
            ondelete="CASCADE",
        ),
    )

    evening_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), primary_key=True)
    drawn: Mapped[bool] = mapped_column(Boolean, default=True)
    """False: set by an officer (a swap or a seating entered by hand)."""


class ClubResult(Base):
    __tablename__ = "club_results"
    __table_args__ = (
        ForeignKeyConstraint(
            ["evening_id", "game"],
            ["club_games.evening_id", "club_games.number"],
            ondelete="CASCADE",
        ),
    )

    evening_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    ns: Mapped[int] = mapped_column(Integer)
    ew: Mapped[int] = mapped_column(Integer)
    smazzate: Mapped[list[list[int]] | None] = mapped_column(JSON)
    """The scoresheet's smazzate ([ns, ew] each), when entered: they must add up to the totals."""
    timed_out: Mapped[int | None] = mapped_column(Integer)
    """The line (0 NS, 1 EW) that ran out of time: T14's technical score."""
    entered_by: Mapped[str] = mapped_column(String(64))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    corrections: Mapped[int] = mapped_column(Integer, default=0)


class ClubScoreCheck(Base):
    """A player's request, during the break, to check a published score (seed 003)."""

    __tablename__ = "club_score_checks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    evening_id: Mapped[int] = mapped_column(
        ForeignKey("club_evenings.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("club_members.id"))
    requested_by: Mapped[str] = mapped_column(String(64))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    note: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open``, ``confirmed`` (the score stands) or ``corrected``."""
    resolved_by: Mapped[str | None] = mapped_column(String(64))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resolution: Mapped[str | None] = mapped_column(Text)


class ClubAudit(Base):
    """The audit trail: who changed what, when and why (results, rests, check-ins, fees...)."""

    __tablename__ = "club_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(
        ForeignKey("club_clubs.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(String(200))
    season_id: Mapped[int | None] = mapped_column(Integer)
    evening_id: Mapped[int | None] = mapped_column(Integer)
    """Plain numbers, no foreign keys: the trail outlives what it describes."""
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text)


class ClubCharge(Base):
    """An officer's adjustment of what a member owes, with its reason: an extra charge, or a
    waiver (negative). The monthly fees themselves are not stored: they follow from attendance
    (``burraco.club.fees``), so a corrected check-in corrects them too."""

    __tablename__ = "club_charges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("club_seasons.id", ondelete="CASCADE"), index=True
    )
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), index=True)
    due_on: Mapped[date] = mapped_column(Date)
    amount_cents: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubPayment(Base):
    __tablename__ = "club_payments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("club_seasons.id", ondelete="CASCADE"), index=True
    )
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), index=True)
    amount_cents: Mapped[int] = mapped_column(Integer)
    paid_on: Mapped[date] = mapped_column(Date)
    note: Mapped[str] = mapped_column(String(200), default="")
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClubPrize(Base):
    """A prize awarded when the season closes: a weekly prize (best evening) or a top-3 prize."""

    __tablename__ = "club_prizes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("club_seasons.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    """``weekly`` or ``season``."""
    evening_id: Mapped[int | None] = mapped_column(
        ForeignKey("club_evenings.id", ondelete="SET NULL")
    )
    place: Mapped[int | None] = mapped_column(Integer)
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id"), index=True)
    value_cents: Mapped[int] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(String(200), default="")
    awarded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    delivered_on: Mapped[date | None] = mapped_column(Date)
