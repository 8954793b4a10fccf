"""Online tournaments over HTTP (``/api/tournaments``): create, list, look at, register,
unregister, enter bots. The tournament itself runs in ``tournaments.TournamentManager``; live
standings reach watchers over the WebSocket (``watch_tournament``, docs/protocol.md).

Authentication is the server's session (the ``burraco_session`` cookie or ``Authorization:
Bearer``), as for the lobby. Every refusal is ``{error, message}`` with its status.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from pydantic import BaseModel, Field

from burraco.errors import ErrorCode
from burraco.tournament.recurrence import Recurrence

from ..tournaments import TournamentError, TournamentManager, TournamentSettings
from .deps import CurrentUser, Int64, PathId, refuse_bot
from .models import INVALID, RequestErrorOut


class NewTournament(BaseModel):
    name: str = Field("", max_length=80)
    start: Literal["sitgo", "scheduled"] = Field(
        description="sitgo: starts when `size` entrants have registered; scheduled: at "
        "`starts_at` (registration closes 2 minutes before)"
    )
    size: int | None = Field(None, ge=4, le=256, description="A Sit&Go's number of entrants")
    starts_at: datetime | None = Field(None, description="A scheduled start (ISO 8601, UTC)")
    kind: Literal["individual", "pairs", "individual_four"] = "individual"
    system: Literal["danish", "round_robin", "mitchell", "knockout"] = "danish"
    rounds: int | None = Field(None, ge=1, le=20)
    rules: str = "italian"
    options: dict[str, Any] = Field(default_factory=dict)
    smazzate: int = Field(3, ge=1, le=20, description="Smazzate per round")
    round_seconds: float | None = Field(None, description="The chess clock of a round (T5)")
    hand_seconds: float | None = Field(None, description="The turn timer (T11)")
    vp_table: Literal["auto", "VP-2", "VP-3", "VP-4"] = "auto"
    rematch_policy: Literal["allowed", "not_previous_round", "never"] = "not_previous_round"
    bracket: Literal["redraw_each_round", "fixed_bracket"] = "redraw_each_round"
    absent: Literal["bot", "forfeit"] = Field(
        "bot", description="A seat whose player is away: a bot plays it, or the line forfeits"
    )
    absent_seconds: float | None = Field(None, ge=1, le=600)
    between_smazzate: float = Field(4.0, ge=0, le=60)
    min_players: int = Field(4, ge=4, le=256)
    elimination: dict[str, Int64] | None = Field(
        None,
        description="T21, Danish only: after round r (the key), entrants below that many VP "
        'are out, e.g. {"1": 7, "2": 14} for 3 rounds',
    )
    same_cards: bool = Field(
        False,
        description="Carte uguali: every table of a round plays the same deals in the same "
        "seats; each line is compared with the field (docs/tournaments.md)",
    )


class Registration(BaseModel):
    partner: str | None = Field(
        None, max_length=64, description="Pairs tournaments: the partner's player name"
    )


class BotEntrants(BaseModel):
    level: str = Field(max_length=64)
    count: int = Field(1, ge=1, le=256)


class TournamentErrorOut(BaseModel):
    error: str = Field(description="A code, e.g. registration_closed (docs/protocol.md)")
    message: str


class TournamentSummaryOut(BaseModel):
    id: str
    name: str
    status: str = Field(description="registering, running, finished or cancelled")
    start: str = Field(description="sitgo or scheduled")
    starts_at: str | None
    closes_at: str | None = Field(description="When registration closes (scheduled)")
    size: int | None
    entrant_count: int = Field(description="Entrants registered (or playing)")
    settings: dict[str, Any]
    created_by: int | None
    created_at: str
    started_at: str | None
    finished_at: str | None
    note: str | None = Field(description="Why it was cancelled")
    registration_open: bool


class TournamentOut(TournamentSummaryOut):
    entrants: list[dict[str, Any]] = Field(
        description="[{id, name, bot, user_id, partner_id, position, status}] in registration order"
    )
    vp_table: str
    vp_rows: list[list[Any]] = Field(
        description="The VP table as shown to the players (T16): [MP range, winner VP, loser VP]"
    )
    rounds_total: int | None
    rounds: list[dict[str, Any]] = Field(
        description="[{number, status, relaxed, byes, tables: [{number, table_id, lines, result}]}]"
    )
    standings: list[dict[str, Any]] = Field(
        description="[{place, entrant, name, bot, vp, mp, played, byes, tied}] best first"
    )
    eliminated: dict[str, int] = Field(
        description="T21: entrant id -> the round after which the entrant went out"
    )


class InvitationOut(BaseModel):
    tournament: str = Field(description="The tournament's id")
    name: str = Field(description="The tournament's name")
    pair: str = Field(description="The pair's name")
    by: str = Field(description="The player who named you as partner")


def _answers(
    *errors: int, model: Any = TournamentOut, status: int = 200
) -> dict[int | str, dict[str, Any]]:
    out: dict[int | str, dict[str, Any]] = {
        code: {"model": RequestErrorOut if code == INVALID else TournamentErrorOut}
        for code in errors
    }
    if model is not None:
        out[status] = {"model": model}
    return out


def manager(request: Request) -> TournamentManager:
    found: TournamentManager | None = request.app.state.hub.tournaments
    if found is None:
        raise TournamentError(ErrorCode.UNAVAILABLE, "tournaments are not running")
    return found


Manager = Annotated[TournamentManager, Depends(manager)]
Me = CurrentUser

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


def install(app: FastAPI) -> None:
    """Mount the routes (before the static files) and answer ``TournamentError``."""

    app.include_router(router)


@router.get("", response_model=None, responses={200: {"model": list[TournamentSummaryOut]}})
async def tournaments(tm: Manager) -> list[dict[str, Any]]:
    """Every tournament, those registering or running first: settings, status, entrants."""
    return await tm.summaries()


@router.get("/invitations", response_model=None, responses=_answers(401, model=list[InvitationOut]))
async def invitations(tm: Manager, me: Me) -> list[dict[str, Any]]:
    """Pairs naming you as partner that wait for your confirmation (tournaments still
    registering): ``{tournament, name, pair, by}`` each."""
    return await tm.invitations(me)


class EventSettings(NewTournament):
    start: Literal["sitgo", "scheduled"] = "scheduled"


class RecurringRequest(BaseModel):
    name: str = Field("", max_length=80)
    weekdays: list[Int64] = Field(default_factory=list, description="0 Monday ... 6; []: daily")
    at: time = Field(description="The start on the organiser's clock, e.g. 21:00")
    zone: str = Field("Europe/Rome", max_length=64, description="An IANA time zone")
    lead_hours: float = Field(24, ge=0.2, le=168, description="How early each event is made")
    tournament: EventSettings = Field(description="The settings of every event")


class RecurringOut(BaseModel):
    id: int
    name: str
    weekdays: list[int]
    at: str
    zone: str
    lead_minutes: int
    last_start: str | None = Field(description="The start of the last event made")


class RecurringMade(BaseModel):
    id: int


@router.get("/recurring", response_model=None, responses=_answers(401, model=list[RecurringOut]))
async def recurring(tm: Manager, me: Me) -> list[dict[str, Any]]:
    """The organiser's active schedules."""
    return await tm.recurring_of(me)


@router.post(
    "/recurring",
    status_code=201,
    response_model=None,
    responses=_answers(401, 403, 422, model=RecurringMade, status=201),
)
async def add_recurring(body: RecurringRequest, tm: Manager, me: Me) -> dict[str, Any]:
    """A recurring event: "every day at 21:00, a Danish tournament with these settings"; the
    server creates each event ``lead_hours`` before its start (docs/tournaments.md)."""
    recurrence = Recurrence(
        weekdays=tuple(body.weekdays),
        at=body.at,
        zone=body.zone,
        lead=timedelta(hours=body.lead_hours),
    )
    return await tm.add_recurring(
        me, name=body.name, recurrence=recurrence, settings=_settings(body.tournament)
    )


@router.delete("/recurring/{event_id}", status_code=204, responses=_answers(401, 404, model=None))
async def stop_recurring(event_id: PathId, tm: Manager, me: Me) -> Response:
    await tm.stop_recurring(me, event_id)
    return Response(status_code=204)


def _settings(body: NewTournament) -> TournamentSettings:
    return TournamentSettings(
        kind=body.kind,
        system=body.system,
        rounds=body.rounds,
        rules=body.rules,
        options=body.options,
        smazzate=body.smazzate,
        round_seconds=body.round_seconds,
        hand_seconds=body.hand_seconds,
        vp_table=body.vp_table,
        rematch_policy=body.rematch_policy,
        bracket=body.bracket,
        absent=body.absent,
        absent_seconds=body.absent_seconds,
        between_smazzate=body.between_smazzate,
        min_players=body.min_players,
        elimination=body.elimination,
        same_cards=body.same_cards,
    )


@router.post(
    "", status_code=201, response_model=None, responses=_answers(401, 403, 422, status=201)
)
async def create(body: NewTournament, tm: Manager, me: Me) -> dict[str, Any]:
    """A new Sit&Go or scheduled tournament (the creator is its organiser; not a bot)."""
    refuse_bot(me)
    settings = _settings(body)
    return await tm.create(
        me,
        name=body.name,
        start=body.start,
        size=body.size,
        starts_at=body.starts_at,
        settings=settings,
    )


@router.get("/{tournament_id}", response_model=None, responses=_answers(404))
async def tournament(tournament_id: str, tm: Manager) -> dict[str, Any]:
    """The tournament: entrants, every round's tables (with their server tables and results),
    and the standings."""
    return await tm.view(tournament_id)


@router.post(
    "/{tournament_id}/register", response_model=None, responses=_answers(401, 403, 404, 409)
)
async def register(
    tournament_id: str, tm: Manager, me: Me, body: Registration | None = None
) -> dict[str, Any]:
    """Register (``409 registration_closed``, ``full``, ``already_registered``,
    ``not_registering``); a pairs tournament needs the partner's name (``422
    partner_needed``, ``no_such_partner``), and the pair is ``invited`` until the partner
    confirms it. A bot account does not enter tournaments (``403``, ``bot_account``)."""
    refuse_bot(me)
    return await tm.register(me, tournament_id, None if body is None else body.partner)


@router.post("/{tournament_id}/confirm", response_model=None, responses=_answers(401, 404, 409))
async def confirm(tournament_id: str, tm: Manager, me: Me) -> dict[str, Any]:
    """The partner named by a pair confirms it (``409 no_invitation``, ``full``,
    ``registration_closed``); to decline, the partner withdraws (``unregister``)."""
    return await tm.confirm(me, tournament_id)


@router.post("/{tournament_id}/unregister", response_model=None, responses=_answers(401, 404, 409))
async def unregister(tournament_id: str, tm: Manager, me: Me) -> dict[str, Any]:
    """Withdraw while registration is open, or decline a pair you were named in
    (``409 not_registered``)."""
    return await tm.unregister(me, tournament_id)


@router.post(
    "/{tournament_id}/bots", response_model=None, responses=_answers(401, 403, 404, 409, 422)
)
async def bots(tournament_id: str, body: BotEntrants, tm: Manager, me: Me) -> dict[str, Any]:
    """The organiser enters bots (up to a Sit&Go's size, which then starts)."""
    return await tm.add_bots(me, tournament_id, body.level, body.count)
