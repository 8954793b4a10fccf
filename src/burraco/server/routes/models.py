"""The answers of the HTTP routes, as the OpenAPI description shows them (the routes return
plain JSON; tests/server/test_schemas.py checks every answer against its schema)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from burraco.store import UserInfo


class ErrorOut(BaseModel):
    error: str = Field(description="A code, e.g. seat_taken (docs/protocol.md)")
    message: str = Field(description="What went wrong, in words")


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool


class LoginOut(BaseModel):
    user: UserOut
    token: str = Field(description="Bearer token for programs (browsers get a cookie too)")


class SeatOut(BaseModel):
    seat: int
    name: str | None
    bot: str | None = Field(description="The bot level holding the seat")
    connected: bool
    away: bool
    substitute: str | None = Field(description="The bot level playing for an absent player")


class TableOut(BaseModel):
    id: str = Field(description="Random and unguessable: a private table's invitation")
    status: str = Field(description="open, playing or finished")
    config: dict[str, Any] = Field(description="The settings the table was created with")
    seats: list[SeatOut]
    match_no: int
    created_by: int | None


class LobbyTableOut(TableOut):
    free_seats: list[int]


class MatchOut(BaseModel):
    table: str
    match: int
    finished_at: str
    players: list[str]
    totals: list[int]
    winner: int | None
    ended: str = Field(description="complete or timeout")


class InfoOut(BaseModel):
    version: str
    protocol: int
    presets: list[str]
    bots: list[str]


class StatsOut(BaseModel):
    tables: int = Field(description="tables held by this process")
    connections: int = Field(description="open WebSocket connections")
    gc: dict[str, Any] = Field(description="the garbage collector's record (collector.py)")


ERROR_SCHEMA = "#/components/schemas/ErrorOut"


def answers(
    model: type[BaseModel] | None, *errors: int, status: int = 200
) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: its answer's schema and its ``{error, message}`` errors."""
    out: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in errors}
    if model is not None:
        out[status] = {"model": model}
    return out


def user_out(user: UserInfo) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)
