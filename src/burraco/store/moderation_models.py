"""The schema of moderation (migration ``0008_moderation``): what players set about each other
(mute, block), reports with the message and its context, and the audit log of every moderator
action. Roles and sanctions are columns of ``models.User``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Relation(Base):
    __tablename__ = "user_relations"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``mute`` (his chat hidden from me), ``block`` (hidden, and he cannot invite me) or
    ``follow`` (friends follow each other)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Report(Base):
    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    target_name: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str | None] = mapped_column(String(16))
    seq: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str | None] = mapped_column(String(500))
    """The reported chat message, as stored."""
    context: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The table's chat lines before it: ``{name, text, at}``."""
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(8), default="open")
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    resolution: Mapped[str | None] = mapped_column(String(500), default=None)

    __table_args__ = (Index("ix_reports_status", "status", "created_at"),)


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    moderator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    moderator_name: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(24))
    target: Mapped[str] = mapped_column(String(64))
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
