"""Accounts that last (issue 16; docs/accounts.md): a verified e-mail address, password change
and reset by mail, the sessions with "log out everywhere", the export of one's data and the
deletion of the account. No answer tells whether an address or a name has an account."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode, ServiceError
from burraco.store import AccountStore, AddressTaken, TokenError, UserInfo
from burraco.store.store import hash_token

from .. import auth
from ..tournament.samecards import hidden_among
from .deps import CurrentUser, HubDep, limit_logins, refuse_bot, session_token
from .models import INVALID, AccountOut, SentOut, answers

VERIFY_LIFETIME: Final = timedelta(hours=24)
RESET_LIFETIME: Final = timedelta(hours=1)
PER_ADDRESS: Final = 3
"""Mails to one address in an hour, at most."""
PER_ACCOUNT: Final = 5
"""Mails for one account in an hour, at most."""
LINK_MAILS: Final = ("verify", "reset")
"""The mails those two limits count (invitation mails have their own: invitemail.py)."""
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}$")

Lang = Literal["it", "en"]


class EmailRequest(BaseModel):
    email: str = Field(max_length=254)
    lang: Lang = "it"


class TokenRequest(BaseModel):
    token: str = Field(min_length=10, max_length=200)


class PasswordChange(BaseModel):
    current: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=1, max_length=256)


class PasswordReset(BaseModel):
    token: str = Field(min_length=10, max_length=200)
    password: str = Field(min_length=1, max_length=256)


class Standings(BaseModel):
    wanted: bool


class Invitations(BaseModel):
    wanted: bool


class Deletion(BaseModel):
    password: str = Field(min_length=1, max_length=256)


def _now() -> datetime:
    return datetime.now(UTC)


def _address(text: str) -> str:
    email = text.strip().lower()
    if len(email) > 254 or not _EMAIL.match(email):
        raise ServiceError(ErrorCode.BAD_EMAIL, f"not an e-mail address: {text!r}")
    return email


def _registered(user: UserInfo) -> None:
    if user.is_guest:
        raise ServiceError(ErrorCode.FORBIDDEN, "a guest has no lasting account: register first")
    refuse_bot(user)  # a bot's account is its owner's page (routes/bots.py)


def _link(request: Request, hub: Any, key: str, token: str) -> str:
    base = hub.config.public_url or str(request.base_url)
    return f"{base.rstrip('/')}/?{key}={token}"


async def _within_limits(accounts: AccountStore, email: str, user_id: int) -> bool:
    since = _now() - timedelta(hours=1)
    to_address = await accounts.mails_since(email=email, since=since, purposes=LINK_MAILS)
    for_account = await accounts.mails_since(user_id=user_id, since=since, purposes=LINK_MAILS)
    return to_address < PER_ADDRESS and for_account < PER_ACCOUNT


async def account(request: Request, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    _registered(user)
    info = await hub.accounts.account(user.id)
    assert info is not None
    current = session_token(request.headers.get("authorization"), request.cookies)
    mine = hash_token(current) if current else None
    rows = await hub.accounts.sessions_of(user.id, now=_now())
    return {
        "name": info.name,
        "email": info.email,
        "mail_standings": info.mail_standings,
        "mail_invitations": info.mail_invitations,
        "mail": hub.mailer.available,
        "sessions": [
            {
                "id": r.token_hash[:12],
                "created_at": r.created_at.isoformat(),
                "expires_at": r.expires_at.isoformat(),
                "current": r.token_hash == mine,
            }
            for r in rows
        ],
    }


async def set_email(
    body: EmailRequest, request: Request, user: CurrentUser, hub: HubDep
) -> dict[str, Any]:
    """Send a verification link to the address; it becomes the account's once opened."""
    _registered(user)
    hub.mailer.require()
    email = _address(body.email)
    if not await _within_limits(hub.accounts, email, user.id):
        raise ServiceError(ErrorCode.RATE_LIMITED, "too many mails in the last hour: try later")
    token = await hub.accounts.new_token(
        user.id, "verify", email, now=_now(), lifetime=VERIFY_LIFETIME
    )
    await hub.mailer.send(
        email, "verify", body.lang, name=user.name, link=_link(request, hub, "verify", token)
    )
    await hub.accounts.log_mail(email, user.id, "verify", now=_now())
    return {"sent": True}


async def verify(body: TokenRequest, hub: HubDep) -> dict[str, Any]:
    """Open a verification link (no login needed: it may be opened in another browser)."""
    try:
        user_id, email = await hub.accounts.use_token(body.token, "verify", now=_now())
        await hub.accounts.verify_email(user_id, email)
    except TokenError as error:
        raise ServiceError(
            ErrorCode.BAD_TOKEN, str(error), detail=f"token_{error.reason}"
        ) from None
    except AddressTaken:
        raise ServiceError(
            ErrorCode.CONFLICT, "this address belongs to another account", detail="address_taken"
        ) from None
    return {"email": email}


async def change_password(
    body: PasswordChange, request: Request, user: CurrentUser, hub: HubDep
) -> Response:
    _registered(user)
    stored = await hub.store.user(user.id)
    assert stored is not None
    if not stored.password_hash or not await auth.verify_password(
        stored.password_hash, body.current
    ):
        raise ServiceError(ErrorCode.BAD_LOGIN, "the current password is not right")
    auth.check_password(body.new)
    await hub.accounts.set_password(user.id, await auth.hash_password(body.new))
    current = session_token(request.headers.get("authorization"), request.cookies)
    hub.end_sessions_hashed(await hub.accounts.end_sessions(user.id, keep=current))
    return Response(status_code=204)


async def end_sessions(request: Request, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    """Log out everywhere: every session of the account ends, this one included."""
    ended = await hub.accounts.end_sessions(user.id)
    hub.end_sessions_hashed(ended)
    return {"ended": len(ended)}


async def forgot(body: EmailRequest, request: Request, hub: HubDep) -> dict[str, Any]:
    """A reset link to the address if an account has it verified. The answer is the same
    whether one has it or not (no account is given away), and the same when the limits stop
    the mail."""
    await limit_logins(request)
    hub.mailer.require()
    email = _address(body.email)
    owner = await hub.accounts.user_by_email(email)
    if owner is not None and await _within_limits(hub.accounts, email, owner.id):
        token = await hub.accounts.new_token(
            owner.id, "reset", email, now=_now(), lifetime=RESET_LIFETIME
        )
        await hub.mailer.send(
            email, "reset", body.lang, name=owner.name, link=_link(request, hub, "reset", token)
        )
        await hub.accounts.log_mail(email, owner.id, "reset", now=_now())
    return {"sent": True}


async def reset(body: PasswordReset, request: Request, hub: HubDep) -> Response:
    await limit_logins(request)
    auth.check_password(body.password)  # before the token is spent: a bad password keeps it
    try:
        user_id, _ = await hub.accounts.use_token(body.token, "reset", now=_now())
    except TokenError as error:
        raise ServiceError(
            ErrorCode.BAD_TOKEN, str(error), detail=f"token_{error.reason}"
        ) from None
    await hub.accounts.set_password(user_id, await auth.hash_password(body.password))
    hub.end_sessions_hashed(await hub.accounts.end_sessions(user_id))
    return Response(status_code=204)


async def standings(body: Standings, user: CurrentUser, hub: HubDep) -> Response:
    _registered(user)
    info = await hub.accounts.account(user.id)
    assert info is not None
    if body.wanted and info.email is None:
        raise ServiceError(ErrorCode.CONFLICT, "confirm an e-mail address first")
    await hub.accounts.set_mail_standings(user.id, body.wanted)
    return Response(status_code=204)


async def invitations(body: Invitations, user: CurrentUser, hub: HubDep) -> Response:
    """Invitations and challenges by mail when no page of the site is open (invitemail.py)."""
    _registered(user)
    info = await hub.accounts.account(user.id)
    assert info is not None
    if body.wanted and info.email is None:
        raise ServiceError(ErrorCode.CONFLICT, "confirm an e-mail address first")
    await hub.accounts.set_mail_invitations(user.id, body.wanted)
    return Response(status_code=204)


async def export(user: CurrentUser, hub: HubDep) -> Response:
    _registered(user)
    data = await hub.accounts.export(user.id)
    # A table of a same-cards round still played elsewhere: its record (the deck) waits for the
    # round's end, as its record and replay do (docs/tournaments.md, "Same cards").
    withheld = await hidden_among(hub.store, [m["table"] for m in data["matches"]])
    data["matches"] = [
        m | {"record": None, "withheld": ErrorCode.SAME_CARDS_HIDDEN.value}
        if m["table"] in withheld
        else m
        for m in data["matches"]
    ]
    data["ratings"] = [
        {"mode": r.mode.value, "rating": r.rating.shown, "matches": r.matches}
        for r in await hub.ratings.ratings_of(user.id)
    ]
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="burraco-{user.name}.json"'},
    )


async def delete_account(
    body: Deletion, request: Request, user: CurrentUser, hub: HubDep
) -> Response:
    _registered(user)
    stored = await hub.store.user(user.id)
    assert stored is not None
    if not stored.password_hash or not await auth.verify_password(
        stored.password_hash, body.password
    ):
        raise ServiceError(ErrorCode.BAD_LOGIN, "the password is not right")
    ended = await hub.accounts.end_sessions(user.id)
    replacement = f"Deleted-{user.id}"
    # His tables settle his seats first (a forfeit is rated while his rating exists), then
    # the account goes, with his entries to tournaments still registering (docs/accounts.md).
    await hub.account_gone(user.id, replacement)
    withdrawn = await hub.accounts.delete_account(user.id, replacement=replacement)
    hub.end_sessions_hashed(ended)
    if hub.tournaments is not None:
        await hub.tournaments.withdrawn(withdrawn, user)
    response = Response(status_code=204)
    response.delete_cookie(auth.SESSION_COOKIE)
    return response


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    route = app.add_api_route
    route(
        "/api/account",
        account,
        methods=["GET"],
        response_model=None,
        responses=answers(AccountOut, 401, 403),
        tags=["account"],
    )
    route(
        "/api/account/email",
        set_email,
        methods=["POST"],
        status_code=202,
        response_model=None,
        responses=answers(SentOut, 400, 401, 403, 429, 502, 503, INVALID, status=202),
        tags=["account"],
    )
    route(
        "/api/account/verify",
        verify,
        methods=["POST"],
        response_model=None,
        responses=answers(None, 400, 409, INVALID) | {200: {"description": "{email}"}},
        tags=["account"],
    )
    route(
        "/api/account/password",
        change_password,
        methods=["POST"],
        status_code=204,
        responses=answers(None, 400, 401, 403, INVALID),
        tags=["account"],
    )
    route(
        "/api/account/logout-everywhere",
        end_sessions,
        methods=["POST"],
        response_model=None,
        responses=answers(None, 401) | {200: {"description": "{ended}"}},
        tags=["account"],
    )
    route(
        "/api/account/standings",
        standings,
        methods=["POST"],
        status_code=204,
        responses=answers(None, 401, 403, 409, INVALID),
        tags=["account"],
    )
    route(
        "/api/account/invitations",
        invitations,
        methods=["POST"],
        status_code=204,
        responses=answers(None, 401, 403, 409, INVALID),
        tags=["account"],
    )
    route(
        "/api/account/export",
        export,
        methods=["GET"],
        response_class=Response,
        responses=answers(None, 401, 403)
        | {200: {"content": {"application/json": {"schema": {"type": "object"}}}}},
        tags=["account"],
    )
    route(
        "/api/account",
        delete_account,
        methods=["DELETE"],
        status_code=204,
        responses=answers(None, 401, 403, INVALID),
        tags=["account"],
    )
    route(
        "/api/password/forgot",
        forgot,
        methods=["POST"],
        status_code=202,
        response_model=None,
        responses=answers(SentOut, 400, 429, 502, 503, INVALID, status=202),
        tags=["account"],
    )
    route(
        "/api/password/reset",
        reset,
        methods=["POST"],
        status_code=204,
        responses=answers(None, 400, 429, INVALID),
        tags=["account"],
    )
