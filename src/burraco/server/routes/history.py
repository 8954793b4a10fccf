"""Finished matches over HTTP: the record (TOML), its replay by the engine, the list."""

from __future__ import annotations

import asyncio
import functools
import weakref
from typing import Any

import orjson
from fastapi import FastAPI, Request, Response
from fastapi.responses import PlainTextResponse

from burraco.engine.errors import RecordError
from burraco.errors import ErrorCode

from .. import errors
from ..replay import replay_json
from ..tournament.samecards import HIDDEN, hidden
from .deps import HubDep, QueryId, current_user
from .models import ERROR_SCHEMA, INVALID, MatchOut, ReplayOut, answers


async def record(table_id: str, hub: HubDep, match: QueryId = 1) -> Response:
    if await hidden(hub.store, table_id):
        return errors.refusal(ErrorCode.SAME_CARDS_HIDDEN, HIDDEN)
    text = await hub.store.match_record(table_id, match)
    if text is None:
        return errors.refusal(ErrorCode.NO_RECORD, "no finished match there")
    return PlainTextResponse(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="burraco-{table_id}-{match}.toml"'},
    )


async def replay(table_id: str, hub: HubDep, match: QueryId = 1) -> Response:
    """The finished match replayed by the engine: per smazzata, the public view after the
    deal and after each action, with every seat's hand (the match is over)."""
    if await hidden(hub.store, table_id):
        return errors.refusal(ErrorCode.SAME_CARDS_HIDDEN, HIDDEN)
    text = await hub.store.match_record(table_id, match)
    if text is None:
        return errors.refusal(ErrorCode.NO_RECORD, "no finished match there")
    try:
        async with _one_at_a_time():
            body = await asyncio.to_thread(_replay_bytes, text)
    except RecordError as error:
        return errors.refusal(ErrorCode.BAD_RECORD, str(error))
    return Response(body, media_type="application/json")


_REPLAYING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
"""Per event loop, one replay computed at a time: a long match's replay takes seconds of CPU
(11 MB for 20 smazzate), and several at once starved the loop (issue 19, found by the
black-box re-test)."""


def _one_at_a_time() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    semaphore = _REPLAYING.get(loop)
    if semaphore is None:
        semaphore = _REPLAYING[loop] = asyncio.Semaphore(1)
    return semaphore


@functools.lru_cache(maxsize=4)
def _replay_bytes(text: str) -> bytes:
    """The replay encoded, in the worker thread (FastAPI's encoder of the same dict ran on the
    event loop for seconds); kept for the records asked again (a record never changes)."""
    return orjson.dumps(replay_json(text))


async def matches(request: Request, hub: HubDep, mine: bool = False) -> list[dict[str, Any]]:
    name = (await current_user(request)).name if mine else None
    # The public list shows public tables' matches; one's own list shows one's private ones too.
    # A same-cards round's tables show no result until the round is over (its totals would
    # tell the others about the cards they are playing): the store leaves them out.
    rows = await hub.store.matches(user_name=name, public_only=not mine)
    return [
        {
            "table": r.table_id,
            "match": r.match_no,
            "finished_at": r.finished_at.isoformat(),
            "players": r.players,
            "totals": r.totals,
            "winner": r.winner,
            "ended": r.ended,
            # T14: after a timeout the totals may be 0-0; the MP say who won and by how much.
            "mp": r.mp,
            "vp": r.vp,
            "smazzate": r.smazzate,
        }
        for r in rows
    ]


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/tables/{table_id}/record",
        record,
        methods=["GET"],
        response_class=PlainTextResponse,
        responses={
            200: {"content": {"application/toml": {"schema": {"type": "string"}}}},
            403: {
                "description": "A same-cards round still being played (same_cards_hidden)",
                "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}},
            },
            404: {
                "description": "No finished match there",
                "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}},
            },
        },
        tags=["history"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/replay",
        replay,
        methods=["GET"],
        response_model=None,
        responses=answers(ReplayOut, 403, 404, INVALID),
        tags=["history"],
    )
    app.add_api_route(
        "/api/matches",
        matches,
        methods=["GET"],
        response_model=None,
        responses=answers(None, 401) | {200: {"model": list[MatchOut]}},
        tags=["history"],
    )
