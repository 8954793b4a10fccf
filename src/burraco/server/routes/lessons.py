"""The guided first game (``POST /api/lessons``): a private table where the caller plays one
smazzata against the easy bot on the lesson's deal (``server/lesson.py``); the browser shows
hints at each step."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from ..lesson import LESSON_BOT, LESSON_RULES, LESSON_SEAT
from ..table import commands
from ..tableconfig import TableConfig
from .deps import CurrentUser, HubDep
from .models import TableOut, answers


async def start_lesson(user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    settings = TableConfig(
        rules=LESSON_RULES, players=2, smazzate=1, public=False, between_smazzate=0, lesson=True
    )
    actor = await hub.create_table(user, settings, seat=LESSON_SEAT, bot_seats=1)
    info: dict[str, Any] = await actor.call(commands.SeatBot(user, 1 - LESSON_SEAT, LESSON_BOT))
    return info


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/lessons",
        start_lesson,
        methods=["POST"],
        tags=["lobby"],
        status_code=201,
        response_model=None,
        responses=answers(TableOut, 401, 409, 429, status=201),
    )
