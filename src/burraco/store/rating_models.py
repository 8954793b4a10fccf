"""The schema of ratings (tables ``ratings``, ``rating_history``, ``rating_months``,
``rated_matches``; migration ``0005_ratings``; ``pending_ratings``, ``0016_pending_ratings``).

A player's current rating per mode is one row, updated in the transaction that rates a match;
each rated match adds one history row per person (the profile's chart, the monthly
leaderboards); ``rated_matches`` makes rating a match idempotent (a server that resumes and
finishes a match again does not rate it twice). Bots are not stored: their ratings are the fixed
anchors of ``burraco.ratings``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class PlayerRating(Base):
    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    mode: Mapped[str] = mapped_column(String(4), primary_key=True)
    """``2p``, ``3p`` or ``4p`` (burraco.ratings.Mode)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    abandoned: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    # The leaderboard: a mode's players by rating.
    __table_args__ = (Index("ix_ratings_mode_mu", "mode", "mu"),)


class RatingEvent(Base):
    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(String(4))
    table_id: Mapped[str] = mapped_column(String(16))
    match_no: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float] = mapped_column(Float)
    """The rating after the match."""
    sigma: Mapped[float] = mapped_column(Float)
    delta: Mapped[float] = mapped_column(Float)
    """``mu`` after minus before (the penalty of an abandonment included)."""
    result: Mapped[str] = mapped_column(String(10))
    """``win``, ``loss``, ``draw``, ``abandoned`` (the leaver) or ``held`` (his partner)."""

    __table_args__ = (
        Index("ix_rating_history_user", "user_id", "mode", "at"),
        Index("ix_rating_history_mode_at", "mode", "at"),
    )


class RatingMonth(Base):
    """A player's month in a mode: the monthly leaderboard reads these rows by index instead
    of aggregating the month's history (bench/ratings_bench.py)."""

    __tablename__ = "rating_months"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    mode: Mapped[str] = mapped_column(String(4), primary_key=True)
    month: Mapped[str] = mapped_column(String(7), primary_key=True)
    """``YYYY-MM`` (UTC)."""
    mu: Mapped[float] = mapped_column(Float)
    """The rating after the player's last rated match of the month."""
    sigma: Mapped[float] = mapped_column(Float)
    delta: Mapped[float] = mapped_column(Float)
    """The month's change."""
    matches: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_rating_months_board", "mode", "month", "mu"),)


class PlayerMatch(Base):
    """A finished match as one of its players played it (the profile's history, statistics
    and head-to-head; migration ``0007_player_matches``)."""

    __tablename__ = "player_matches"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mode: Mapped[str] = mapped_column(String(4))
    rules: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean)
    result: Mapped[str] = mapped_column(String(8))
    """``win``, ``loss`` or ``draw``."""
    ended: Mapped[str] = mapped_column(String(16))
    smazzate: Mapped[int] = mapped_column(Integer)
    mp: Mapped[int] = mapped_column(Integer)
    burrachi_clean: Mapped[int] = mapped_column(Integer)
    burrachi_dirty: Mapped[int] = mapped_column(Integer)
    pozzetti: Mapped[int] = mapped_column(Integer)
    closings: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str]] = mapped_column(JSON)
    """The names by seat (the opponents and the partner of the head-to-head)."""
    opponent_ids: Mapped[list[int]] = mapped_column(JSON)
    """The opposing people's user ids (head-to-head)."""

    __table_args__ = (Index("ix_player_matches_user_at", "user_id", "finished_at"),)


class RatedMatch(Base):
    __tablename__ = "rated_matches"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(4))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PendingRating(Base):
    """A rated match whose rating waits for its same-cards round to be over (its result would
    tell the cards to the round's other tables, docs/tournaments.md): what rating it takes,
    stored when it ends; rated and removed once the round is over (migration
    ``0016_pending_ratings``)."""

    __tablename__ = "pending_ratings"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    mode: Mapped[str] = mapped_column(String(4))
    seats: Mapped[list[str]] = mapped_column(JSON)
    """``user:ID`` or ``bot:LEVEL`` per seat (``RatingStore.rate_match``'s)."""
    outcome: Mapped[dict[str, list[Any]]] = mapped_column(JSON)
    """``burraco.ratings.MatchOutcome``: ``{teams, ranks, held, penalised}`` (seat numbers)."""
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
