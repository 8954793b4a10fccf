"""The schema of lasting accounts (migration ``0006_accounts``): single-use tokens for the
e-mail verification and password reset links, and the mails sent (to limit them per address and
per account; ``sender_id``, migration ``0010_mail_invitations``: per inviter too). The users'
own ``email``, ``mail_standings`` and ``mail_invitations`` are in ``models.User``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class AccountToken(Base):
    """A link's token: random, given once in the mail, stored only as its SHA-256 (like the
    sessions), valid until ``expires_at`` and for one use."""

    __tablename__ = "account_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    """``verify`` (an address to confirm) or ``reset`` (a new password)."""
    email: Mapped[str] = mapped_column(String(254))
    """The address the link was sent to."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class MailSent(Base):
    __tablename__ = "mail_sent"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    purpose: Mapped[str] = mapped_column(String(16))
    """``verify``, ``reset`` or ``invitation``."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sender_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    """Whose doing the mail is, when it is another player's (an invitation's inviter)."""

    __table_args__ = (
        Index("ix_mail_sent_email_at", "email", "at"),
        Index("ix_mail_sent_user_at", "user_id", "at"),
    )
