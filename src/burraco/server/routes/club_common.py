"""What the club routes share: the service and the actor of a request, the answers each route
documents, downloads."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, Request, Response

from burraco.club.service import Actor, ClubService
from burraco.store import Store

from .. import auth

Lang = Literal["it", "en"]


ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
"""The API's ``{error, message}`` (``ErrorOut``, declared with the rest of the API in app.py)."""
WORDS = {
    401: "Not logged in",
    403: "Not allowed: the club's officers change, its members read",
    404: "No such club, season, evening or score check",
    409: "Not possible now (already done, or not at this point of the evening); late check-in",
    422: "Bad input (an unknown player, a result that does not add up, a date outside the season)",
    502: "The SMTP server refused or could not be reached",
}


def answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"description": WORDS[code], "content": ERROR} for code in codes}


READ = answers(401, 403, 404)
WRITE = answers(401, 403, 404, 409, 422)


# ----------------------------------------------------------------------------- plumbing


def service(request: Request) -> ClubService:
    """One service per application, on the server's store."""
    found: ClubService | None = getattr(request.app.state, "club_service", None)
    if found is None:
        store: Store = request.app.state.hub.store
        found = ClubService(store)
        request.app.state.club_service = found
    return found


async def actor(request: Request) -> Actor:
    """The logged-in user as the service's actor (the session cookie or a bearer token)."""
    header = request.headers.get("authorization") or ""
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    token = token or request.cookies.get(auth.SESSION_COOKIE, "")
    store: Store = request.app.state.hub.store
    user = await store.session_user(token) if token else None
    if user is None:
        raise auth.AuthError("not_authenticated", "log in first")
    return Actor(user.name, user.id)


Club = Annotated[ClubService, Depends(service)]
Me = Annotated[Actor, Depends(actor)]


def download(content: str | bytes, media_type: str, filename: str) -> Response:
    return Response(
        content,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def utcnow() -> datetime:
    return datetime.now(UTC)
