"""Quick play over HTTP (issue 16; quickplay.py): queue for a table, see where one stands,
leave the queue."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field

from .deps import CurrentUser, HubDep
from .models import INVALID, QuickPlayOut, answers


class QuickPlayRequest(BaseModel):
    players: int = Field(2, ge=2, le=4)
    rules: str = Field("italian", max_length=40, description="A preset of /api/info")
    clock: str = Field("none", description="none, 10 or 25 (minutes in all; T5)")
    rated: bool = Field(True, description="Rated (registered players) or casual (anyone)")
    bots_after: float | None = Field(
        None, ge=0, le=600, description="Let bots fill the table after so many seconds"
    )
    partner: str | None = Field(
        None, max_length=32, description="4 players: queue as a pair with this player"
    )


async def join(body: QuickPlayRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await hub.quickplay.join(
        user,
        players=body.players,
        rules=body.rules,
        clock=body.clock,
        rated=body.rated,
        bots_after=body.bots_after,
        partner=body.partner,
    )


async def status(user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return hub.quickplay.status_of(user.id) | {"queues": hub.quickplay.counts()}


async def leave(user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await hub.quickplay.leave(user)


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/quickplay",
        join,
        methods=["POST"],
        response_model=None,
        responses=answers(QuickPlayOut, 401, 403, 409, INVALID),
        tags=["quickplay"],
    )
    app.add_api_route(
        "/api/quickplay",
        status,
        methods=["GET"],
        response_model=None,
        responses=answers(QuickPlayOut, 401),
        tags=["quickplay"],
    )
    app.add_api_route(
        "/api/quickplay",
        leave,
        methods=["DELETE"],
        response_model=None,
        responses=answers(QuickPlayOut, 401),
        tags=["quickplay"],
    )
