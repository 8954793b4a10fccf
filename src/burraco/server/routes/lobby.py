"""The lobby over HTTP: list and create tables, look at one, sit, stand, cancel, seat bots,
rematch. Each command runs on the table's actor, whose answer is the table's info."""

from __future__ import annotations

import inspect
import re
from typing import Annotated, Any

from fastapi import FastAPI
from pydantic import BaseModel, Field

from burraco.bots import BOT_LEVELS
from burraco.errors import ErrorCode

from ..hub import Hub
from ..table import TableError, commands
from ..tableconfig import TABLE_SMAZZATE, TABLE_TARGET, TableConfig
from .deps import CurrentUser, HubDep, Int64
from .models import LobbyTableOut, TableOut, answers

MAX_BOT_SECONDS = 5.0
"""The longest a bot seated from the lobby may think per move (``search:seconds=S``)."""


SeatKey = Annotated[str, Field(pattern=r"^(0|[1-9][0-9]{0,8})$")]
"""A seat number as a JSON object's key: plain decimal digits ("1", not "1.0", "-0" or "01")."""


class NewTable(BaseModel):
    rules: str = "italian"
    players: int = Field(2, ge=2, le=4)
    target: int | None = Field(None, ge=TABLE_TARGET[0], le=TABLE_TARGET[1])
    smazzate: int | None = Field(None, ge=TABLE_SMAZZATE[0], le=TABLE_SMAZZATE[1])
    options: dict[str, Any] = Field(default_factory=dict)
    round_seconds: float | None = None
    hand_seconds: float | None = None
    public: bool = True
    between_smazzate: float = 4.0
    sheet_seconds: float = Field(
        30.0, description="Longest wait for the seated people to close the score sheet"
    )
    rated: bool = Field(
        False, description="Counts for the ratings: a target or at least 3 smazzate, no guests"
    )
    seat: Int64 | None = Field(0, description="Sit here at once (None: create without sitting)")
    bots: dict[SeatKey, str] = Field(
        default_factory=dict, description="Seats to fill with bots at once: seat -> level"
    )


class SeatRequest(BaseModel):
    seat: int = Field(ge=0, le=3)


class BotRequest(BaseModel):
    seat: int = Field(ge=0, le=3)
    level: str | None = Field(description="A bot level, or null to remove the seat's bot")


async def table_command(hub: Hub, table_id: str, command: commands.LobbyCommand) -> dict[str, Any]:
    """Run a lobby command on a table's actor; its answer is the table's info."""
    actor = await hub.table(table_id)
    answer: dict[str, Any] = await actor.call(command)
    return answer


async def tables(hub: HubDep) -> list[dict[str, Any]]:
    return hub.lobby()


async def create(body: NewTable, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    settings = TableConfig(
        rules=body.rules,
        players=body.players,
        target=body.target,
        smazzate=body.smazzate,
        options=body.options,
        round_seconds=body.round_seconds,
        hand_seconds=body.hand_seconds,
        public=body.public,
        between_smazzate=body.between_smazzate,
        sheet_seconds=body.sheet_seconds,
        rated=body.rated,
        # Leaving a rated match past the away deadline loses it (issue 16): the line forfeits
        # with T14's technical score. With 3 players a bot takes the seat (there is no line to
        # forfeit for) and the leaver is still rated last.
        absent="forfeit" if body.rated and body.players != 3 else "bot",
    )
    if body.rated and user.is_guest:
        raise TableError(
            ErrorCode.GUEST_NOT_RATED,
            "a rated table is for registered players: guests are never rated",
        )
    if body.seat is not None and not 0 <= body.seat < body.players:
        raise TableError(ErrorCode.NO_SUCH_SEAT, f"there is no seat {body.seat}")
    bots = {int(seat): level for seat, level in body.bots.items()}
    for seat, level in bots.items():
        check_bot(level)
        if not 0 <= seat < body.players or seat == body.seat:
            raise TableError(ErrorCode.NO_SUCH_SEAT, f"seat {seat} cannot take a bot")
    actor = await hub.create_table(user, settings, seat=body.seat, bot_seats=len(bots))
    info: dict[str, Any] = actor.info_json()
    for seat, level in sorted(bots.items()):
        info = await actor.call(commands.SeatBot(user, seat, level))
    return info


async def table(table_id: str, hub: HubDep) -> dict[str, Any]:
    return (await hub.table(table_id)).info_json()


async def sit(table_id: str, body: SeatRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await table_command(hub, table_id, commands.Sit(user, body.seat))


async def stand(table_id: str, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await table_command(hub, table_id, commands.Stand(user))


async def cancel(table_id: str, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await table_command(hub, table_id, commands.Cancel(user))


async def bot(table_id: str, body: BotRequest, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    if body.level is not None:
        check_bot(body.level)
    return await table_command(hub, table_id, commands.SeatBot(user, body.seat, body.level))


async def rematch(table_id: str, user: CurrentUser, hub: HubDep) -> dict[str, Any]:
    return await table_command(hub, table_id, commands.Rematch(user))


_LEVEL = re.compile(r"(?P<name>[a-z]{1,20})(?::seconds=(?P<seconds>[0-9]{1,3}(?:\.[0-9]{1,3})?))?")
"""A level as the lobby takes it, exactly: its name, and for a level that thinks against the
clock a time in ASCII digits (``search:seconds=2.5``); no spaces, no other option."""


def check_bot(level: str) -> None:
    """A bot level the lobby may seat: a known level, never an outside program (``cmd:``), and
    no options but a bounded thinking time, for a level that takes one (other options, such as a
    number of iterations, could make a bot think without end in the shared worker processes; a
    time given to a level without a clock made it fail every turn and play T13's default moves,
    rated against the level's anchor all the same: issue 19)."""
    spelled = _LEVEL.fullmatch(level)
    name = spelled["name"] if spelled else ""
    if name not in BOT_LEVELS or name == "cmd":
        raise TableError(ErrorCode.NO_SUCH_BOT, f"unknown bot level {level[:64]!r}")
    assert spelled is not None
    seconds = spelled["seconds"]
    if seconds is None:
        return
    if "seconds" not in inspect.signature(BOT_LEVELS[name]).parameters:
        raise TableError(ErrorCode.NO_SUCH_BOT, f"the {name} bot takes no thinking time")
    if not 0 < float(seconds) <= MAX_BOT_SECONDS:
        raise TableError(
            ErrorCode.NO_SUCH_BOT,
            f"a bot thinks more than 0 and at most {MAX_BOT_SECONDS:g} seconds a move",
        )


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/tables",
        tables,
        methods=["GET"],
        response_model=None,
        responses={200: {"model": list[LobbyTableOut]}},
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables",
        create,
        methods=["POST"],
        status_code=201,
        response_model=None,
        responses=answers(TableOut, 401, 409, 422, 429, status=201),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}",
        table,
        methods=["GET"],
        response_model=None,
        responses=answers(TableOut, 404),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/sit",
        sit,
        methods=["POST"],
        response_model=None,
        responses=answers(TableOut, 401, 404, 409),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/stand",
        stand,
        methods=["POST"],
        response_model=None,
        responses=answers(TableOut, 401, 404, 409),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/cancel",
        cancel,
        methods=["POST"],
        response_model=None,
        responses=answers(TableOut, 401, 403, 404, 409),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/bots",
        bot,
        methods=["POST"],
        response_model=None,
        responses=answers(TableOut, 401, 403, 404, 409),
        tags=["lobby"],
    )
    app.add_api_route(
        "/api/tables/{table_id}/rematch",
        rematch,
        methods=["POST"],
        response_model=None,
        responses=answers(TableOut, 401, 403, 404, 409),
        tags=["lobby"],
    )
