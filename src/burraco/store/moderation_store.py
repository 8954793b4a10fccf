"""Moderation in the database (``ModerationStore(store)``): players' mutes and blocks, reports
with the message and its context, the moderators' sanctions (chat mute for a time, suspension,
ban, roles) and the audit log every one of them writes in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from . import models
from . import moderation_models as mm
from .store import Store, _aware

ROLES = ("player", "moderator", "admin")
KINDS = ("mute", "block", "follow")


@dataclass(frozen=True, slots=True)
class Standing:
    """What moderation says of a user now."""

    user_id: int
    name: str
    role: str
    chat_muted_until: datetime | None
    suspended_until: datetime | None
    banned: bool

    def muted(self, now: datetime) -> bool:
        return self.chat_muted_until is not None and self.chat_muted_until > now

    def shut_out(self, now: datetime) -> bool:
        """Banned, or suspended until later than ``now``: no login, no session."""
        return self.banned or (self.suspended_until is not None and self.suspended_until > now)


@dataclass(frozen=True, slots=True)
class ReportRow:
    id: int
    reporter: str | None
    target: str
    table_id: str | None
    seq: int | None
    text: str | None
    context: list[dict[str, Any]]
    reason: str
    created_at: datetime
    status: str
    resolution: str | None


def _opt(moment: datetime | None) -> datetime | None:
    return None if moment is None else _aware(moment)


class ModerationStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def standing(self, user_id: int) -> Standing | None:
        async with self.store.sessions() as session:
            user = await session.get(models.User, user_id)
        if user is None:
            return None
        return Standing(
            user.id,
            user.name,
            user.role,
            _opt(user.chat_muted_until),
            _opt(user.suspended_until),
            user.banned,
        )

    # --------------------------------------------------------------- mutes and blocks

    async def relate(self, user_id: int, other_id: int, kind: str, *, now: datetime) -> None:
        async with self.store.write() as session:
            await session.merge(
                mm.Relation(user_id=user_id, other_id=other_id, kind=kind, created_at=now)
            )

    async def unrelate(self, user_id: int, other_id: int, kind: str) -> None:
        r = mm.Relation
        async with self.store.write() as session:
            await session.execute(
                delete(r).where(r.user_id == user_id, r.other_id == other_id, r.kind == kind)
            )

    async def relations(self, user_id: int) -> dict[str, list[str]]:
        r = mm.Relation
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(r.kind, models.User.name)
                    .join(models.User, models.User.id == r.other_id)
                    .where(r.user_id == user_id)
                    .order_by(models.User.name)
                )
            ).all()
        out: dict[str, list[str]] = {"mute": [], "block": []}  # follows: the friends' list
        for kind, name in rows:
            if kind in out:
                out[kind].append(name)
        return out

    async def followers(self, user_id: int) -> set[int]:
        """Who follows ``user_id`` (a friend is a follow both ways)."""
        r = mm.Relation
        async with self.store.sessions() as session:
            rows = (
                await session.scalars(
                    select(r.user_id).where(r.other_id == user_id, r.kind == "follow")
                )
            ).all()
        return set(rows)

    async def followed(self, user_id: int) -> dict[int, str]:
        """Whom ``user_id`` follows: id -> name."""
        r = mm.Relation
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(r.other_id, models.User.name)
                    .join(models.User, models.User.id == r.other_id)
                    .where(r.user_id == user_id, r.kind == "follow")
                    .order_by(models.User.name)
                )
            ).all()
        return {int(uid): str(name) for uid, name in rows}  # Row -> plain values

    async def blocks(self, user_id: int, other_id: int) -> bool:
        """Whether ``user_id`` has blocked ``other_id`` (who then cannot invite him)."""
        async with self.store.sessions() as session:
            row = await session.get(mm.Relation, (user_id, other_id, "block"))
        return row is not None

    # ------------------------------------------------------------------------- reports

    async def report(
        self,
        *,
        reporter_id: int,
        target_id: int,
        target_name: str,
        table_id: str | None,
        seq: int | None,
        reason: str,
        now: datetime,
        context_lines: int = 10,
    ) -> int:
        """A report; with ``table_id`` and ``seq`` the chat message it is about (as stored, by
        its author, or a ValueError) and the lines before it."""
        text: str | None = None
        context: list[dict[str, Any]] = []
        async with self.store.write() as session:
            if table_id is not None and seq is not None:
                line = await session.get(models.ChatLog, (table_id, seq))
                if line is None or line.user_id != target_id:
                    raise ValueError("no such chat message of that player at that table")
                text = line.text
                before = (
                    await session.scalars(
                        select(models.ChatLog)
                        .where(models.ChatLog.table_id == table_id, models.ChatLog.seq < seq)
                        .order_by(models.ChatLog.seq.desc())
                        .limit(context_lines)
                    )
                ).all()
                context = [{"name": c.name, "text": c.text, "at": c.at} for c in reversed(before)]
            row = mm.Report(
                reporter_id=reporter_id,
                target_id=target_id,
                target_name=target_name,
                table_id=table_id,
                seq=seq,
                text=text,
                context=context,
                reason=reason,
                created_at=now,
                status="open",
            )
            session.add(row)
            await session.flush()
            return int(row.id)

    async def reports(self, *, status: str = "open", limit: int = 100) -> list[ReportRow]:
        rep = mm.Report
        reporter = models.User
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(rep, reporter.name)
                    .outerjoin(reporter, reporter.id == rep.reporter_id)
                    .where(rep.status == status)
                    .order_by(rep.created_at.desc())
                    .limit(limit)
                )
            ).all()
        return [
            ReportRow(
                r.id,
                name,
                r.target_name,
                r.table_id,
                r.seq,
                r.text,
                list(r.context),
                r.reason,
                _aware(r.created_at),
                r.status,
                r.resolution,
            )
            for r, name in rows
        ]

    # ---------------------------------------------------------------------- sanctions

    async def sanction(
        self,
        moderator: Standing,
        action: str,
        target: str,
        *,
        now: datetime,
        user_id: int | None = None,
        values: dict[str, Any] | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        """Change a user's row (``values``: role, chat_muted_until, suspended_until, banned)
        and write the audit entry, in one transaction."""
        async with self.store.write() as session:
            if user_id is not None and values:
                user = await session.get(models.User, user_id)
                if user is None:
                    raise ValueError("no such user")
                for key, value in values.items():
                    setattr(user, key, value)
            session.add(
                mm.AuditEntry(
                    moderator_id=moderator.user_id or None,  # 0: the command line
                    moderator_name=moderator.name,
                    action=action,
                    target=target,
                    details=details or {},
                    at=now,
                )
            )

    async def close_report(
        self, moderator: Standing, report_id: int, resolution: str, *, now: datetime
    ) -> None:
        async with self.store.write() as session:
            row = await session.get(mm.Report, report_id)
            if row is None:
                raise ValueError("no such report")
            row.status, row.resolution = "closed", resolution
            row.handled_by = moderator.user_id or None  # 0: the command line
            session.add(
                mm.AuditEntry(
                    moderator_id=moderator.user_id or None,  # 0: the command line
                    moderator_name=moderator.name,
                    action="close_report",
                    target=f"report:{report_id}",
                    details={"resolution": resolution},
                    at=now,
                )
            )

    async def audit(self, *, limit: int = 100) -> list[dict[str, Any]]:
        a = mm.AuditEntry
        async with self.store.sessions() as session:
            rows = (
                await session.scalars(select(a).order_by(a.at.desc(), a.id.desc()).limit(limit))
            ).all()
        return [
            {
                "moderator": r.moderator_name,
                "action": r.action,
                "target": r.target,
                "details": r.details,
                "at": _aware(r.at).isoformat(),
            }
            for r in rows
        ]
