"""The club manager on the web (``/api/club/...``): what a club's officers change and its members
read, over ``burraco.club.service.ClubService`` (docs/club.md, "On the web").

Who is who: the server's session (the ``burraco_session`` cookie or ``Authorization: Bearer``)
names a platform account; the service looks up the club member linked to that account and his
officer flag. Every refusal is the service's ``ClubError`` (a ``ServiceError``), answered by
``burraco.server.errors`` with its status and ``{error, message}`` like the rest of the API;
nothing changes when a request is refused (each change is one transaction). The room timer
and the calendar (``.ics`` and printable page) need no login: the first is projected in the
room, the second is a calendar subscription. The request bodies are in ``club_bodies``, the
JSON of the answers in ``club_json``, what the routes share in ``club_common``, the season's
money and files in ``club_files``.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Query, Request

from burraco.club.errors import ClubError
from burraco.club.service import Actor, ClubService, ResultInput
from burraco.store import Store

from . import club_files
from .club_bodies import (
    CheckinRequest,
    CheckRequest,
    ClubChange,
    Correction,
    DrawRequest,
    EveningChange,
    MemberChange,
    NewCalendar,
    NewClub,
    NewEvening,
    NewMember,
    NewSeason,
    Reason,
    Resolution,
    RestChange,
    ResultRequest,
    ResultsRequest,
    SeasonChange,
    SeatingRequest,
    StartGame,
    UncheckRequest,
)
from .club_common import READ, WRITE, Club, Me, answers, utcnow
from .club_json import (
    Json,
    audit_json,
    check_info_json,
    club_json,
    evening_info_json,
    evening_json,
    game_json,
    member_json,
    role_json,
    season_evening_json,
    season_json,
    timer_json,
)
from .deps import OptionalQueryId, PathId


def install(app: FastAPI) -> None:
    """Mount the routes (before the static files; ``burraco.server.errors`` answers the
    refusals): these, then ``club_files``'."""
    app.include_router(router)
    app.include_router(club_files.router)


router = APIRouter(prefix="/api/club", tags=["club"])


# ----------------------------------------------------------------------------- clubs, members


@router.get("/clubs", responses=answers(401), response_model=None)
async def my_clubs(club: Club, me: Me) -> list[Json]:
    """The clubs the user is a member of, with his member name and role."""
    return [
        {**club_json(c), "member": m.name, "officer": m.officer and m.active}
        for c, m in await club.clubs_of(me)
    ]


@router.post("/clubs", status_code=201, responses=WRITE, response_model=None)
async def create_club(body: NewClub, club: Club, me: Me, request: Request) -> Json:
    """A new club; its creator becomes its first officer. Guests cannot create clubs."""
    store: Store = request.app.state.hub.store
    user = await store.user_by_name(me.name)
    if user is None or user.is_guest or user.is_bot:
        raise ClubError("forbidden", "register an account to create a club (guests cannot)")
    made = await club.create_club(
        me,
        body.name,
        timezone=body.timezone,
        place=body.place,
        founder=body.founder,
        founder_email=body.founder_email,
    )
    return club_json(made)


@router.get("/clubs/{club_id}", responses=READ, response_model=None)
async def get_club(club_id: PathId, club: Club, me: Me) -> Json:
    """The club, the user's role, its seasons and its members (addresses for officers only)."""
    info, role = await club.club(me, club_id)
    seasons = await club.seasons(me, club_id)
    members = await club.members(me, club_id)
    return {
        **club_json(info),
        "role": role_json(role),
        "seasons": [season_json(s) for s in seasons],
        "members": [member_json(m) for m in members],
    }


@router.patch("/clubs/{club_id}", responses=WRITE, response_model=None)
async def change_club(club_id: PathId, body: ClubChange, club: Club, me: Me) -> Json:
    return club_json(await club.update_club(me, club_id, place=body.place, timezone=body.timezone))


@router.get("/clubs/{club_id}/members", responses=READ, response_model=None)
async def members(club_id: PathId, club: Club, me: Me) -> list[Json]:
    return [member_json(m) for m in await club.members(me, club_id)]


@router.post("/clubs/{club_id}/members", status_code=201, responses=WRITE, response_model=None)
async def add_member(club_id: PathId, body: NewMember, club: Club, me: Me) -> Json:
    member = await club.add_member(
        me, club_id, body.name, email=body.email, officer=body.officer, account=body.account
    )
    return member_json(member)


@router.patch("/clubs/{club_id}/members/{member_id}", responses=WRITE, response_model=None)
async def change_member(
    club_id: PathId, member_id: PathId, body: MemberChange, club: Club, me: Me
) -> Json:
    member = await club.update_member(
        me,
        club_id,
        member_id,
        name=body.name,
        email=body.email,
        officer=body.officer,
        account=body.account,
        active=body.active,
    )
    return member_json(member)


@router.get("/clubs/{club_id}/audit", responses=READ, response_model=None)
async def audit(
    club_id: PathId,
    *,
    club: Club,
    me: Me,
    season: OptionalQueryId = None,
    evening: OptionalQueryId = None,
    action: str | None = Query(None, max_length=40, description="e.g. result. or fee."),
) -> list[Json]:
    """The audit trail (officers): who changed what, when and why."""
    entries = await club.audit_trail(
        me, club_id, season_id=season, evening_id=evening, action_prefix=action
    )
    return audit_json(entries)


# ----------------------------------------------------------------------------- seasons, calendar


@router.post("/clubs/{club_id}/seasons", status_code=201, responses=WRITE, response_model=None)
async def create_season(club_id: PathId, body: NewSeason, club: Club, me: Me) -> Json:
    settings = body.values()
    for key in ("name", "starts_on", "ends_on"):
        settings.pop(key)
    season = await club.create_season(
        me, club_id, body.name, starts_on=body.starts_on, ends_on=body.ends_on, **settings
    )
    return season_json(season)


@router.get("/seasons/{season_id}", responses=READ, response_model=None)
async def get_season(season_id: PathId, club: Club, me: Me) -> Json:
    """The season with its calendar (each evening numbered; finished ones with their ranking)."""
    season = await club.season(me, season_id)
    standings = await club.standings(me, season_id)
    role = await club.role(me, season.club_id)
    return {
        **season_json(season),
        "club": club_json(standings.club),
        "role": role_json(role),
        "evenings": [season_evening_json(e) for e in standings.evenings],
    }


@router.patch("/seasons/{season_id}", responses=WRITE, response_model=None)
async def change_season(season_id: PathId, body: SeasonChange, club: Club, me: Me) -> Json:
    return season_json(await club.update_season(me, season_id, **body.values()))


@router.post("/seasons/{season_id}/calendar", status_code=201, responses=WRITE, response_model=None)
async def create_calendar(season_id: PathId, body: NewCalendar, club: Club, me: Me) -> list[Json]:
    evenings = await club.create_calendar(
        me, season_id, first=body.first, count=body.count, italiano=body.italiano, skip=body.skip
    )
    return [evening_info_json(e) for e in evenings]


@router.post("/seasons/{season_id}/evenings", status_code=201, responses=WRITE, response_model=None)
async def add_evening(season_id: PathId, body: NewEvening, club: Club, me: Me) -> Json:
    evening = await club.add_evening(
        me, season_id, body.date, body.type, one_game_fewer=body.one_game_fewer
    )
    return evening_info_json(evening)


@router.patch("/evenings/{evening_id}", responses=WRITE, response_model=None)
async def change_evening(evening_id: PathId, body: EveningChange, club: Club, me: Me) -> Json:
    """Move an evening, change its type, play one game fewer, cancel it or give it back."""
    evening = await club.update_evening(
        me,
        evening_id,
        day=body.date,
        type=body.type,
        one_game_fewer=body.one_game_fewer,
        cancelled=body.cancelled,
        note=body.note,
        reason=body.reason,
    )
    return evening_info_json(evening)


@router.delete("/evenings/{evening_id}", status_code=204, responses=WRITE)
async def delete_evening(
    evening_id: PathId, club: Club, me: Me, reason: str = Query("", max_length=500)
) -> None:
    await club.delete_evening(me, evening_id, reason)


# ----------------------------------------------------------------------------- an evening


async def _evening(club: ClubService, me: Actor, evening_id: PathId) -> Json:
    view = await club.evening(me, evening_id)
    return evening_json(view, await club.role(me, view.club.id))


@router.get("/evenings/{evening_id}", responses=READ, response_model=None)
async def get_evening(evening_id: PathId, club: Club, me: Me) -> Json:
    """Check-ins, stations, each game's tables, rests and results, the ranking so far, the
    score checks, and the user's role."""
    return await _evening(club, me, evening_id)


@router.post(
    "/evenings/{evening_id}/checkins", status_code=201, responses=WRITE, response_model=None
)
async def checkin(evening_id: PathId, body: CheckinRequest, club: Club, me: Me) -> Json:
    """Register a player present (the evening is answered). Outside the window (20:30-20:45
    by default) it is refused (``409 late``) unless an officer overrides with a reason; a member
    registers himself, in the window only."""
    await club.checkin(me, evening_id, body.member, override=body.override)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/checkins/remove", responses=WRITE, response_model=None)
async def uncheck(evening_id: PathId, body: UncheckRequest, club: Club, me: Me) -> Json:
    await club.uncheck(me, evening_id, body.member, body.reason)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/draw", responses=WRITE, response_model=None)
async def draw(evening_id: PathId, body: DrawRequest, club: Club, me: Me) -> Json:
    """The draw when check-in closes: stations, the rests and the tables of game 1."""
    await club.draw(me, evening_id, seed=body.seed)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/undo-draw", responses=WRITE, response_model=None)
async def undo_draw(evening_id: PathId, body: Reason, club: Club, me: Me) -> Json:
    await club.undo_draw(me, evening_id, body.reason)
    return await _evening(club, me, evening_id)


@router.put("/evenings/{evening_id}/games/{game}/seating", responses=WRITE, response_model=None)
async def set_seating(
    evening_id: PathId, game: PathId, body: SeatingRequest, club: Club, me: Me
) -> Json:
    """A game's seating as the room was seated by hand (replaces the drawn one)."""
    view = await club.set_seating(me, evening_id, game, body.tables, body.rests, reason=body.reason)
    return game_json(view)


@router.post("/evenings/{evening_id}/games/{game}/rest", responses=WRITE, response_model=None)
async def change_rest(
    evening_id: PathId, game: PathId, body: RestChange, club: Club, me: Me
) -> Json:
    """``rest`` rests in this game instead of ``instead_of`` (who takes his seat)."""
    view = await club.change_rest(
        me, evening_id, game, rest=body.rest, instead_of=body.instead_of, reason=body.reason
    )
    return game_json(view)


@router.post("/evenings/{evening_id}/games/{game}/start", responses=WRITE, response_model=None)
async def start_game(evening_id: PathId, game: PathId, body: StartGame, club: Club, me: Me) -> Json:
    """Start the room's timer for a game."""
    state = await club.start_game(me, evening_id, game, at=body.at)
    return timer_json(state, utcnow())


@router.post(
    "/evenings/{evening_id}/games/{game}/tables/{table}/result",
    status_code=201,
    responses=WRITE,
    response_model=None,
)
async def enter_result(
    evening_id: PathId, game: PathId, table: PathId, body: ResultRequest, *, club: Club, me: Me
) -> Json:
    """A table's result (officers): the evening with its ranking recomputed; when the game is
    complete the next one is drawn."""
    view = await club.enter_result(
        me,
        evening_id,
        game,
        table,
        ns=body.ns,
        ew=body.ew,
        smazzate=body.smazzate,
        timed_out=body.timed_out,
    )
    return evening_json(view, await club.role(me, view.club.id))


@router.post(
    "/evenings/{evening_id}/games/{game}/results",
    status_code=201,
    responses=WRITE,
    response_model=None,
)
async def enter_results(
    evening_id: PathId, game: PathId, body: ResultsRequest, club: Club, me: Me
) -> Json:
    """Several tables' results of a game at once: all stored, or none (one bad result)."""
    view = await club.enter_results(
        me,
        evening_id,
        game,
        [ResultInput(r.table, r.ns, r.ew, r.smazzate, r.timed_out) for r in body.results],
    )
    return evening_json(view, await club.role(me, view.club.id))


@router.post(
    "/evenings/{evening_id}/games/{game}/tables/{table}/correction",
    responses=WRITE,
    response_model=None,
)
async def correct_result(
    evening_id: PathId, game: PathId, table: PathId, body: Correction, *, club: Club, me: Me
) -> Json:
    """Correct a published result, with a reason (kept in the audit trail)."""
    view = await club.correct_result(
        me,
        evening_id,
        game,
        table,
        ns=body.ns,
        ew=body.ew,
        reason=body.reason,
        smazzate=body.smazzate,
        timed_out=body.timed_out,
    )
    return evening_json(view, await club.role(me, view.club.id))


@router.post(
    "/evenings/{evening_id}/games/{game}/tables/{table}/check",
    status_code=201,
    responses=WRITE,
    response_model=None,
)
async def request_check(
    evening_id: PathId, game: PathId, table: PathId, body: CheckRequest, *, club: Club, me: Me
) -> Json:
    """A player asks for a check of a published score (during the break)."""
    check = await club.request_check(
        me, evening_id, game, table, note=body.note, member=body.member
    )
    return check_info_json(check)


@router.post("/checks/{check_id}/resolve", responses=WRITE, response_model=None)
async def resolve_check(check_id: PathId, body: Resolution, club: Club, me: Me) -> Json:
    """The score stands (a wrong one is corrected instead, which closes the check)."""
    return check_info_json(await club.resolve_check(me, check_id, body.resolution))


@router.get("/evenings/{evening_id}/timer", responses=answers(404), response_model=None)
async def timer(evening_id: PathId, club: Club) -> Json:
    """The room timer (no login: the page is projected): phase, game, seconds left, and the
    club, date and kind of the evening for the heading."""
    now = utcnow()
    state = await club.timer(evening_id, now=now)
    view = await club.evening(None, evening_id)
    return {
        **timer_json(state, now),
        "club": view.club.name,
        "date": view.evening.date.isoformat(),
        "type": view.type.value,
        "number": view.number,
    }
