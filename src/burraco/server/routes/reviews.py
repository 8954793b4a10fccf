"""The bot's reviews of finished matches over HTTP (reviews.py; docs/review-server.md): ask for
one, see where it stands and its result."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode
from burraco.store import ReviewRow, ReviewStatus, ReviewStore

from ..hub import Hub
from ..reviews import ReviewRefused
from ..tournament.samecards import HIDDEN, hidden
from .deps import CurrentUser, HubDep, QueryId, user_from
from .models import INVALID, ReviewOut, ReviewsOut, answers

MAX_SEAT = 1000
"""A seat past any table's (a seat that is not at the table is ``no_such_seat``)."""
QuerySeat = Annotated[int, Query(ge=0, le=MAX_SEAT)]


class ReviewRequest(BaseModel):
    seat: int | None = Field(
        None, ge=0, le=MAX_SEAT, description="The seat to review (default: the caller's)"
    )


async def _not_hidden(hub: Hub, table_id: str) -> None:
    """A review shows the match's actions: none while the same cards are played elsewhere
    (issue 19: the record and the replay were hidden, the review was not)."""
    if await hidden(hub.store, table_id):
        raise ReviewRefused(ErrorCode.SAME_CARDS_HIDDEN, HIDDEN)


def review_json(hub: Hub, row: ReviewRow) -> dict[str, Any]:
    reviews = hub.reviews
    progress = reviews.progress.get(row.id) if row.status == ReviewStatus.RUNNING else None
    return {
        "table": row.table_id,
        "match": row.match_no,
        "seat": row.seat,
        "status": row.status.value,
        "requested_at": row.requested_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
        "seconds": row.seconds,
        "position": reviews.position(row.id) if row.status == ReviewStatus.QUEUED else None,
        "progress": None if progress is None else {"done": progress[0], "total": progress[1]},
        "review": row.result if row.status == ReviewStatus.DONE else None,
        "error": row.error if row.status == ReviewStatus.FAILED else None,
    }


async def ask(
    table_id: str,
    user: CurrentUser,
    hub: HubDep,
    response: Response,
    *,
    match: QueryId = 1,
    body: ReviewRequest | None = None,
) -> dict[str, Any]:
    """Ask for the review of a seat of a finished match (a player of it only; his own seat by
    default): 202 when this request queued it, 200 when it was there (queued, running, done)."""
    await _not_hidden(hub, table_id)
    seat = None if body is None else body.seat
    row, queued = await hub.reviews.request(user, table_id, match, seat)
    response.status_code = 202 if queued else 200
    return review_json(hub, row)


async def one(table_id: str, seat: QuerySeat, hub: HubDep, match: QueryId = 1) -> dict[str, Any]:
    """A seat's review: where it stands, and its result once done (anyone who may see the
    match's replay may read it)."""
    await _not_hidden(hub, table_id)
    row = await hub.reviews.get(table_id, match, seat)
    if row is None:
        raise ReviewRefused(ErrorCode.NO_REVIEW, "nobody asked for that review")
    return review_json(hub, row)


async def of_match(
    table_id: str, request: Request, hub: HubDep, match: QueryId = 1
) -> dict[str, Any]:
    """Every review of a finished match, and the caller's seat at it (what a page needs to
    offer the button)."""
    await _not_hidden(hub, table_id)
    table = await hub.store.table(table_id)
    if table is None or await hub.store.match_record(table_id, match) is None:
        raise ReviewRefused(ErrorCode.NO_RECORD, "no finished match there")
    user = await user_from(request.headers.get("authorization"), request.cookies, hub.store)
    you = next((s.seat for s in table.seats if user and s.user_id == user.id), None)
    store: ReviewStore = hub.reviews.store
    rows = [await store.get(table_id, match, seat) for seat in range(len(table.seats))]
    return {
        "you": you,
        "players": len(table.seats),
        "reviews": [review_json(hub, r) for r in rows if r is not None],
    }


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/tables/{table_id}/review",
        ask,
        methods=["POST"],
        response_model=None,
        responses=answers(ReviewOut, 401, 403, 404, 409, 429, 503, INVALID)
        | {202: {"model": ReviewOut}},
        tags=["reviews"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/review",
        one,
        methods=["GET"],
        response_model=None,
        responses=answers(ReviewOut, 403, 404, INVALID),
        tags=["reviews"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/reviews",
        of_match,
        methods=["GET"],
        response_model=None,
        responses=answers(ReviewsOut, 403, 404, INVALID),
        tags=["reviews"],
    )
