"""Accounts over HTTP: register, log in, play as a guest, log out, who am I."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode, ServiceError
from burraco.store import UserInfo

from .. import auth
from ..ratelimit import FailureDelay
from .deps import CurrentUser, HubDep, limit_logins, session_token, user_from
from .models import LoginOut, UserOut, answers, user_out

SESSION_SECONDS = 30 * 24 * 3600
"""How long the browser keeps the session cookie."""


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


def _session_response(response: Response, user: UserInfo, token: str, *, secure: bool) -> LoginOut:
    response.set_cookie(
        auth.SESSION_COOKIE,
        token,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    return LoginOut(user=user_out(user), token=token)


async def register(
    body: Credentials, request: Request, response: Response, hub: HubDep
) -> LoginOut:
    await limit_logins(request)
    user = await auth.register(hub.store, body.name, body.password)
    token = await hub.store.create_session(user.id)
    return _session_response(response, user, token, secure=hub.config.secure_cookies)


async def login(body: Credentials, request: Request, response: Response, hub: HubDep) -> LoginOut:
    await limit_logins(request, body.name)
    failures: FailureDelay = request.app.state.login_failures
    key = auth.name_key(body.name)
    await asyncio.sleep(failures.delay(key))
    try:
        user = await auth.login(hub.store, body.name, body.password)
    except auth.AuthError:
        failures.failed(key)
        raise
    failures.succeeded(key)
    standing = await hub.moderation.standing(user.id)
    if standing is not None and standing.shut_out(datetime.now(UTC)):
        until = "for good" if standing.banned else f"until {standing.suspended_until}"
        raise ServiceError(ErrorCode.SUSPENDED, f"this account is suspended {until}")
    token = await hub.store.create_session(user.id)
    return _session_response(response, user, token, secure=hub.config.secure_cookies)


async def guest(request: Request, response: Response, hub: HubDep) -> LoginOut:
    await limit_logins(request)
    user = await auth.guest(hub.store)
    token = await hub.store.create_session(user.id, days=2)
    return _session_response(response, user, token, secure=hub.config.secure_cookies)


async def logout(request: Request, response: Response, hub: HubDep) -> None:
    token = session_token(request.headers.get("authorization"), request.cookies)
    if token:
        await hub.store.delete_session(token)
        hub.end_session(token)
    response.delete_cookie(auth.SESSION_COOKIE)


async def me(user: CurrentUser) -> UserOut:
    return user_out(user)


class SessionOut(BaseModel):
    user: UserOut | None = Field(description="The logged-in user, or null without a session")


async def session(request: Request, hub: HubDep) -> SessionOut:
    """Who am I, for pages: a visitor without a session is an answer (``user: null``), not a
    401, so a page's first look does not log an error in the browser's console."""
    found = await user_from(request.headers.get("authorization"), request.cookies, hub.store)
    return SessionOut(user=user_out(found) if found else None)


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/register",
        register,
        methods=["POST"],
        status_code=201,
        responses=answers(None, 400, 409, 429),
        tags=["accounts"],
    )
    app.add_api_route(
        "/api/login",
        login,
        methods=["POST"],
        responses=answers(None, 401, 403, 429),
        tags=["accounts"],
    )
    app.add_api_route(
        "/api/guest", guest, methods=["POST"], responses=answers(None, 429, 503), tags=["accounts"]
    )
    app.add_api_route("/api/logout", logout, methods=["POST"], status_code=204, tags=["accounts"])
    app.add_api_route(
        "/api/me", me, methods=["GET"], responses=answers(None, 401), tags=["accounts"]
    )
    app.add_api_route("/api/session", session, methods=["GET"], tags=["accounts"])
