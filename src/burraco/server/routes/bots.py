"""Bot accounts (issue 18; docs/accounts.md "Bot accounts"): a registered person creates up to
``ServerConfig.bot_accounts_per_owner`` bots, each with an API token shown once (stored as a
hash, like every session), which he may regenerate or revoke, and may delete a bot. The bot
plays with its token over the same HTTP API and WebSocket as the browser
(``burraco bot-connect``, docs/bot-protocol.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode, ServiceError
from burraco.store import BotLimit, BotRow, NameTaken, UserInfo

from .. import auth
from ..hub import Hub
from .deps import CurrentUser, HubDep, refuse_bot
from .models import INVALID, BotAccountOut, BotListOut, BotTokenOut, answers


class NewBot(BaseModel):
    name: str = Field(min_length=1, max_length=32)


def _owner(user: UserInfo) -> None:
    """Only a registered person may own bots: not a guest, not a bot."""
    if user.is_guest:
        raise ServiceError(
            ErrorCode.FORBIDDEN, "register to create bot accounts", detail="guest_bots"
        )
    refuse_bot(user)


def _row(row: BotRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "created_at": row.created_at.isoformat(),
        "token": row.token,
        "token_created_at": row.token_created_at.isoformat() if row.token_created_at else None,
    }


async def _bot(hub: Hub, user: UserInfo, name: str) -> UserInfo:
    _owner(user)
    bot = await hub.bot_accounts.bot_of(user.id, name)
    if bot is None:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"you have no bot {name[:32]!r}")
    return bot


async def _answer(hub: Hub, owner: UserInfo, bot: UserInfo, token: str) -> dict[str, Any]:
    row = next(r for r in await hub.bot_accounts.bots_of(owner.id) if r.id == bot.id)
    return {"bot": _row(row), "token": token}


async def list_bots(user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    _owner(user)
    rows = await hub.bot_accounts.bots_of(user.id)
    return {"bots": [_row(r) for r in rows], "limit": hub.config.bot_accounts_per_owner}


async def create_bot(body: NewBot, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    """A new bot account and its first token (the name follows the rules of every name)."""
    _owner(user)
    name = auth.check_new_name(body.name)
    limit = hub.config.bot_accounts_per_owner
    try:
        bot = await hub.bot_accounts.create_bot(user.id, name, limit=limit)
    except NameTaken:
        raise auth.name_taken(name) from None
    except BotLimit:
        raise ServiceError(
            ErrorCode.TOO_MANY_BOTS,
            f"a person may have {limit} bot accounts",
            detail="bot_accounts",
            params={"limit": limit},
        ) from None
    token, _ = await hub.bot_accounts.new_token(bot.id)
    return await _answer(hub, user, bot, token)


async def new_token(name: str, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    """A new token for the bot: the old one stops working, and its sockets are closed."""
    bot = await _bot(hub, user, name)
    standing = await hub.moderation.standing(bot.id)
    if standing is not None and standing.shut_out(datetime.now(UTC)):
        raise ServiceError(
            ErrorCode.SUSPENDED, "a moderator shut this bot out", detail="bot_shut_out"
        )
    token, ended = await hub.bot_accounts.new_token(bot.id)
    hub.end_sessions_hashed(ended)
    return await _answer(hub, user, bot, token)


async def revoke_token(name: str, user: CurrentUser, hub: HubDep) -> Response:
    bot = await _bot(hub, user, name)
    hub.end_sessions_hashed(await hub.bot_accounts.revoke(bot.id))
    return Response(status_code=204)


async def delete_bot(name: str, user: CurrentUser, hub: HubDep) -> Response:
    """The bot goes; its finished matches keep its name, as a deleted person's do not (a bot
    holds nothing personal)."""
    bot = await _bot(hub, user, name)
    hub.end_sessions_hashed(await hub.bot_accounts.revoke(bot.id))
    await hub.bot_accounts.delete_bot(bot.id)
    return Response(status_code=204)


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    route = app.add_api_route
    route(
        "/api/account/bots",
        list_bots,
        methods=["GET"],
        response_model=None,
        responses=answers(BotListOut, 401, 403),
        tags=["account"],
    )
    route(
        "/api/account/bots",
        create_bot,
        methods=["POST"],
        status_code=201,
        response_model=None,
        responses=answers(BotTokenOut, 400, 401, 403, 409, 429, INVALID, status=201),
        tags=["account"],
    )
    route(
        "/api/account/bots/{name}/token",
        new_token,
        methods=["POST"],
        response_model=None,
        responses=answers(BotTokenOut, 401, 403, 404),
        tags=["account"],
    )
    route(
        "/api/account/bots/{name}/token",
        revoke_token,
        methods=["DELETE"],
        status_code=204,
        responses=answers(None, 401, 403, 404),
        tags=["account"],
    )
    route(
        "/api/account/bots/{name}",
        delete_bot,
        methods=["DELETE"],
        status_code=204,
        responses=answers(None, 401, 403, 404),
        tags=["account"],
    )


__all__ = ["BotAccountOut", "install"]
