"""The schema of the bot's reviews (migration ``0013_reviews``): one row per finished match and
seat reviewed, with its state and, once done, the review's JSON (``burraco.bots.review``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Review(Base):
    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16))
    match_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8))
    """``queued``, ``running``, ``done`` or ``failed`` (``review_store.ReviewStatus``)."""
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    """Who asked last (a failed review asked again is asked by the new requester)."""
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    seconds: Mapped[float] = mapped_column(Float)
    """The budget per decision it was (or is to be) computed with."""
    node: Mapped[str | None] = mapped_column(String(80))
    """The cluster process that runs it (its ``--node`` name); None: a server alone."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(String(500))

    __table_args__ = (
        UniqueConstraint("table_id", "match_no", "seat", name="uq_reviews_match_seat"),
        Index("ix_reviews_requester", "requested_by", "requested_at"),
        Index("ix_reviews_status", "status"),
    )
