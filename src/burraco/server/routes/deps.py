"""What the routes share: the hub, the logged-in user (session cookie or bearer token) and the
login limiter (``app.state.login_limiter``, made by ``create_app``)."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import Depends, Path, Query, Request
from pydantic import Field
from starlette.requests import HTTPConnection

from burraco.errors import ErrorCode, ServiceError
from burraco.store import Store, UserInfo

from .. import auth
from ..hub import Hub
from ..ratelimit import Limiter


def hub_of(connection: HTTPConnection) -> Hub:
    """The process's hub (made by the app's lifespan)."""
    found: Hub = connection.app.state.hub
    return found


HubDep = Annotated[Hub, Depends(hub_of)]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def session_token(authorization: str | None, cookies: dict[str, str]) -> str | None:
    """A request's session token: the bearer token, else the session cookie."""
    return bearer(authorization) or cookies.get(auth.SESSION_COOKIE)


async def user_from(
    authorization: str | None, cookies: dict[str, str], store: Store, query_token: str | None = None
) -> UserInfo | None:
    """The user of a session token (given in the query, a header or the cookie), if any."""
    token = query_token or session_token(authorization, cookies)
    if not token:
        return None
    return await store.session_user(token)


async def current_user(request: Request) -> UserInfo:
    """The logged-in user, from the session cookie or an ``Authorization: Bearer`` token."""
    store = hub_of(request).store
    user = await user_from(request.headers.get("authorization"), request.cookies, store)
    if user is None:
        raise auth.AuthError(ErrorCode.NOT_AUTHENTICATED, "log in first")
    return user


CurrentUser = Annotated[UserInfo, Depends(current_user)]


def refuse_bot(user: UserInfo) -> None:
    """What only a person may do (own bots, follow, create or enter tournaments, clubs, the
    account's mail and data): ``403 forbidden``, ``bot_account`` (docs/accounts.md)."""
    if user.is_bot:
        raise ServiceError(
            ErrorCode.FORBIDDEN, "a bot account cannot do that", detail="bot_account"
        )


async def limit_logins(request: Request, name: str | None = None) -> None:
    """Refuse (``rate_limited``) a login attempt over the limit of its address, or of its
    address and name together. A name alone is never refused: that would let anyone lock its
    owner out from elsewhere (issue 19, M8); a name that keeps failing is slowed down instead
    (``ratelimit.FailureDelay``, in the login route)."""
    limiter: Limiter = request.app.state.login_limiter
    address = request.client.host if request.client else "?"
    keys = [f"ip:{address}"] + ([f"ip:{address}|name:{auth.name_key(name)}"] if name else [])
    for key in keys:  # the second is not charged when the first refuses
        if not await limiter.check(key):
            raise auth.AuthError(ErrorCode.RATE_LIMITED, "too many attempts; wait a minute")


MAX_ID: Final = 2**63 - 1
"""The largest id or number a path or query may give: every database we run on stores 64-bit
integers, and a larger one must be a 404/422, never a driver's overflow (issue 19, M3)."""
Int64 = Annotated[int, Field(ge=-MAX_ID - 1, le=MAX_ID)]
"""An integer of a request's body the databases can store (a larger one is a 422, not a 500)."""
PathId = Annotated[int, Path(ge=0, le=MAX_ID)]
"""A path's id or number (a club, a season, an evening, a game, a table, a member ...)."""
QueryId = Annotated[int, Query(ge=0, le=MAX_ID)]
"""A query's id or number (``?match=N``)."""
OptionalQueryId = Annotated[int | None, Query(ge=0, le=MAX_ID)]
