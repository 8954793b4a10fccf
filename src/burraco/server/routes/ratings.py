"""Ratings over HTTP (issue 16): a mode's leaderboard (overall or a month's, provisional players
apart, the bots at their fixed anchors beside the people) and a player's ratings with history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Query

from burraco.errors import ErrorCode, ServiceError
from burraco.ratings import BOT_ANCHORS, Mode
from burraco.ratings.rate import is_provisional

from .deps import HubDep
from .models import INVALID, LeaderboardOut, PlayerRatingsOut, answers

Month = Annotated[
    str | None, Query(pattern=r"^(19[7-9]\d|2\d{3})-(0[1-9]|1[0-2])$", description="YYYY-MM")
]
Limit = Annotated[int, Query(ge=1, le=100)]
Offset = Annotated[int, Query(ge=0, le=100_000)]
PlayerName = Annotated[str, Path(min_length=1, max_length=32)]


async def leaderboard(
    mode: Mode,
    hub: HubDep,
    *,
    month: Month = None,
    provisional: bool = False,
    limit: Limit = 50,
    offset: Offset = 0,
) -> dict[str, Any]:
    when = None if month is None else (int(month[:4]), int(month[5:]))
    rows = await hub.ratings.leaderboard(
        mode, provisional=provisional, month=when, limit=limit, offset=offset
    )
    return {
        "mode": mode.value,
        "month": month,
        "provisional": provisional,
        "players": [
            {
                "rank": offset + i + 1,
                "name": r.name,
                "rating": r.rating.shown,
                "sigma": round(r.rating.sigma),
                "matches": r.matches,
                "delta": None if r.delta is None else round(r.delta),
            }
            for i, r in enumerate(rows)
        ],
        # The bots are in the pool at fixed ratings (ratings/anchors.py): "Bot Esperto ~1650".
        "bots": [
            {"level": level, "rating": round(mu)}
            for level, mu in sorted(BOT_ANCHORS[mode].items(), key=lambda item: item[1])
        ],
    }


async def player(name: PlayerName, hub: HubDep) -> dict[str, Any]:
    user = await hub.store.user_by_name(name)
    if user is None:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"there is no player {name!r}")
    if user.is_guest:
        raise ServiceError(
            ErrorCode.GUEST_NOT_RATED, f"{user.name} is a guest: guests are never rated"
        )
    rows = await hub.ratings.ratings_of(user.id)
    history: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        points = await hub.ratings.history(user.id, row.mode)
        history[row.mode.value] = [
            {
                "at": p.at.isoformat(),
                "rating": round(p.mu),
                "delta": round(p.delta),
                "result": p.result,
                "table": p.table_id,
                "match": p.match_no,
            }
            for p in points
        ]
    return {
        "name": user.name,
        "ratings": [
            {
                "mode": r.mode.value,
                "rating": r.rating.shown,
                "sigma": round(r.rating.sigma),
                "provisional": is_provisional(hub.ratings.settings, r.rating),
                "matches": r.matches,
                "wins": r.wins,
                "draws": r.draws,
                "abandoned": r.abandoned,
            }
            for r in rows
        ],
        "history": history,
    }


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/ratings/{mode}",
        leaderboard,
        methods=["GET"],
        response_model=None,
        responses=answers(LeaderboardOut, INVALID),
        tags=["ratings"],
    )
    app.add_api_route(
        "/api/players/{name}",
        player,
        methods=["GET"],
        response_model=None,
        responses=answers(PlayerRatingsOut, 403, 404, INVALID),
        tags=["ratings"],
    )
