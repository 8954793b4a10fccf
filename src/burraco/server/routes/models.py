"""The answers of the HTTP routes, as the OpenAPI description shows them (the routes return
plain JSON; tests/server/test_schemas.py checks every answer against its schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from burraco.store import UserInfo


class ErrorOut(BaseModel):
    error: str = Field(description="A code, e.g. seat_taken (docs/protocol.md)")
    message: str = Field(description="What went wrong, in words")
    detail: dict[str, Any] | None = Field(
        None,
        description="The precise cause, when known: {code, params}, for a page to say it in its"
        " language (e.g. {code: date_outside_season, params: {date, start, end}})",
    )


class RequestErrorOut(ErrorOut):
    """A 422: a request that fails validation (``bad_request``, with ``detail``) or input the
    service refuses (e.g. ``no_such_bot``, ``bad_rules``)."""

    detail: list[dict[str, Any]] | dict[str, Any] | None = Field(  # type: ignore[assignment]
        None,
        description="bad_request: every problem found, as {loc, msg, type, ...}; other codes:"
        " the precise cause {code, params} when known",
    )


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool
    bot: bool = Field(False, description="A bot account (docs/accounts.md)")


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
    bot_account: bool = Field(
        False, description="The seat's player is a bot account (an outside program online)"
    )


class TableOut(BaseModel):
    id: str = Field(description="Random and unguessable: a private table's invitation")
    status: Literal["open", "playing", "finished", "cancelled"] = Field(
        description="open (waiting for players), playing, finished, or cancelled (by its "
        "creator, or deserted)"
    )
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
    ended: str = Field(description="complete, timeout or forfeit")
    mp: list[int] | None = Field(
        None, description="Match points by line when they apply (T14's technical score)"
    )
    vp: list[int] | None = Field(None, description="Victory points by line when they apply")
    smazzate: int = Field(
        description="The smazzate finished (scored) in the match; one cut by a timeout is not"
        " counted (T14)"
    )


class ReplayStepOut(BaseModel):
    action: str | None = Field(description="The action just played (null: after the deal)")
    view: dict[str, Any] = Field(description="The public (spectator) view after it")
    hands: list[list[str]] = Field(description="Every seat's hand, by seat (the match is over)")


class ReplayHandOut(BaseModel):
    number: int
    first: int = Field(description="The seat that played first")
    ended: str = Field(
        description="How the smazzata ended (a SmazzataScore.ended), timeout or unfinished"
    )
    steps: list[ReplayStepOut]
    score: dict[str, Any] | None = Field(description="Its score sheet (null: not scored)")
    totals: list[int] = Field(description="The match totals after it")


class ReplayOut(BaseModel):
    rules: str
    players: list[str]
    hands: list[ReplayHandOut]
    totals: list[int]
    winner: int | None


class InfoOut(BaseModel):
    version: str
    protocol: int
    presets: list[str]
    bots: list[str]


class RulesetOut(BaseModel):
    name: str = Field(description="the preset's name (``find_rules``)")
    parameters: dict[str, Any] = Field(
        description="every parameter of the preset (docs/rules.md), sets as sorted lists"
    )


class RulesetsOut(BaseModel):
    presets: list[RulesetOut]


class StatsOut(BaseModel):
    tables: int = Field(description="tables held by this process")
    connections: int = Field(description="open WebSocket connections")
    gc: dict[str, Any] = Field(description="the garbage collector's record (collector.py)")


ERROR_SCHEMA = "#/components/schemas/ErrorOut"
INVALID = 422
"""The status of a request that fails validation (``errors.install``)."""


def describe_invalid_requests(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with FastAPI's own 422 answer (``HTTPValidationError``, ``{detail}``) replaced by
    what ``errors.install`` answers: ``RequestErrorOut``, ``{error, message, detail}``."""
    schemas: dict[str, Any] = spec.setdefault("components", {}).setdefault("schemas", {})
    ours = "#/components/schemas/RequestErrorOut"
    for operations in spec.get("paths", {}).values():
        for operation in operations.values():
            invalid = operation.get("responses", {}).get(str(INVALID), {})
            media = invalid.get("content", {}).get("application/json", {})
            if media.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"):
                media["schema"] = {"$ref": ours}
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    if "RequestErrorOut" not in schemas:
        schema = RequestErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas["RequestErrorOut"] = schema
    return spec


def answers(
    model: type[BaseModel] | None, *errors: int, status: int = 200
) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: its answer's schema and its ``{error, message}`` errors."""
    out: dict[int | str, dict[str, Any]] = {
        code: {"model": RequestErrorOut if code == INVALID else ErrorOut} for code in errors
    }
    if model is not None:
        out[status] = {"model": model}
    return out


def user_out(user: UserInfo) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest, bot=user.is_bot)


class LeaderOut(BaseModel):
    rank: int
    name: str
    rating: int
    sigma: int = Field(description="The rating's uncertainty")
    matches: int = Field(description="Rated matches (in the month, on a monthly board)")
    delta: int | None = Field(description="The month's change (null on the overall board)")
    bot: bool = Field(False, description="A bot account")


class BotRatingOut(BaseModel):
    level: str = Field(description="A bot level of /api/info; its rating is a fixed anchor")
    rating: int


class LeaderboardOut(BaseModel):
    mode: Literal["2p", "3p", "4p"]
    month: str | None = Field(description="YYYY-MM, or null: the overall board")
    provisional: bool = Field(description="The provisional players' board (listed apart)")
    players: list[LeaderOut]
    bots: list[BotRatingOut]


class RatingOut(BaseModel):
    mode: Literal["2p", "3p", "4p"]
    rating: int
    sigma: int
    provisional: bool
    matches: int
    wins: int
    draws: int
    abandoned: int = Field(description="Rated matches the player abandoned (issue 16)")


class RatingPointOut(BaseModel):
    at: str
    rating: int = Field(description="After the match")
    delta: int
    result: Literal["win", "loss", "draw", "abandoned", "held"]
    table: str
    match: int


class ModeStatsOut(BaseModel):
    mode: Literal["2p", "3p", "4p"]
    matches: int
    wins: int
    draws: int
    smazzate: int
    mp_per_smazzata: float = Field(description="Own line's score minus the best other's, mean")
    clean_per_smazzata: float
    dirty_per_smazzata: float
    pozzetto_rate: float = Field(description="Smazzate whose pozzetto the line took, share")
    closing_rate: float = Field(description="Smazzate the player closed, share")


class PlayerMatchOut(BaseModel):
    table: str
    match: int
    finished_at: str
    mode: Literal["2p", "3p", "4p"]
    rules: str
    rated: bool
    result: Literal["win", "loss", "draw"]
    ended: str
    seat: int
    players: list[str] = Field(description="Names by seat")
    smazzate: int
    mp: int


class VersusOut(BaseModel):
    name: str
    played: int
    won: int
    lost: int
    drawn: int


class PlayerMatchesOut(BaseModel):
    matches: list[PlayerMatchOut]
    versus: VersusOut | None = Field(description="With versus: the head-to-head count")


class PlayerRatingsOut(BaseModel):
    name: str
    bot: bool = Field(False, description="A bot account")
    owner: str | None = Field(None, description="A bot account's owner (null for a person)")
    stats: list[ModeStatsOut] = Field(description="Per mode played, rated or not")
    recent: list[PlayerMatchOut] = Field(description="The last 10 matches")
    ratings: list[RatingOut] = Field(description="One per mode played rated")
    history: dict[str, list[RatingPointOut]] = Field(description="Per mode, oldest first")


class QueueOut(BaseModel):
    players: int
    rules: str
    clock: str
    rated: bool
    waiting: int | None = Field(None, description="How many wait in this queue")


class QuickPlayOut(BaseModel):
    status: Literal["idle", "waiting", "partner", "seated"] = Field(
        description="idle; waiting in a queue; partner: waiting for the named partner to"
        " queue too; seated: a table was found (table)"
    )
    queue: QueueOut | None = None
    waiting: int | None = Field(None, description="How many wait in the user's queue")
    table: str | None = None
    queues: list[QueueOut] | None = Field(None, description="GET: every queue with people")


class SessionInfoOut(BaseModel):
    id: str = Field(description="The start of the session's hash (to tell them apart)")
    created_at: str
    expires_at: str
    current: bool


class AccountOut(BaseModel):
    name: str
    email: str | None = Field(description="The verified address, or null")
    mail_standings: bool
    mail_invitations: bool = Field(
        description="Invitations and challenges by mail when no page of the site is open"
    )
    mail: bool = Field(description="Whether this server sends mail at all")
    sessions: list[SessionInfoOut]


class BotAccountOut(BaseModel):
    name: str
    created_at: str
    token: bool = Field(description="Whether a token is live (it is shown only once)")
    token_created_at: str | None


class BotListOut(BaseModel):
    bots: list[BotAccountOut]
    limit: int = Field(description="How many bot accounts one person may have")


class BotTokenOut(BaseModel):
    bot: BotAccountOut
    token: str = Field(description="The bot's API token: shown this once, never again")


class SentOut(BaseModel):
    sent: bool = Field(description="Always true: the answer never tells whether a mail went")


class ReviewProgressOut(BaseModel):
    done: int = Field(description="Decisions reviewed so far")
    total: int = Field(description="Decisions to review in all (0: not counted yet)")


class ReviewOut(BaseModel):
    table: str
    match: int
    seat: int = Field(description="The seat reviewed")
    status: Literal["queued", "running", "done", "failed"]
    requested_at: str
    finished_at: str | None
    seconds: float = Field(description="The budget per decision (burraco.bots.review)")
    position: int | None = Field(
        description="Queued: its place in the queue (1: next); null otherwise"
    )
    progress: ReviewProgressOut | None = Field(description="Running: how far it is")
    review: dict[str, Any] | None = Field(
        description="Done: the review (format burraco-review/1, docs/review.md)"
    )
    error: str | None = Field(description="Failed: why, in words")


class ReviewsOut(BaseModel):
    you: int | None = Field(description="The caller's seat at the match (null: not a player)")
    players: int = Field(description="Seats at the table")
    reviews: list[ReviewOut] = Field(description="The match's reviews, by seat")
