"""Finding each other (issue 16): who is online and what is played (presence), following
players (friends follow each other; a follow not returned is a friend request), friends online
with the table they play at, and inviting a friend to a table or challenging him to a new one
with chosen settings: the invitation reaches his open pages at once (``invitation``), and his
mailbox when he has none open and asked for it (``invitemail``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode, ServiceError

from .deps import CurrentUser, HubDep, refuse_bot
from .lobby import NewTable, create
from .models import INVALID, answers


class FollowRequest(BaseModel):
    player: str = Field(min_length=1, max_length=32)


class Invite(BaseModel):
    player: str = Field(min_length=1, max_length=32)


class Challenge(BaseModel):
    player: str = Field(min_length=1, max_length=32)
    table: NewTable = Field(description="The settings of the new (private) table")


async def presence(hub: HubDep) -> dict[str, int]:
    result: dict[str, int] = hub.presence()
    return result


async def friends(user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    hub.invitation_mail.seen_at_lobby(user.id)  # the lobby asks every few seconds
    followed: dict[int, str] = await hub.moderation.followed(user.id)
    followers: set[int] = await hub.moderation.followers(user.id)
    online = hub.online()
    # A bot account follows nobody: following one is enough to have it among one's friends.
    bots = {uid for uid in followed if (await hub.store.user(uid) or user).is_bot}
    mutual = [uid for uid in followed if uid in followers or uid in bots]
    requests = sorted(followers - set(followed))
    names = {}
    for uid in requests:
        other = await hub.store.user(uid)
        if other is not None:
            names[uid] = other.name
    return {
        "friends": [
            {
                "name": followed[uid],
                "online": uid in online,
                "table": hub.playing_at(uid),
                "bot": uid in bots,
            }
            for uid in mutual
        ],
        "following": [followed[uid] for uid in followed if uid not in mutual],
        "requests": [names[uid] for uid in requests if uid in names],
        "invitations": list(reversed(hub.invitations.get(user.id, []))),
    }


async def _person(hub: Any, name: str, me: Any) -> Any:
    other = await hub.store.user_by_name(name)
    if other is None or other.is_guest:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"there is no player {name!r}")
    if other.id == me.id:
        raise ServiceError(ErrorCode.BAD_INPUT, "that is yourself", detail="yourself")
    return other


async def follow(body: FollowRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    if user.is_guest:
        raise ServiceError(ErrorCode.FORBIDDEN, "register to have friends", detail="guest_friends")
    refuse_bot(user)
    other = await _person(hub, body.player, user)
    await hub.moderation.relate(user.id, other.id, "follow", now=datetime.now(UTC))
    return await friends(user, hub)


async def unfollow(body: FollowRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    other = await _person(hub, body.player, user)
    await hub.moderation.unrelate(user.id, other.id, "follow")
    return await friends(user, hub)


def _blocked(name: str) -> ServiceError:
    """The refusal of a player who blocked the asker (his pages word it: ``err.blocked``)."""
    return ServiceError(
        ErrorCode.FORBIDDEN,
        f"{name} does not take invitations from you",
        detail="blocked",
        params={"name": name},
    )


async def _tell_invitation(
    hub: Any,
    request: Request,
    user: Any,
    other: Any,
    *,
    actor: Any,
    kind: Literal["invite", "challenge"],
) -> dict[str, Any]:
    """Tell the invitee's open pages, keep it for his lobby, mail it if he asked and has no
    page open: the route's answer."""
    if await hub.moderation.blocks(other.id, user.id):
        raise _blocked(other.name)
    message = {"type": "invitation", "kind": kind, "table": actor.id, "by": user.name}
    hub.invitations.setdefault(other.id, []).append(message)
    del hub.invitations[other.id][:-10]  # the last ten, for the lobby (it has no socket)
    told: int = hub.tell(other.id, message)
    online = hub.online()
    mailed: bool = await hub.invitation_mail.offer(
        inviter=user,
        invitee_id=other.id,
        kind=kind,
        table_id=actor.id,
        config=actor.config,
        base_url=hub.config.public_url or str(request.base_url),
        online=online,
    )
    return {"table": actor.id, "told": told, "online": other.id in online, "mailed": mailed}


async def _limit_invitations(hub: Any, user: Any) -> None:
    """Refuse an account its invitation past its rate (invitations and challenges together),
    before anything is made or told."""
    if not await hub.invitation_limits.check(f"user:{user.id}"):
        per_minute = hub.config.invitations_per_minute_per_account
        raise ServiceError(
            ErrorCode.RATE_LIMITED,
            f"at most {per_minute:g} invitations a minute: wait a moment",
            detail="invitations",
            params={"limit": per_minute},
        )


async def invite(
    table_id: str, body: Invite, request: Request, user: CurrentUser, hub: HubDep
) -> dict[str, Any]:
    """Invite a player to a table one sits at (his pages are told at once, his mailbox if he
    has none open and asked for it)."""
    other = await _person(hub, body.player, user)
    actor = await hub.table(table_id)
    if actor.seat_of(user) is None:
        raise ServiceError(
            ErrorCode.NOT_SEATED, "invite to a table you sit at", detail="invite_not_seated"
        )
    await _limit_invitations(hub, user)
    return await _tell_invitation(hub, request, user, other, actor=actor, kind="invite")


async def challenge(
    body: Challenge, request: Request, user: CurrentUser, hub: HubDep
) -> dict[str, Any]:
    """A new private table with the chosen settings, its other seats left for the challenged
    player (and bots if asked), and the challenge told to him (and mailed, as an
    invitation)."""
    other = await _person(hub, body.player, user)
    if await hub.moderation.blocks(other.id, user.id):
        raise _blocked(other.name)
    await _limit_invitations(hub, user)
    settings = body.table.model_copy(update={"public": False})
    info = await create(settings, user, hub)
    actor = await hub.table(info["id"])
    return await _tell_invitation(hub, request, user, other, actor=actor, kind="challenge")


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    r = app.add_api_route
    r("/api/presence", presence, methods=["GET"], tags=["friends"])
    r("/api/friends", friends, methods=["GET"], responses=answers(None, 401), tags=["friends"])
    r(
        "/api/friends",
        follow,
        methods=["POST"],
        responses=answers(None, 401, 403, 404, INVALID),
        tags=["friends"],
    )
    r(
        "/api/friends",
        unfollow,
        methods=["DELETE"],
        responses=answers(None, 401, 404, INVALID),
        tags=["friends"],
    )
    r(
        "/api/tables/{table_id}/invite",
        invite,
        methods=["POST"],
        responses=answers(None, 401, 403, 404, 409, 429, INVALID),
        tags=["friends"],
    )
    r(
        "/api/challenges",
        challenge,
        methods=["POST"],
        status_code=201,
        responses=answers(None, 401, 403, 404, 409, 429, INVALID),
        tags=["friends"],
    )
