"""The request bodies of the club routes (``routes.club``): what each change is given, with the
limits the HTTP schema states (a body outside them is a 422 before the service is asked; the
service checks the rest, e.g. a season's settings with ``SeasonSettings``)."""

from __future__ import annotations

import datetime as dt
from datetime import date, datetime, time
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field

from burraco.tournament.season import MAX_BREAK_MINUTES, MAX_NAME, MAX_RULES_NOTE, PRIZE_PLACES

from .deps import Int64

Who = Int64 | str
"""A member: his id, or his name (case does not matter)."""


class NewClub(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    timezone: str = Field("Europe/Rome", max_length=64)
    place: str = Field("", max_length=200)
    founder: str | None = Field(
        None, max_length=64, description="Your name as a member (default: your account's name)"
    )
    founder_email: str | None = Field(None, max_length=254)


class ClubChange(BaseModel):
    place: str | None = Field(None, max_length=200)
    timezone: str | None = Field(None, max_length=64)


class NewMember(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    email: str | None = Field(None, max_length=254)
    officer: bool = False
    account: str | None = Field(
        None, max_length=64, description="The platform account to link (its user name)"
    )


class MemberChange(BaseModel):
    name: str | None = Field(None, max_length=64)
    email: str | None = Field(None, max_length=254, description='"" removes it')
    officer: bool | None = None
    account: str | None = Field(None, max_length=64, description='"" unlinks the account')
    active: bool | None = None


def _wall_clock(value: time) -> time:
    if value.tzinfo is not None:
        # The evening's times are the club's wall clock (its own zone): "20:30", not "20:30Z".
        raise ValueError("a time of day without a time zone (the club's own clock), e.g. 20:30")
    return value


WallClock = Annotated[time, AfterValidator(_wall_clock)]


class SeasonSettings(BaseModel):
    """The HTTP schema of ``burraco.tournament.season.SeasonSettings`` (its limits), which the
    service checks the settings with."""

    weekday: int | None = Field(None, ge=0, le=6, description="0 Monday ... 6 Sunday")
    checkin_opens: WallClock | None = None
    checkin_closes: WallClock | None = None
    break_minutes: int | None = Field(None, ge=0, le=MAX_BREAK_MINUTES)
    seating: Literal["mitchell", "danish"] | None = None
    two_left_over: Literal["rest", "table"] | None = None
    vp_table: str | None = Field(None, max_length=8, description="VP-2, VP-3 or VP-4")
    monthly_fee_cents: Int64 | None = Field(None, ge=0)
    pool_share_cents: Int64 | None = Field(None, ge=0)
    weekly_prize_cents: Int64 | None = Field(None, ge=0)
    season_prizes_cents: list[Int64] | None = Field(None, max_length=PRIZE_PLACES)
    rules_note: str | None = Field(None, max_length=MAX_RULES_NOTE)

    def values(self) -> dict[str, Any]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class NewSeason(SeasonSettings):
    name: str = Field(min_length=1, max_length=MAX_NAME)
    starts_on: date
    ends_on: date


class SeasonChange(SeasonSettings):
    name: str | None = Field(None, max_length=MAX_NAME)
    starts_on: date | None = None
    ends_on: date | None = None


class NewCalendar(BaseModel):
    first: date | None = Field(None, description="Default: the season's start")
    count: int = Field(16, ge=1, le=60)
    italiano: list[Int64] | None = Field(
        None, description="Which evenings (1-based) are Italiano; default five spread evenly"
    )
    skip: list[date] = Field(default_factory=list, description="Holidays: no evening then")


class NewEvening(BaseModel):
    date: dt.date
    type: Literal["internazionale", "italiano"] = "internazionale"
    one_game_fewer: bool = False


class EveningChange(BaseModel):
    date: dt.date | None = None
    type: Literal["internazionale", "italiano"] | None = None
    one_game_fewer: bool | None = None
    cancelled: bool | None = None
    note: str | None = Field(None, max_length=200)
    reason: str | None = Field(None, max_length=500)


class Reason(BaseModel):
    reason: str = Field("", max_length=500)


class CheckinRequest(BaseModel):
    member: Who = Field(description="Member id or name")
    override: str | None = Field(
        None,
        max_length=500,
        description="An officer's reason to admit a player outside the check-in window",
    )


class UncheckRequest(BaseModel):
    member: Who
    reason: str = Field(min_length=1, max_length=500)


class DrawRequest(BaseModel):
    seed: int | None = Field(None, ge=0, lt=1 << 62, description="Default: a random seed")


class SeatingRequest(BaseModel):
    tables: list[list[Who]] = Field(
        description="Each table NS1, EW1, NS2, EW2 (partners 1st-3rd, 2nd-4th), or two players"
    )
    rests: list[Who] = Field(default_factory=list)
    reason: str = Field("", max_length=500)


class RestChange(BaseModel):
    rest: Who = Field(description="Who rests instead")
    instead_of: Who = Field(description="Who was resting and now plays")
    reason: str = Field(min_length=1, max_length=500)


class ResultRequest(BaseModel):
    ns: Int64 = Field(description="The NS line's score of the game")
    ew: Int64 = Field(description="The EW line's score of the game")
    smazzate: list[list[Int64]] | None = Field(
        None, max_length=50, description="Optional: each smazzata's [NS, EW]; must add up"
    )
    timed_out: Literal[0, 1] | None = Field(None, description="The line whose time ran out")


class TableResultRequest(ResultRequest):
    table: Int64 = Field(ge=1)


class ResultsRequest(BaseModel):
    results: list[TableResultRequest] = Field(min_length=1, max_length=100)


class Correction(ResultRequest):
    reason: str = Field(min_length=1, max_length=500)


class CheckRequest(BaseModel):
    note: str = Field("", max_length=1000)
    member: Who | None = Field(None, description="An officer may ask on a player's behalf")


class Resolution(BaseModel):
    resolution: str = Field("", max_length=1000)


class StartGame(BaseModel):
    at: datetime | None = Field(None, description="Default: now")


class Payment(BaseModel):
    member: Who
    amount_cents: Int64 = Field(gt=0)
    paid_on: date | None = None
    note: str = Field("", max_length=200)


class Charge(BaseModel):
    member: Who
    amount_cents: Int64 = Field(description="An extra charge, or a waiver (negative)")
    reason: str = Field(min_length=1, max_length=500)
    due_on: date | None = None
