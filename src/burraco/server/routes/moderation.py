"""Moderation over HTTP (issue 16; docs/moderation.md): players mute, block and report; the
moderators mute a chat for a time, suspend, ban, close a table and handle reports; the
administrators also give roles and announce to every page. Every moderator action writes the
audit log; a player asking for a moderator's power gets ``403 forbidden`` and changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode, ServiceError
from burraco.store import Standing, UserInfo

from ..table import commands
from .deps import MAX_ID, CurrentUser, HubDep, PathId
from .models import INVALID, answers

Name = Annotated[str, Path(min_length=1, max_length=32)]


class RelationRequest(BaseModel):
    player: str = Field(min_length=1, max_length=32)
    kind: Literal["mute", "block"]


class ReportRequest(BaseModel):
    player: str = Field(min_length=1, max_length=32)
    reason: str = Field(min_length=1, max_length=500)
    table: str | None = Field(None, max_length=16, description="With seq: the chat message")
    seq: int | None = Field(None, ge=1, le=MAX_ID, description="The chat event's seq at that table")


class MuteRequest(BaseModel):
    minutes: int = Field(ge=1, le=60 * 24 * 30)
    reason: str = Field("", max_length=500)


class SuspendRequest(BaseModel):
    days: int = Field(ge=1, le=3650)
    reason: str = Field("", max_length=500)


class ReasonRequest(BaseModel):
    reason: str = Field("", max_length=500)


class RoleRequest(BaseModel):
    role: Literal["player", "moderator", "admin"]


class CloseReport(BaseModel):
    resolution: str = Field(min_length=1, max_length=500)


class Announce(BaseModel):
    text: str = Field(min_length=1, max_length=500)


async def _other(hub: Any, name: str, me: UserInfo) -> UserInfo:
    other: UserInfo | None = await hub.store.user_by_name(name)
    if other is None:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"there is no player {name!r}")
    if other.id == me.id:
        raise ServiceError(ErrorCode.BAD_INPUT, "that is yourself", detail="yourself")
    return other


async def _power(hub: Any, user: UserInfo, *, admin: bool = False) -> Standing:
    standing: Standing | None = await hub.moderation.standing(user.id)
    wanted = ("admin",) if admin else ("moderator", "admin")
    if standing is None or standing.role not in wanted:
        raise ServiceError(
            ErrorCode.FORBIDDEN,
            f"this needs a{'n administrator' if admin else ' moderator'}",
            detail="needs_admin" if admin else "needs_moderator",
        )
    return standing


# ---------------------------------------------------------------------------- players


async def relations(user: CurrentUser, hub: HubDep) -> dict[str, list[str]]:
    result: dict[str, list[str]] = await hub.moderation.relations(user.id)
    return result


async def relate(body: RelationRequest, user: CurrentUser, hub: HubDep) -> dict[str, list[str]]:
    other = await _other(hub, body.player, user)
    await hub.moderation.relate(user.id, other.id, body.kind, now=hub.clock.utcnow())
    result: dict[str, list[str]] = await hub.moderation.relations(user.id)
    return result


async def unrelate(body: RelationRequest, user: CurrentUser, hub: HubDep) -> dict[str, list[str]]:
    other = await _other(hub, body.player, user)
    await hub.moderation.unrelate(user.id, other.id, body.kind)
    result: dict[str, list[str]] = await hub.moderation.relations(user.id)
    return result


async def report(body: ReportRequest, user: CurrentUser, hub: HubDep) -> dict[str, int]:
    """Report a player, or one of his chat messages (``table`` and ``seq``): the report keeps
    the message as stored and the lines before it."""
    other = await _other(hub, body.player, user)
    if (body.table is None) != (body.seq is None):
        raise ServiceError(ErrorCode.BAD_INPUT, "a chat message is named by its table and seq")
    try:
        number = await hub.moderation.report(
            reporter_id=user.id,
            target_id=other.id,
            target_name=other.name,
            table_id=body.table,
            seq=body.seq,
            reason=body.reason,
            now=hub.clock.utcnow(),
        )
    except ValueError as error:
        raise ServiceError(ErrorCode.NOT_FOUND, str(error), detail="no_such_message") from None
    return {"id": number}


# ------------------------------------------------------------------------- moderators


async def open_reports(
    user: CurrentUser, hub: HubDep, status: str = "open"
) -> list[dict[str, Any]]:
    await _power(hub, user)
    rows = await hub.moderation.reports(status="closed" if status == "closed" else "open")
    return [
        {
            "id": r.id,
            "reporter": r.reporter,
            "player": r.target,
            "table": r.table_id,
            "seq": r.seq,
            "text": r.text,
            "context": r.context,
            "reason": r.reason,
            "created_at": r.created_at.isoformat(),
            "status": r.status,
            "resolution": r.resolution,
        }
        for r in rows
    ]


async def close_report(
    number: PathId, body: CloseReport, user: CurrentUser, hub: HubDep
) -> Response:
    moderator = await _power(hub, user)
    try:
        await hub.moderation.close_report(
            moderator, number, body.resolution, now=hub.clock.utcnow()
        )
    except ValueError as error:
        raise ServiceError(ErrorCode.NOT_FOUND, str(error), detail="no_such_report") from None
    return Response(status_code=204)


async def _sanction(
    hub: Any,
    user: UserInfo,
    name: str,
    *,
    action: str,
    values: dict[str, Any],
    details: dict[str, Any],
    admin: bool = False,
) -> dict[str, Any]:
    moderator = await _power(hub, user, admin=admin)
    target = await _other(hub, name, user)
    standing: Standing = await hub.moderation.standing(target.id)
    if standing.role == "admin" and moderator.role != "admin":
        raise ServiceError(
            ErrorCode.FORBIDDEN,
            "a moderator cannot sanction an administrator",
            detail="admin_protected",
        )
    await hub.moderation.sanction(
        moderator,
        action,
        f"user:{target.name}",
        now=hub.clock.utcnow(),
        user_id=target.id,
        values=values,
        details=details,
    )
    if action in ("suspend", "ban"):
        hub.end_sessions_hashed(await hub.accounts.end_sessions(target.id))
        hub.end_user(target.id)
    after: Standing = await hub.moderation.standing(target.id)
    return _standing_json(after)


def _standing_json(s: Standing) -> dict[str, Any]:
    def iso(moment: datetime | None) -> str | None:
        return None if moment is None else moment.isoformat()

    return {
        "name": s.name,
        "role": s.role,
        "chat_muted_until": iso(s.chat_muted_until),
        "suspended_until": iso(s.suspended_until),
        "banned": s.banned,
    }


async def user_standing(name: Name, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    await _power(hub, user)
    target = await hub.store.user_by_name(name)
    if target is None:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"there is no player {name!r}")
    standing = await hub.moderation.standing(target.id)
    assert standing is not None
    return _standing_json(standing)


async def mute(name: Name, body: MuteRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    until = hub.clock.utcnow() + timedelta(minutes=body.minutes)
    return await _sanction(
        hub,
        user,
        name,
        action="mute",
        values={"chat_muted_until": until},
        details={"minutes": body.minutes, "reason": body.reason},
    )


async def suspend(
    name: Name, body: SuspendRequest, user: CurrentUser, hub: HubDep
) -> dict[str, Any]:
    until = hub.clock.utcnow() + timedelta(days=body.days)
    return await _sanction(
        hub,
        user,
        name,
        action="suspend",
        values={"suspended_until": until},
        details={"days": body.days, "reason": body.reason},
    )


async def ban(name: Name, body: ReasonRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await _sanction(
        hub, user, name, action="ban", values={"banned": True}, details={"reason": body.reason}
    )


async def pardon(name: Name, body: ReasonRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    values = {"banned": False, "suspended_until": None, "chat_muted_until": None}
    return await _sanction(
        hub, user, name, action="pardon", values=values, details={"reason": body.reason}
    )


async def set_role(name: Name, body: RoleRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await _sanction(
        hub,
        user,
        name,
        action="role",
        values={"role": body.role},
        details={"role": body.role},
        admin=True,
    )


async def close_table(
    table_id: str, body: ReasonRequest, user: CurrentUser, hub: HubDep
) -> dict[str, Any]:
    moderator = await _power(hub, user)
    actor = await hub.table(table_id)
    info: dict[str, Any] = await actor.call(commands.Close(user))
    await hub.moderation.sanction(
        moderator,
        "close_table",
        f"table:{table_id}",
        now=hub.clock.utcnow(),
        details={"reason": body.reason},
    )
    return info


async def audit(user: CurrentUser, hub: HubDep) -> list[dict[str, Any]]:
    await _power(hub, user)
    result: list[dict[str, Any]] = await hub.moderation.audit()
    return result


async def announce(body: Announce, user: CurrentUser, hub: HubDep) -> dict[str, int]:
    moderator = await _power(hub, user, admin=True)
    told = hub.announce(body.text, hub.clock.now())
    await hub.moderation.sanction(
        moderator,
        "announce",
        "everyone",
        now=hub.clock.utcnow(),
        details={"text": body.text, "told": told},
    )
    return {"told": told}


async def last_announcement(hub: HubDep) -> dict[str, Any]:
    return (
        dict(hub.announcement)
        if hub.announcement
        else {"type": "announcement", "text": None, "at": None}
    )


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    r = app.add_api_route
    mine = answers(None, 401, 404, INVALID)
    r(
        "/api/relations",
        relations,
        methods=["GET"],
        responses=answers(None, 401),
        tags=["moderation"],
    )
    r(
        "/api/relations",
        relate,
        methods=["POST"],
        responses=mine,
        tags=["moderation"],
    )
    r(
        "/api/relations",
        unrelate,
        methods=["DELETE"],
        responses=mine,
        tags=["moderation"],
    )
    r(
        "/api/reports",
        report,
        methods=["POST"],
        status_code=201,
        responses=mine,
        tags=["moderation"],
    )
    power = answers(None, 401, 403, 404, INVALID)
    r(
        "/api/admin/reports",
        open_reports,
        methods=["GET"],
        responses=answers(None, 401, 403, INVALID),
        tags=["moderation"],
    )
    r(
        "/api/admin/reports/{number}/close",
        close_report,
        methods=["POST"],
        status_code=204,
        responses=power,
        tags=["moderation"],
    )
    r(
        "/api/admin/users/{name}",
        user_standing,
        methods=["GET"],
        responses=power,
        tags=["moderation"],
    )
    for path, handler in (
        ("mute", mute),
        ("suspend", suspend),
        ("ban", ban),
        ("pardon", pardon),
        ("role", set_role),
    ):
        r(
            f"/api/admin/users/{{name}}/{path}",
            handler,
            methods=["POST"],
            responses=power,
            tags=["moderation"],
        )
    r(
        "/api/admin/tables/{table_id}/close",
        close_table,
        methods=["POST"],
        responses=power | answers(None, 409),
        tags=["moderation"],
    )
    r(
        "/api/admin/audit",
        audit,
        methods=["GET"],
        responses=answers(None, 401, 403),
        tags=["moderation"],
    )
    r(
        "/api/admin/announce",
        announce,
        methods=["POST"],
        responses=answers(None, 401, 403, INVALID),
        tags=["moderation"],
    )
    r("/api/announcement", last_announcement, methods=["GET"], tags=["moderation"])
