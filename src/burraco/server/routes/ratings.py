"""Ratings over HTTP (issue 16): a mode's leaderboard (overall or a month's, provisional players
apart, the bots at their fixed anchors beside the people) and a player's ratings with history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Query

from burraco.errors import ErrorCode, ServiceError
from burraco.ratings import BOT_ANCHORS, Mode
from burraco.ratings.rate import is_provisional
from burraco.store import ModeStats, PlayerMatchRow, UserInfo

from .deps import HubDep
from .models import INVALID, LeaderboardOut, PlayerMatchesOut, PlayerRatingsOut, answers

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
                "bot": r.bot,
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
    # The store leaves out the matches of a same-cards round still being played, until the
    # round is over (burraco.store.hidden): the statistics, the list and the history alike.
    stats = await hub.profiles.stats(user.id)
    recent = await hub.profiles.matches(user.id, limit=10)
    owner = await hub.bot_accounts.owner_of(user.id) if user.is_bot else None
    owner_info = await hub.store.user(owner) if owner is not None else None
    return {
        "name": user.name,
        "bot": user.is_bot,
        "owner": owner_info.name if owner_info is not None else None,
        "stats": [_stats_json(st) for st in stats],
        "recent": [_match_json(r) for r in recent],
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


def _per(total: int, smazzate: int) -> float:
    return round(total / smazzate, 3) if smazzate else 0.0


def _stats_json(st: ModeStats) -> dict[str, Any]:
    """A mode's figures: matches and wins, and the means per smazzata (ratings/summary.py)."""
    return {
        "mode": st.mode,
        "matches": st.matches,
        "wins": st.wins,
        "draws": st.draws,
        "smazzate": st.smazzate,
        "mp_per_smazzata": _per(st.mp, st.smazzate),
        "clean_per_smazzata": _per(st.burrachi_clean, st.smazzate),
        "dirty_per_smazzata": _per(st.burrachi_dirty, st.smazzate),
        "pozzetto_rate": _per(st.pozzetti, st.smazzate),
        "closing_rate": _per(st.closings, st.smazzate),
    }


def _match_json(r: PlayerMatchRow) -> dict[str, Any]:
    return {
        "table": r.table_id,
        "match": r.match_no,
        "finished_at": r.finished_at.isoformat(),
        "mode": r.mode,
        "rules": r.rules,
        "rated": r.rated,
        "result": r.result,
        "ended": r.ended,
        "seat": r.seat,
        "players": r.players,
        "smazzate": r.smazzate,
        "mp": r.mp,
    }


async def _person(hub: Any, name: str) -> UserInfo:
    user = await hub.store.user_by_name(name)
    if user is None:
        raise ServiceError(ErrorCode.NO_SUCH_PLAYER, f"there is no player {name!r}")
    if user.is_guest:
        raise ServiceError(
            ErrorCode.GUEST_NOT_RATED, f"{user.name} is a guest: guests have no profile"
        )
    return user  # type: ignore[no-any-return]


async def player_matches(
    name: PlayerName,
    hub: HubDep,
    *,
    mode: Mode | None = None,
    rules: Annotated[str | None, Query(max_length=40)] = None,
    rated: bool | None = None,
    result: Annotated[str | None, Query(pattern="^(win|loss|draw)$")] = None,
    versus: Annotated[str | None, Query(max_length=32)] = None,
    limit: Limit = 20,
    offset: Offset = 0,
) -> dict[str, Any]:
    """The player's matches, newest first, with the filters of his history; ``versus``: only
    those against that player, with the head-to-head count. Neither counts a match of a
    same-cards round still being played (the store leaves them out: burraco.store.hidden)."""
    user = await _person(hub, name)
    other = await _person(hub, versus) if versus is not None else None
    rows = await hub.profiles.matches(
        user.id,
        mode=None if mode is None else mode.value,
        rules=rules,
        rated=rated,
        result=result,
        opponent=None if other is None else other.id,
        limit=limit,
        offset=offset,
    )
    out: dict[str, Any] = {"matches": [_match_json(r) for r in rows], "versus": None}
    if other is not None:
        every = await hub.profiles.matches(user.id, opponent=other.id, limit=100_000)
        out["versus"] = {
            "name": other.name,
            "played": len(every),
            "won": sum(r.result == "win" for r in every),
            "lost": sum(r.result == "loss" for r in every),
            "drawn": sum(r.result == "draw" for r in every),
        }
    return out


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
        "/api/players/{name}/matches",
        player_matches,
        methods=["GET"],
        response_model=None,
        responses=answers(PlayerMatchesOut, 403, 404, INVALID),
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
