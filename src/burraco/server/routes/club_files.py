"""The club routes of a season's money and files: standings, fees, payments, charges, prizes,
closing the season; the exports (calendar, standings, fees, rankings) and the e-mails. Mounted
after ``routes.club``'s (the order of the API's paths is unchanged)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from burraco.club import export, mail
from burraco.club.errors import ClubError

from .club_bodies import (
    Charge,
    Payment,
)
from .club_common import READ, WRITE, Club, Lang, Me, answers, download
from .club_json import (
    Json,
    fees_json,
    prizes_json,
    standings_json,
)
from .deps import MAX_ID, OptionalQueryId, PathId

router = APIRouter(prefix="/api/club", tags=["club"])


# ----------------------------------------------------------------------------- standings, fees


@router.get("/seasons/{season_id}/standings", responses=READ, response_model=None)
async def standings(
    season_id: PathId,
    club: Club,
    me: Me,
    after: int | None = Query(
        None, ge=0, le=MAX_ID, description="Only the first N finished evenings"
    ),
) -> Json:
    return standings_json(await club.standings(me, season_id, after=after))


@router.get("/seasons/{season_id}/fees", responses=READ, response_model=None)
async def fees(season_id: PathId, club: Club, me: Me) -> Json:
    """Every member's account (officers), or only one's own (members); the club's totals."""
    return fees_json(await club.fees(me, season_id))


@router.post("/seasons/{season_id}/payments", status_code=201, responses=WRITE, response_model=None)
async def payment(season_id: PathId, body: Payment, club: Club, me: Me) -> Json:
    await club.record_payment(
        me, season_id, body.member, body.amount_cents, paid_on=body.paid_on, note=body.note
    )
    return fees_json(await club.fees(me, season_id))


@router.post("/seasons/{season_id}/charges", status_code=201, responses=WRITE, response_model=None)
async def charge(season_id: PathId, body: Charge, club: Club, me: Me) -> Json:
    await club.add_charge(
        me, season_id, body.member, body.amount_cents, reason=body.reason, due_on=body.due_on
    )
    return fees_json(await club.fees(me, season_id))


@router.get("/seasons/{season_id}/prizes", responses=READ, response_model=None)
async def prizes(season_id: PathId, club: Club, me: Me) -> Json:
    return prizes_json(await club.prizes(me, season_id))


@router.post("/seasons/{season_id}/close", responses=WRITE, response_model=None)
async def close_season(season_id: PathId, club: Club, me: Me) -> Json:
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
async def calendar_ics(season_id: PathId, club: Club, lang: Lang = "it") -> Response:
    """The calendar as iCalendar (no login: a subscription link)."""
    text = await club.calendar_ics(season_id, lang)
    return download(text, "text/calendar; charset=utf-8", f"club-season-{season_id}.ics")


@router.get("/seasons/{season_id}/calendar.html", responses=FILES, response_class=HTMLResponse)
async def calendar_html(season_id: PathId, club: Club, lang: Lang = "it") -> HTMLResponse:
    """The calendar as a printable page (no login)."""
    info, season, evenings = await club.calendar(season_id)
    return HTMLResponse(export.calendar_html(info, season, evenings, lang))


@router.get("/seasons/{season_id}/standings.csv", responses=FILES, response_class=Response)
async def standings_csv(
    season_id: PathId, club: Club, me: Me, after: OptionalQueryId = None
) -> Response:
    view = await club.standings(me, season_id, after=after)
    return download(export.standings_csv(view), CSV, f"standings-{season_id}.csv")


@router.get("/seasons/{season_id}/standings.html", responses=FILES, response_class=HTMLResponse)
async def standings_html(
    season_id: PathId, club: Club, me: Me, lang: Lang = "it", after: OptionalQueryId = None
) -> HTMLResponse:
    """The season standings as a printable page (after the first ``after`` evenings)."""
    view = await club.standings(me, season_id, after=after)
    return HTMLResponse(export.standings_html(view, lang))


@router.get("/seasons/{season_id}/standings.png", responses=FILES, response_class=Response)
async def standings_png(
    season_id: PathId, club: Club, me: Me, lang: Lang = "it", after: OptionalQueryId = None
) -> Response:
    """The chart of the season standings over the evenings."""
    view = await club.standings(me, season_id, after=after)
    image = await asyncio.to_thread(export.standings_png, view, lang)
    return Response(image, media_type="image/png")


@router.get("/seasons/{season_id}/fees.csv", responses=FILES, response_class=Response)
async def fees_csv(season_id: PathId, club: Club, me: Me) -> Response:
    report = await club.fees(me, season_id)
    return download(export.fees_csv(report), CSV, f"fees-{season_id}.csv")


@router.get("/evenings/{evening_id}/ranking.csv", responses=FILES, response_class=Response)
async def evening_csv(evening_id: PathId, club: Club, me: Me) -> Response:
    view = await club.evening(me, evening_id)
    return download(export.evening_csv(view), CSV, f"evening-{view.evening.date}.csv")


@router.get("/evenings/{evening_id}/results.csv", responses=FILES, response_class=Response)
async def results_csv(evening_id: PathId, club: Club, me: Me) -> Response:
    """Every game's tables, scores, MP and VP, and who rested."""
    view = await club.evening(me, evening_id)
    return download(export.results_csv(view), CSV, f"results-{view.evening.date}.csv")


@router.get("/evenings/{evening_id}/ranking.html", responses=FILES, response_class=HTMLResponse)
async def evening_html(evening_id: PathId, club: Club, me: Me, lang: Lang = "it") -> HTMLResponse:
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
    responses={**answers(401, 403, 404, 409, 422, 502), 200: {"model": MailOut}},
    response_model=None,
)
async def mail_standings(evening_id: PathId, club: Club, me: Me, lang: Lang = "it") -> Json:
    """E-mail a finished evening's ranking and the season standings after it to every active
    member with an address (officers; the server's SMTP settings)."""
    recipients = await mail.mail_standings(club, me, evening_id, smtp_config(), lang)
    return MailOut(sent=len(recipients), recipients=recipients).model_dump()


@router.post(
    "/seasons/{season_id}/mail/calendar",
    responses={**answers(401, 403, 404, 409, 422, 502), 200: {"model": MailOut}},
    response_model=None,
)
async def mail_calendar(season_id: PathId, club: Club, me: Me, lang: Lang = "it") -> Json:
    """E-mail the calendar (.ics attached) with the tournament rules to the members."""
    recipients = await mail.mail_calendar(club, me, season_id, smtp_config(), lang)
    return MailOut(sent=len(recipients), recipients=recipients).model_dump()
