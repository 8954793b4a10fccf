"""The club manager on the web (``/api/club/...``): what a club's officers change and its members
read, over ``burraco.club.service.ClubService`` (docs/club.md, "On the web").

Who is who: the server's session (the ``burraco_session`` cookie or ``Authorization: Bearer``)
names a platform account; the service looks up the club member linked to that account and his
officer flag. Every refusal is the service's ``ClubError`` (a ``ServiceError``), answered by
``burraco.server.errors`` with its status and ``{error, message}`` like the rest of the API;
nothing changes when a request is refused (each change is one transaction). The room timer
and the calendar (``.ics`` and printable page) need no login: the first is projected in the
room, the second is a calendar subscription. The request bodies are in ``club_bodies``, the
JSON of the answers in ``club_json``.
"""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from burraco.club import export, mail
from burraco.club.errors import ClubError
from burraco.club.service import Actor, ClubService, ResultInput
from burraco.store import Store

from .. import auth
from .club_bodies import (
    Charge,
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
    Payment,
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
from .club_json import (
    Json,
    audit_json,
    check_info_json,
    club_json,
    evening_info_json,
    evening_json,
    fees_json,
    game_json,
    member_json,
    prizes_json,
    role_json,
    season_evening_json,
    season_json,
    standings_json,
    timer_json,
)

Lang = Literal["it", "en"]


ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
"""The API's ``{error, message}`` (``ErrorOut``, declared with the rest of the API in app.py)."""
WORDS = {
    401: "Not logged in",
    403: "Not allowed: the club's officers change, its members read",
    404: "No such club, season, evening or score check",
    409: "Not possible now (already done, or not at this point of the evening); late check-in",
    422: "Bad input (an unknown player, a result that does not add up, a date outside the season)",
    502: "The SMTP server refused or could not be reached",
}


def _answers(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"description": WORDS[code], "content": ERROR} for code in codes}


READ = _answers(401, 403, 404)
WRITE = _answers(401, 403, 404, 409, 422)


# ----------------------------------------------------------------------------- plumbing


def service(request: Request) -> ClubService:
    """One service per application, on the server's store."""
    found: ClubService | None = getattr(request.app.state, "club_service", None)
    if found is None:
        store: Store = request.app.state.hub.store
        found = ClubService(store)
        request.app.state.club_service = found
    return found


async def actor(request: Request) -> Actor:
    """The logged-in user as the service's actor (the session cookie or a bearer token)."""
    header = request.headers.get("authorization") or ""
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    token = token or request.cookies.get(auth.SESSION_COOKIE, "")
    store: Store = request.app.state.hub.store
    user = await store.session_user(token) if token else None
    if user is None:
        raise auth.AuthError("not_authenticated", "log in first")
    return Actor(user.name, user.id)


Club = Annotated[ClubService, Depends(service)]
Me = Annotated[Actor, Depends(actor)]


def _download(content: str | bytes, media_type: str, filename: str) -> Response:
    return Response(
        content,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _now() -> datetime:
    return datetime.now(UTC)


def install(app: FastAPI) -> None:
    """Mount the routes (before the static files; ``burraco.server.errors`` answers the
    refusals)."""

    app.include_router(router)


router = APIRouter(prefix="/api/club", tags=["club"])


# ----------------------------------------------------------------------------- clubs, members


@router.get("/clubs", responses=_answers(401), response_model=None)
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
    if user is None or user.is_guest:
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
async def get_club(club_id: int, club: Club, me: Me) -> Json:
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
async def change_club(club_id: int, body: ClubChange, club: Club, me: Me) -> Json:
    return club_json(await club.update_club(me, club_id, place=body.place, timezone=body.timezone))


@router.get("/clubs/{club_id}/members", responses=READ, response_model=None)
async def members(club_id: int, club: Club, me: Me) -> list[Json]:
    return [member_json(m) for m in await club.members(me, club_id)]


@router.post("/clubs/{club_id}/members", status_code=201, responses=WRITE, response_model=None)
async def add_member(club_id: int, body: NewMember, club: Club, me: Me) -> Json:
    member = await club.add_member(
        me, club_id, body.name, email=body.email, officer=body.officer, account=body.account
    )
    return member_json(member)


@router.patch("/clubs/{club_id}/members/{member_id}", responses=WRITE, response_model=None)
async def change_member(
    club_id: int, member_id: int, body: MemberChange, club: Club, me: Me
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
    club_id: int,
    *,
    club: Club,
    me: Me,
    season: int | None = None,
    evening: int | None = None,
    action: str | None = Query(None, max_length=40, description="e.g. result. or fee."),
) -> list[Json]:
    """The audit trail (officers): who changed what, when and why."""
    entries = await club.audit_trail(
        me, club_id, season_id=season, evening_id=evening, action_prefix=action
    )
    return audit_json(entries)


# ----------------------------------------------------------------------------- seasons, calendar


@router.post("/clubs/{club_id}/seasons", status_code=201, responses=WRITE, response_model=None)
async def create_season(club_id: int, body: NewSeason, club: Club, me: Me) -> Json:
    settings = body.values()
    for key in ("name", "starts_on", "ends_on"):
        settings.pop(key)
    season = await club.create_season(
        me, club_id, body.name, starts_on=body.starts_on, ends_on=body.ends_on, **settings
    )
    return season_json(season)


@router.get("/seasons/{season_id}", responses=READ, response_model=None)
async def get_season(season_id: int, club: Club, me: Me) -> Json:
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
async def change_season(season_id: int, body: SeasonChange, club: Club, me: Me) -> Json:
    return season_json(await club.update_season(me, season_id, **body.values()))


@router.post("/seasons/{season_id}/calendar", status_code=201, responses=WRITE, response_model=None)
async def create_calendar(season_id: int, body: NewCalendar, club: Club, me: Me) -> list[Json]:
    evenings = await club.create_calendar(
        me, season_id, first=body.first, count=body.count, italiano=body.italiano, skip=body.skip
    )
    return [evening_info_json(e) for e in evenings]


@router.post("/seasons/{season_id}/evenings", status_code=201, responses=WRITE, response_model=None)
async def add_evening(season_id: int, body: NewEvening, club: Club, me: Me) -> Json:
    evening = await club.add_evening(
        me, season_id, body.date, body.type, one_game_fewer=body.one_game_fewer
    )
    return evening_info_json(evening)


@router.patch("/evenings/{evening_id}", responses=WRITE, response_model=None)
async def change_evening(evening_id: int, body: EveningChange, club: Club, me: Me) -> Json:
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
    evening_id: int, club: Club, me: Me, reason: str = Query("", max_length=500)
) -> None:
    await club.delete_evening(me, evening_id, reason)


# ----------------------------------------------------------------------------- an evening


async def _evening(club: ClubService, me: Actor, evening_id: int) -> Json:
    view = await club.evening(me, evening_id)
    return evening_json(view, await club.role(me, view.club.id))


@router.get("/evenings/{evening_id}", responses=READ, response_model=None)
async def get_evening(evening_id: int, club: Club, me: Me) -> Json:
    """Check-ins, stations, each game's tables, rests and results, the ranking so far, the
    score checks, and the user's role."""
    return await _evening(club, me, evening_id)


@router.post(
    "/evenings/{evening_id}/checkins", status_code=201, responses=WRITE, response_model=None
)
async def checkin(evening_id: int, body: CheckinRequest, club: Club, me: Me) -> Json:
    """Register a player present (the evening is answered). Outside the window (20:30-20:45
    by default) it is refused (``409 late``) unless an officer overrides with a reason; a member
    registers himself, in the window only."""
    await club.checkin(me, evening_id, body.member, override=body.override)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/checkins/remove", responses=WRITE, response_model=None)
async def uncheck(evening_id: int, body: UncheckRequest, club: Club, me: Me) -> Json:
    await club.uncheck(me, evening_id, body.member, body.reason)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/draw", responses=WRITE, response_model=None)
async def draw(evening_id: int, body: DrawRequest, club: Club, me: Me) -> Json:
    """The draw when check-in closes: stations, the rests and the tables of game 1."""
    await club.draw(me, evening_id, seed=body.seed)
    return await _evening(club, me, evening_id)


@router.post("/evenings/{evening_id}/undo-draw", responses=WRITE, response_model=None)
async def undo_draw(evening_id: int, body: Reason, club: Club, me: Me) -> Json:
    await club.undo_draw(me, evening_id, body.reason)
    return await _evening(club, me, evening_id)


@router.put("/evenings/{evening_id}/games/{game}/seating", responses=WRITE, response_model=None)
async def set_seating(evening_id: int, game: int, body: SeatingRequest, club: Club, me: Me) -> Json:
    """A game's seating as the room was seated by hand (replaces the drawn one)."""
    view = await club.set_seating(me, evening_id, game, body.tables, body.rests, reason=body.reason)
    return game_json(view)


@router.post("/evenings/{evening_id}/games/{game}/rest", responses=WRITE, response_model=None)
async def change_rest(evening_id: int, game: int, body: RestChange, club: Club, me: Me) -> Json:
    """``rest`` rests in this game instead of ``instead_of`` (who takes his seat)."""
    view = await club.change_rest(
        me, evening_id, game, rest=body.rest, instead_of=body.instead_of, reason=body.reason
    )
    return game_json(view)


@router.post("/evenings/{evening_id}/games/{game}/start", responses=WRITE, response_model=None)
async def start_game(evening_id: int, game: int, body: StartGame, club: Club, me: Me) -> Json:
    """Start the room's timer for a game."""
    state = await club.start_game(me, evening_id, game, at=body.at)
    return timer_json(state, _now())


@router.post(
    "/evenings/{evening_id}/games/{game}/tables/{table}/result",
    status_code=201,
    responses=WRITE,
    response_model=None,
)
async def enter_result(
    evening_id: int, game: int, table: int, body: ResultRequest, *, club: Club, me: Me
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
    evening_id: int, game: int, body: ResultsRequest, club: Club, me: Me
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
    evening_id: int, game: int, table: int, body: Correction, *, club: Club, me: Me
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
    evening_id: int, game: int, table: int, body: CheckRequest, *, club: Club, me: Me
) -> Json:
    """A player asks for a check of a published score (during the break)."""
    check = await club.request_check(
        me, evening_id, game, table, note=body.note, member=body.member
    )
    return check_info_json(check)


@router.post("/checks/{check_id}/resolve", responses=WRITE, response_model=None)
async def resolve_check(check_id: int, body: Resolution, club: Club, me: Me) -> Json:
    """The score stands (a wrong one is corrected instead, which closes the check)."""
    return check_info_json(await club.resolve_check(me, check_id, body.resolution))


@router.get("/evenings/{evening_id}/timer", responses=_answers(404), response_model=None)
async def timer(evening_id: int, club: Club) -> Json:
    """The room timer (no login: the page is projected): phase, game, seconds left, and the
    club, date and kind of the evening for the heading."""
    now = _now()
    state = await club.timer(evening_id, now=now)
    view = await club.evening(None, evening_id)
    return {
        **timer_json(state, now),
        "club": view.club.name,
        "date": view.evening.date.isoformat(),
        "type": view.type.value,
        "number": view.number,
    }


# ----------------------------------------------------------------------------- standings, fees


@router.get("/seasons/{season_id}/standings", responses=READ, response_model=None)
async def standings(
    season_id: int,
    club: Club,
    me: Me,
    after: int | None = Query(None, ge=0, description="Only the first N finished evenings"),
) -> Json:
    return standings_json(await club.standings(me, season_id, after=after))


@router.get("/seasons/{season_id}/fees", responses=READ, response_model=None)
async def fees(season_id: int, club: Club, me: Me) -> Json:
    """Every member's account (officers), or only one's own (members); the club's totals."""
    return fees_json(await club.fees(me, season_id))


@router.post("/seasons/{season_id}/payments", status_code=201, responses=WRITE, response_model=None)
async def payment(season_id: int, body: Payment, club: Club, me: Me) -> Json:
    await club.record_payment(
        me, season_id, body.member, body.amount_cents, paid_on=body.paid_on, note=body.note
    )
    return fees_json(await club.fees(me, season_id))


@router.post("/seasons/{season_id}/charges", status_code=201, responses=WRITE, response_model=None)
async def charge(season_id: int, body: Charge, club: Club, me: Me) -> Json:
    await club.add_charge(
        me, season_id, body.member, body.amount_cents, reason=body.reason, due_on=body.due_on
    )
    return fees_json(await club.fees(me, season_id))


@router.get("/seasons/{season_id}/prizes", responses=READ, response_model=None)
async def prizes(season_id: int, club: Club, me: Me) -> Json:
    return prizes_json(await club.prizes(me, season_id))


@router.post("/seasons/{season_id}/close", responses=WRITE, response_model=None)
async def close_season(season_id: int, club: Club, me: Me) -> Json:
    """Award the prizes (every evening finished or cancelled)."""
    return prizes_json(await club.close_season(me, season_id))


# ----------------------------------------------------------------------------- exports

CSV = "text/csv; charset=utf-8"
TEXT = {"schema": {"type": "string"}}
FILES: dict[int | str, dict[str, Any]] = {
    **READ,
    200: {
        "content": {
            CSV: TEXT,
            "text/html": TEXT,
            "text/calendar": TEXT,
            "image/png": {"schema": {"type": "string", "format": "binary"}},
        }
    },
}


@router.get("/seasons/{season_id}/calendar.ics", responses=FILES, response_class=Response)
async def calendar_ics(season_id: int, club: Club, lang: Lang = "it") -> Response:
    """The calendar as iCalendar (no login: a subscription link)."""
    text = await club.calendar_ics(season_id, lang)
    return _download(text, "text/calendar; charset=utf-8", f"club-season-{season_id}.ics")


@router.get("/seasons/{season_id}/calendar.html", responses=FILES, response_class=HTMLResponse)
async def calendar_html(season_id: int, club: Club, lang: Lang = "it") -> HTMLResponse:
    """The calendar as a printable page (no login)."""
    info, season, evenings = await club.calendar(season_id)
    return HTMLResponse(export.calendar_html(info, season, evenings, lang))


@router.get("/seasons/{season_id}/standings.csv", responses=FILES, response_class=Response)
async def standings_csv(
    season_id: int, club: Club, me: Me, after: int | None = Query(None, ge=0)
) -> Response:
    view = await club.standings(me, season_id, after=after)
    return _download(export.standings_csv(view), CSV, f"standings-{season_id}.csv")


@router.get("/seasons/{season_id}/standings.html", responses=FILES, response_class=HTMLResponse)
async def standings_html(
    season_id: int, club: Club, me: Me, lang: Lang = "it", after: int | None = Query(None, ge=0)
) -> HTMLResponse:
    """The season standings as a printable page (after the first ``after`` evenings)."""
    view = await club.standings(me, season_id, after=after)
    return HTMLResponse(export.standings_html(view, lang))


@router.get("/seasons/{season_id}/standings.png", responses=FILES, response_class=Response)
async def standings_png(
    season_id: int, club: Club, me: Me, lang: Lang = "it", after: int | None = Query(None, ge=0)
) -> Response:
    """The chart of the season standings over the evenings."""
    view = await club.standings(me, season_id, after=after)
    image = await asyncio.to_thread(export.standings_png, view, lang)
    return Response(image, media_type="image/png")


@router.get("/seasons/{season_id}/fees.csv", responses=FILES, response_class=Response)
async def fees_csv(season_id: int, club: Club, me: Me) -> Response:
    report = await club.fees(me, season_id)
    return _download(export.fees_csv(report), CSV, f"fees-{season_id}.csv")


@router.get("/evenings/{evening_id}/ranking.csv", responses=FILES, response_class=Response)
async def evening_csv(evening_id: int, club: Club, me: Me) -> Response:
    view = await club.evening(me, evening_id)
    return _download(export.evening_csv(view), CSV, f"evening-{view.evening.date}.csv")


@router.get("/evenings/{evening_id}/results.csv", responses=FILES, response_class=Response)
async def results_csv(evening_id: int, club: Club, me: Me) -> Response:
    """Every game's tables, scores, MP and VP, and who rested."""
    view = await club.evening(me, evening_id)
    return _download(export.results_csv(view), CSV, f"results-{view.evening.date}.csv")


@router.get("/evenings/{evening_id}/ranking.html", responses=FILES, response_class=HTMLResponse)
async def evening_html(evening_id: int, club: Club, me: Me, lang: Lang = "it") -> HTMLResponse:
    view = await club.evening(me, evening_id)
    return HTMLResponse(export.evening_html(view, lang))


# ----------------------------------------------------------------------------- e-mails


def smtp_config() -> mail.SmtpConfig:
    """The SMTP server, from the environment as the command line reads it: BURRACO_SMTP_HOST,
    _PORT (25), _USER, _PASSWORD, _FROM, and _STARTTLS or _SSL set to 1."""
    env = os.environ
    try:
        port = int(env.get("BURRACO_SMTP_PORT", "25"))
    except ValueError:
        raise ClubError("bad_input", "BURRACO_SMTP_PORT is not a port number") from None
    return mail.SmtpConfig(
        host=env.get("BURRACO_SMTP_HOST", ""),
        port=port,
        sender=env.get("BURRACO_SMTP_FROM", "burraco@localhost"),
        username=env.get("BURRACO_SMTP_USER") or None,
        password=env.get("BURRACO_SMTP_PASSWORD") or None,
        starttls=env.get("BURRACO_SMTP_STARTTLS") == "1",
        ssl=env.get("BURRACO_SMTP_SSL") == "1",
    )


class MailOut(BaseModel):
    sent: int
    recipients: list[str]


@router.post(
    "/evenings/{evening_id}/mail/standings",
    responses={**_answers(401, 403, 404, 409, 422, 502), 200: {"model": MailOut}},
    response_model=None,
)
async def mail_standings(evening_id: int, club: Club, me: Me, lang: Lang = "it") -> Json:
    """E-mail a finished evening's ranking and the season standings after it to every active
    member with an address (officers; the server's SMTP settings)."""
    recipients = await mail.mail_standings(club, me, evening_id, smtp_config(), lang)
    return MailOut(sent=len(recipients), recipients=recipients).model_dump()


@router.post(
    "/seasons/{season_id}/mail/calendar",
    responses={**_answers(401, 403, 404, 409, 422, 502), 200: {"model": MailOut}},
    response_model=None,
)
async def mail_calendar(season_id: int, club: Club, me: Me, lang: Lang = "it") -> Json:
    """E-mail the calendar (.ics attached) with the tournament rules to the members."""
    recipients = await mail.mail_calendar(club, me, season_id, smtp_config(), lang)
    return MailOut(sent=len(recipients), recipients=recipients).model_dump()
