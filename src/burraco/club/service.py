"""The club manager: what officers and members do, checked and stored in one transaction each.

Every change runs in one database transaction and checks its input first: an unknown player, a
result that does not add up, a date outside the season... raise ``ClubError`` and the
transaction is rolled back, so nothing changes. Officers' changes are written to the audit trail
(who, when, what, why) in the same transaction.

Rankings are never stored: they are recomputed from the seatings and results with
``burraco.tournament`` (``Evening``, ``EveningRanking``, ``Season``) whenever they are read, so a
corrected result corrects every ranking at once.

Who may do what: officers (members with ``officer``, logged in with their linked platform
account) change the calendar, check-ins, seatings, rests, results and fees; members read and
may check themselves in during the window and ask for a score check. The command line
(``Actor.console``) acts as the member it names: an officer changes, a member reads; a name
that is no member reads everything and may change only while the club has no active officer
(to set it up).
"""

from __future__ import annotations

import difflib
import random
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from burraco.store import Store
from burraco.store.club import (
    AuditEntry,
    CheckinInfo,
    CheckStatus,
    ClubInfo,
    ClubStore,
    ClubTx,
    EveningInfo,
    EveningState,
    EveningStatus,
    GameInfo,
    MemberInfo,
    NewSeat,
    PrizeInfo,
    PrizeKind,
    ResultRow,
    ScoreCheckInfo,
    SeasonInfo,
)
from burraco.tournament import (
    EntrantId,
    Evening,
    EveningConfig,
    EveningRanking,
    EveningRow,
    EveningType,
    Pairing,
    Season,
    SeasonRow,
    Seating,
    Standings,
    Table,
    TableResult,
    Total,
    TwoLeftOver,
    choose_vp_table,
    score,
    sit_outs,
)
from burraco.tournament.season import SeasonSettings, SeasonSettingsError

from . import calendar as cal
from . import fees as fee
from .errors import ClubError, bad, conflict, not_found
from .texts import check_lang, evening_description, evening_summary
from .timer import TimerState, timer_state

T = TypeVar("T")
NAME = re.compile(r"[^\s,;][^,;\n\r\t]{0,62}[^\s,;]|[^\s,;]")
"""A member's name: 1 to 64 characters, no commas or semicolons (lists on the command line)."""
EMAIL = re.compile(r"[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+")
MAX_SCORE = 20_000
"""No line scores more than this in one game (a typo guard)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a platform user (his club role is looked up), or the console (an officer)."""

    name: str
    user_id: int | None = None
    console: bool = False

    @classmethod
    def of_console(cls, name: str) -> Actor:
        return cls(name, None, True)


@dataclass(frozen=True, slots=True)
class Role:
    member: MemberInfo | None
    officer: bool

    @property
    def member_id(self) -> int | None:
        return None if self.member is None else self.member.id


# ------------------------------------------------------------------------------ views


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    result: ResultRow | None
    mp: tuple[int, int] | None
    vp: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class GameView:
    number: int
    drawn: bool
    relaxed: bool
    started_at: datetime | None
    tables: tuple[TableView, ...]
    rests: tuple[str, ...]
    rests_drawn: bool

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tables)


@dataclass(frozen=True, slots=True)
class CheckinView:
    name: str
    at: datetime
    """In the club's time zone."""
    late: bool
    recorded_by: str
    override_by: str | None
    override_reason: str | None


@dataclass(frozen=True, slots=True)
class CheckView:
    info: ScoreCheckInfo
    member: str | None


@dataclass(frozen=True, slots=True)
class EveningView:
    club: ClubInfo
    season: SeasonInfo
    evening: EveningInfo
    number: int
    """The evening's place in the season's calendar (1-based)."""
    type: EveningType
    games_planned: int
    times: cal.EveningTimes
    checkins: tuple[CheckinView, ...]
    stations: tuple[str, ...]
    games: tuple[GameView, ...]
    ranking: EveningRanking
    """Over the games complete so far (everyone at 0 before the first)."""
    complete_games: int
    checks: tuple[CheckView, ...]

    @property
    def finished(self) -> bool:
        return self.evening.status is EveningStatus.FINISHED

    def game(self, number: int) -> GameView:
        for g in self.games:
            if g.number == number:
                return g
        raise not_found(f"game {number} has not been seated")


@dataclass(frozen=True, slots=True)
class SeasonEvening:
    info: EveningInfo
    number: int
    type: EveningType
    games: int
    ranking: EveningRanking | None
    """For finished evenings."""


@dataclass(frozen=True, slots=True)
class StandingsView:
    club: ClubInfo
    season: SeasonInfo
    evenings: tuple[SeasonEvening, ...]
    """The whole calendar."""
    counted: tuple[SeasonEvening, ...]
    """The finished evenings the standings are made of (those up to ``after``)."""
    rows: tuple[SeasonRow, ...]
    progress: Mapping[str, tuple[int, ...]]
    """Each player's points after each counted evening (the chart)."""

    @property
    def tournament(self) -> Season:
        return Season(tuple(e.ranking for e in self.counted if e.ranking is not None))


@dataclass(frozen=True, slots=True)
class WeeklyPrize:
    evening: EveningInfo
    number: int
    player: str
    vp: int
    mp: int
    value_cents: int


@dataclass(frozen=True, slots=True)
class SeasonPrize:
    place: int
    player: str
    points: int
    value_cents: int


@dataclass(frozen=True, slots=True)
class PrizesReport:
    weekly: tuple[WeeklyPrize, ...]
    season: tuple[SeasonPrize, ...]
    awarded: tuple[PrizeInfo, ...]
    """The prizes stored when the season was closed (empty before)."""
    names: Mapping[int, str] = field(default_factory=dict)

    @property
    def weekly_by_player(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for w in self.weekly:
            out[w.player] = out.get(w.player, 0) + 1
        return out

    @property
    def total_cents(self) -> int:
        return sum(w.value_cents for w in self.weekly) + sum(s.value_cents for s in self.season)


@dataclass(frozen=True, slots=True)
class MemberEvening:
    """One evening of the calendar as a member lived it (``row`` None: absent)."""

    evening: SeasonEvening
    row: EveningRow | None
    late: bool
    """Admitted after the check-in window by an officer's override."""


@dataclass(frozen=True, slots=True)
class MemberReport:
    club: ClubInfo
    season: SeasonInfo
    member: str
    standing: SeasonRow | None
    """None before he has played a finished evening."""
    evenings: tuple[MemberEvening, ...]
    """The finished evenings."""
    weekly: tuple[WeeklyPrize, ...]
    season_prize: SeasonPrize | None
    account: fee.MemberAccount | None

    @property
    def attended(self) -> int:
        return sum(1 for e in self.evenings if e.row is not None)


@dataclass(frozen=True, slots=True)
class EveningSummary:
    evening: SeasonEvening
    players: int
    late: int
    """Late players admitted by an officer."""
    best: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClubReport:
    club: ClubInfo
    season: SeasonInfo
    evenings: tuple[EveningSummary, ...]
    """The whole calendar (players 0 for evenings not played)."""
    standings: StandingsView
    fees: fee.FeesReport
    prizes: PrizesReport
    corrections: int
    """Results corrected after publication (each one in the audit trail)."""
    members: int

    def count(self, status: str) -> int:
        """How many evenings of the calendar have this status (an ``EveningStatus``)."""
        return sum(1 for e in self.evenings if e.evening.info.status == status)


@dataclass(frozen=True, slots=True)
class ResultInput:
    """One table's result as entered: the NS and EW scores of the game, optionally its
    smazzate ([NS, EW] each, adding up to the scores) and the line that ran out of time."""

    table: int
    ns: int
    ew: int
    smazzate: Sequence[Sequence[int]] | None = None
    timed_out: int | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """What a draw produced: the stations and the first game's seating."""

    stations: tuple[str, ...]
    game: GameView


# ------------------------------------------------------------------------------ helpers


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _clean(text: str | None) -> str:
    return (text or "").strip()


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME.fullmatch(name):
        raise bad(f"a member's name has 1 to 64 characters and no commas or semicolons: {name!r}")
    return name


def check_email(email: str | None) -> str | None:
    email = _clean(email)
    if not email:
        return None
    if len(email) > 254 or not EMAIL.fullmatch(email):
        raise bad(f"not an e-mail address: {email!r}")
    return email


def check_score(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{what} must be a whole number")
    if abs(value) > MAX_SCORE:
        raise bad(f"{what} {value} is out of range (at most {MAX_SCORE} in absolute value)")
    if value % 5:
        raise bad(f"{what} {value} is not a multiple of 5: Burraco scores always are")
    return value


def evening_config(evening: EveningInfo, season: SeasonInfo) -> EveningConfig:
    return EveningConfig(
        type=EveningType(evening.type),
        one_game_fewer=evening.one_game_fewer,
        seating=Seating(season.seating),
        two_left_over=TwoLeftOver(season.two_left_over),
        vp_table=choose_vp_table(season.vp_table),
    )


def pairing_of(game: GameInfo, names: Mapping[int, str]) -> Pairing:
    tables = []
    for number in game.tables:
        lines: list[list[EntrantId]] = [[], []]
        for s in sorted(
            (s for s in game.seats if s.table_no == number), key=lambda s: (s.line, s.position)
        ):
            lines[s.line].append(EntrantId(names[s.member_id]))
        tables.append(Table(number, (tuple(lines[0]), tuple(lines[1]))))
    rests = tuple(sorted(EntrantId(names[r.member_id]) for r in game.rests))
    return Pairing(game.number, tuple(tables), rests, game.relaxed)


def results_of(game: GameInfo) -> list[TableResult]:
    return [TableResult(r.table_no, (r.ns, r.ew), timed_out=r.timed_out) for r in game.results]


def _complete(game: GameInfo) -> bool:
    return bool(game.tables) and len(game.results) == len(game.tables)


def build_evening(
    state: EveningState, season: SeasonInfo, names: Mapping[int, str]
) -> tuple[Evening, int]:
    """The ``burraco.tournament`` evening of the stored one: the games recorded so far (those
    with every table's result), and how many they are."""
    config = evening_config(state.evening, season)
    if not state.evening.stations:
        raise conflict(f"the seats of {state.evening.date} are not drawn yet")
    stations = tuple(EntrantId(names[i]) for i in state.evening.stations)
    evening = Evening(stations, config)
    for game in state.games:
        if not _complete(game) or evening.finished:
            break
        evening = evening.record(pairing_of(game, names), results_of(game))
    return evening, len(evening.games)


def _seats_of(pairing: Pairing, ids: Mapping[str, int]) -> list[NewSeat]:
    return [
        NewSeat(ids[name], table.number, line, position)
        for table in pairing.tables
        for line, players in enumerate(table.lines)
        for position, name in enumerate(players)
    ]


def _rng(seed: int, step: int) -> random.Random:
    return random.Random(f"{seed}:{step}")


def season_settings(**values: Any) -> SeasonSettings:
    """A whole season's settings: a bad one is a clear ``bad_input``."""
    checked_settings(values)
    try:
        return SeasonSettings(**values)
    except SeasonSettingsError as error:
        raise bad(str(error)) from None


def checked_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Some settings (a change) checked one by one, spelled as stored."""
    try:
        return SeasonSettings.checked(values)
    except SeasonSettingsError as error:
        raise bad(str(error)) from None


def replaced_settings(settings: SeasonSettings, changes: Mapping[str, Any]) -> SeasonSettings:
    try:
        return settings.replace(**changes)
    except SeasonSettingsError as error:
        raise bad(str(error)) from None


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


# ------------------------------------------------------------------------------ the service


class ClubService:
    """The club manager's operations. ``clock`` and ``seeds`` are injectable for tests."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = _utcnow,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.db = ClubStore(store)
        self.clock = clock
        self.seeds = seeds or (lambda: secrets.randbits(62))

    # ---------------------------------------------------------------------------- plumbing

    async def _write(self, work: Callable[[ClubTx], Awaitable[T]]) -> T:
        async with self.db.write() as tx:
            return await work(tx)

    async def _read(self, work: Callable[[ClubTx], Awaitable[T]]) -> T:
        async with self.db.read() as tx:
            return await work(tx)

    async def _role(self, tx: ClubTx, actor: Actor, club_id: int) -> Role:
        if actor.console:
            # The console acts as the member of that name: an officer, or a plain member who
            # may only read. A name that is no member is an officer only while the club has no
            # active officer yet (to set the club up).
            members = await tx.members(club_id)
            found = next((m for m in members if m.name.casefold() == actor.name.casefold()), None)
            if found is not None:
                return Role(found, found.officer and found.active)
            return Role(None, not any(m.officer and m.active for m in members))
        if actor.user_id is None:
            return Role(None, False)
        member = await tx.member_of_user(club_id, actor.user_id)
        return Role(member, bool(member and member.officer and member.active))

    async def _officer(self, tx: ClubTx, actor: Actor, club_id: int) -> Role:
        role = await self._role(tx, actor, club_id)
        if not role.officer:
            raise ClubError("forbidden", "only the club's officers may do that")
        return role

    async def _reader(self, tx: ClubTx, actor: Actor, club_id: int) -> Role:
        role = await self._role(tx, actor, club_id)
        if actor.console and role.member is None:
            # The command line without a member's name: whoever runs it has the database, he
            # reads everything (with ``--as NAME`` he reads as that member).
            return Role(None, True)
        if not role.officer and role.member is None:
            raise ClubError("forbidden", "only the club's members may see that")
        return role

    @staticmethod
    def _who(actor: Actor, role: Role) -> str:
        return role.member.name if role.member is not None else actor.name

    async def _club(self, tx: ClubTx, club_id: int) -> ClubInfo:
        club = await tx.club(club_id)
        if club is None:
            raise not_found(f"no club {club_id}")
        return club

    async def _season(self, tx: ClubTx, season_id: int) -> SeasonInfo:
        season = await tx.season(season_id)
        if season is None:
            raise not_found(f"no season {season_id}")
        return season

    async def _evening(
        self, tx: ClubTx, evening_id: int, *, lock: bool = False
    ) -> tuple[EveningState, SeasonInfo, ClubInfo]:
        state = await tx.evening_state(evening_id, lock=lock)
        if state is None:
            raise not_found(f"no evening {evening_id}")
        season = await self._season(tx, state.evening.season_id)
        return state, season, await self._club(tx, season.club_id)

    async def _names(self, tx: ClubTx, club_id: int) -> dict[int, str]:
        return {m.id: m.name for m in await tx.members(club_id)}

    async def _member(self, tx: ClubTx, club_id: int, who: int | str) -> MemberInfo:
        """A member of the club by id or by name (case does not matter): an unknown player is a
        clear error, with the closest names."""
        members = await tx.members(club_id)
        if isinstance(who, int):
            for m in members:
                if m.id == who:
                    return m
            raise bad(f"unknown player: no member {who} in this club")
        wanted = " ".join(who.split()).casefold()
        for m in members:
            if m.name.casefold() == wanted:
                return m
        raise bad(f"unknown player {who!r}{_suggest(who, [m.name for m in members])}")

    async def _audit(
        self,
        tx: ClubTx,
        club_id: int,
        by: tuple[Actor, Role],
        action: str,
        subject: str,
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
        before: Any = None,
        after: Any = None,
        reason: str | None = None,
    ) -> None:
        actor, role = by
        await tx.audit(
            club_id,
            actor=self._who(actor, role),
            user_id=actor.user_id,
            action=action,
            subject=subject,
            season_id=season_id,
            evening_id=evening_id,
            before=before,
            after=after,
            reason=reason,
        )

    # ---------------------------------------------------------------------------- clubs

    async def create_club(
        self,
        actor: Actor,
        name: str,
        *,
        timezone: str = "Europe/Rome",
        place: str = "",
        founder: str | None = None,
        founder_email: str | None = None,
    ) -> ClubInfo:
        """A new club. A platform user who creates it becomes its first officer (a member named
        ``founder``, by default his user name, linked to his account)."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= 80:
            raise bad("a club's name has 1 to 80 characters")
        cal.zone(timezone)
        if not actor.console and actor.user_id is None:
            raise ClubError("not_authenticated", "log in first")

        async def work(tx: ClubTx) -> ClubInfo:
            if await tx.club_by_name(name) is not None:
                raise conflict(f"there is already a club named {name!r}")
            club = await tx.create_club(name, timezone=timezone, place=_clean(place)[:200])
            member = None
            if actor.user_id is not None:
                member = await tx.add_member(
                    club.id,
                    check_name(founder or actor.name),
                    email=check_email(founder_email),
                    user_id=actor.user_id,
                    officer=True,
                )
            role = Role(member, True)
            await self._audit(tx, club.id, (actor, role), "club.create", f"club {name}")
            return club

        return await self._write(work)

    async def clubs(self) -> list[ClubInfo]:
        return await self._read(lambda tx: tx.clubs())

    async def clubs_of(self, actor: Actor) -> list[tuple[ClubInfo, MemberInfo]]:
        if actor.user_id is None:
            return []
        user_id = actor.user_id
        return await self._read(lambda tx: tx.clubs_of_user(user_id))

    async def find_club(self, name: str | None) -> ClubInfo:
        """By name; with no name, the only club there is."""

        async def work(tx: ClubTx) -> ClubInfo:
            if name:
                club = await tx.club_by_name(" ".join(name.split()))
                if club is None:
                    known = [c.name for c in await tx.clubs()]
                    raise not_found(f"no club named {name!r}{_suggest(name, known)}")
                return club
            clubs = await tx.clubs()
            if len(clubs) != 1:
                raise bad(
                    "name the club (--club NAME): "
                    + ("there is none yet" if not clubs else f"there are {len(clubs)}")
                )
            return clubs[0]

        return await self._read(work)

    async def club(self, actor: Actor, club_id: int) -> tuple[ClubInfo, Role]:
        async def work(tx: ClubTx) -> tuple[ClubInfo, Role]:
            club = await self._club(tx, club_id)
            return club, await self._reader(tx, actor, club_id)

        return await self._read(work)

    async def role(self, actor: Actor, club_id: int) -> Role:
        return await self._read(lambda tx: self._role(tx, actor, club_id))

    async def update_club(
        self, actor: Actor, club_id: int, *, place: str | None = None, timezone: str | None = None
    ) -> ClubInfo:
        async def work(tx: ClubTx) -> ClubInfo:
            club = await self._club(tx, club_id)
            role = await self._officer(tx, actor, club_id)
            values: dict[str, Any] = {}
            if place is not None:
                values["place"] = _clean(place)[:200]
            if timezone is not None:
                cal.zone(timezone)
                values["timezone"] = timezone
            if values:
                await tx.update_club(club_id, **values)
                await self._audit(
                    tx,
                    club_id,
                    (actor, role),
                    "club.update",
                    f"club {club.name}",
                    before={k: getattr(club, k) for k in values},
                    after=values,
                )
            return await self._club(tx, club_id)

        return await self._write(work)

    # ---------------------------------------------------------------------------- members

    async def add_member(
        self,
        actor: Actor,
        club_id: int,
        name: str,
        *,
        email: str | None = None,
        officer: bool = False,
        account: str | None = None,
    ) -> MemberInfo:
        name = check_name(name)
        address = check_email(email)

        async def work(tx: ClubTx) -> MemberInfo:
            await self._club(tx, club_id)
            role = await self._officer(tx, actor, club_id)
            members = await tx.members(club_id)
            if any(m.name.casefold() == name.casefold() for m in members):
                raise conflict(f"there is already a member named {name!r}")
            user_id = await self._account(tx, club_id, account, members)
            member = await tx.add_member(
                club_id, name, email=address, user_id=user_id, officer=officer
            )
            await self._audit(
                tx,
                club_id,
                (actor, role),
                "member.add",
                f"member {name}",
                after={"email": address, "officer": officer, "account": account},
            )
            return member

        return await self._write(work)

    async def _account(
        self,
        tx: ClubTx,
        club_id: int,
        account: str | None,
        members: Sequence[MemberInfo],
        member_id: int | None = None,
    ) -> int | None:
        if not account:
            return None
        user_id = await tx.user_id_by_name(account.strip())
        if user_id is None:
            raise bad(f"no platform account named {account!r}")
        if any(m.user_id == user_id and m.id != member_id for m in members):
            raise conflict(f"the account {account!r} is already linked to another member")
        return user_id

    async def update_member(
        self,
        actor: Actor,
        club_id: int,
        who: int | str,
        *,
        name: str | None = None,
        email: str | None = None,
        officer: bool | None = None,
        account: str | None = None,
        active: bool | None = None,
    ) -> MemberInfo:
        """Change a member (``email=""`` or ``account=""`` remove them)."""

        async def work(tx: ClubTx) -> MemberInfo:
            role = await self._officer(tx, actor, club_id)
            member = await self._member(tx, club_id, who)
            members = await tx.members(club_id)
            values: dict[str, Any] = {}
            if name is not None:
                new = check_name(name)
                if any(m.name.casefold() == new.casefold() and m.id != member.id for m in members):
                    raise conflict(f"there is already a member named {new!r}")
                values["name"] = new
            if email is not None:
                values["email"] = check_email(email)
            if officer is not None:
                values["officer"] = officer
            if account is not None:
                values["user_id"] = await self._account(tx, club_id, account, members, member.id)
            if active is not None:
                values["active"] = active
            if not values:
                return member
            if (officer is False or active is False) and member.officer:
                others = [m for m in members if m.officer and m.active and m.id != member.id]
                if not others:
                    raise conflict("the club must keep at least one active officer")
            await tx.update_member(member.id, **values)
            updated = await tx.member(member.id)
            assert updated is not None
            await self._audit(
                tx,
                club_id,
                (actor, role),
                "member.update",
                f"member {member.name}",
                before={
                    "name": member.name,
                    "email": member.email,
                    "officer": member.officer,
                    "account": member.user_name,
                    "active": member.active,
                },
                after={
                    "name": updated.name,
                    "email": updated.email,
                    "officer": updated.officer,
                    "account": updated.user_name,
                    "active": updated.active,
                },
            )
            return updated

        return await self._write(work)

    async def members(self, actor: Actor, club_id: int) -> list[MemberInfo]:
        async def work(tx: ClubTx) -> list[MemberInfo]:
            await self._club(tx, club_id)
            role = await self._reader(tx, actor, club_id)
            members = await tx.members(club_id)
            if role.officer:
                return members
            # Members see each other's names, not their addresses.
            return [
                MemberInfo(m.id, m.club_id, m.name, None, None, None, m.officer, m.active)
                for m in members
            ]

        return await self._read(work)

    # ---------------------------------------------------------------------------- seasons

    async def create_season(
        self,
        actor: Actor,
        club_id: int,
        name: str,
        *,
        starts_on: date,
        ends_on: date,
        **settings: Any,
    ) -> SeasonInfo:
        """A season with ``settings`` (``SeasonSettings``'s; those not given: its defaults)."""
        values = season_settings(name=name, starts_on=starts_on, ends_on=ends_on, **settings)

        async def work(tx: ClubTx) -> SeasonInfo:
            await self._club(tx, club_id)
            role = await self._officer(tx, actor, club_id)
            if any(s.name.casefold() == values.name.casefold() for s in await tx.seasons(club_id)):
                raise conflict(f"there is already a season named {values.name!r}")
            season = await tx.create_season(club_id, values)
            await self._audit(
                tx,
                club_id,
                (actor, role),
                "season.create",
                f"season {season.name}",
                season_id=season.id,
                after=values.to_json(),
            )
            return season

        return await self._write(work)

    async def update_season(self, actor: Actor, season_id: int, **settings: Any) -> SeasonInfo:
        """Change some settings: each is checked before the season is read, the dates with the
        season's others."""
        values = checked_settings(settings)

        async def work(tx: ClubTx) -> SeasonInfo:
            season = await self._season(tx, season_id)
            role = await self._officer(tx, actor, season.club_id)
            old = season.settings
            new = replaced_settings(old, values)
            outside = [
                e.date
                for e in await tx.evenings(season_id)
                if not new.starts_on <= e.date <= new.ends_on
            ]
            if outside:
                raise bad(f"the evening of {outside[0]} would fall outside the season")
            await tx.update_season(season_id, **new.values(list(values)))
            await self._audit(
                tx,
                season.club_id,
                (actor, role),
                "season.update",
                f"season {season.name}",
                season_id=season_id,
                before=old.to_json(list(values)),
                after=new.to_json(list(values)),
            )
            return await self._season(tx, season_id)

        return await self._write(work)

    async def seasons(self, actor: Actor, club_id: int) -> list[SeasonInfo]:
        async def work(tx: ClubTx) -> list[SeasonInfo]:
            await self._club(tx, club_id)
            await self._reader(tx, actor, club_id)
            return await tx.seasons(club_id)

        return await self._read(work)

    async def season(self, actor: Actor | None, season_id: int) -> SeasonInfo:
        """A season (``actor`` None: no check, for the public calendar)."""

        async def work(tx: ClubTx) -> SeasonInfo:
            season = await self._season(tx, season_id)
            if actor is not None:
                await self._reader(tx, actor, season.club_id)
            return season

        return await self._read(work)

    async def find_season(self, club_id: int, name: str | None, on: date | None = None) -> int:
        """A season by name; else the one holding ``on``; else the latest."""

        async def work(tx: ClubTx) -> int:
            seasons = await tx.seasons(club_id)
            if not seasons:
                raise not_found("the club has no season yet")
            if name:
                for s in seasons:
                    if s.name.casefold() == name.casefold() or str(s.id) == name:
                        return s.id
                known = [s.name for s in seasons]
                raise not_found(f"no season named {name!r}{_suggest(name, known)}")
            if on is not None:
                for s in reversed(seasons):
                    if s.starts_on <= on <= s.ends_on:
                        return s.id
                raise bad(f"{on} is outside every season of the club")
            return seasons[-1].id

        return await self._read(work)

    # ---------------------------------------------------------------------------- calendar

    def _check_in_season(self, season: SeasonInfo, day: date) -> None:
        if not season.starts_on <= day <= season.ends_on:
            raise bad(
                f"{day} is outside the season {season.name!r}"
                f" ({season.starts_on} to {season.ends_on})"
            )

    async def create_calendar(
        self,
        actor: Actor,
        season_id: int,
        *,
        first: date | None = None,
        count: int = cal.EVENINGS,
        italiano: Sequence[int] | None = None,
        skip: Iterable[date] = (),
    ) -> list[EveningInfo]:
        """The season's evenings, every week on the season's weekday from ``first`` (default:
        the season's start), but the ``skip`` dates; ``italiano``: which are Burraco Italiano
        (default five spread evenly). All must fall inside the season."""

        async def work(tx: ClubTx) -> list[EveningInfo]:
            season = await self._season(tx, season_id)
            role = await self._officer(tx, actor, season.club_id)
            planned = cal.plan(
                first or season.starts_on,
                count,
                weekday=season.weekday,
                skip=skip,
                italiano=italiano,
            )
            for p in planned:
                self._check_in_season(season, p.date)
            existing = {e.date for e in await tx.evenings(season_id)}
            clash = [p.date for p in planned if p.date in existing]
            if clash:
                raise conflict(f"there is already an evening on {clash[0]}")
            out = [await tx.add_evening(season_id, p.date, p.type.value) for p in planned]
            await self._audit(
                tx,
                season.club_id,
                (actor, role),
                "calendar.create",
                f"season {season.name}: {len(out)} evenings",
                season_id=season_id,
                after=[{"date": str(e.date), "type": e.type} for e in out],
            )
            return out

        return await self._write(work)

    async def add_evening(
        self,
        actor: Actor,
        season_id: int,
        day: date,
        type: str = "internazionale",
        *,
        one_game_fewer: bool = False,
    ) -> EveningInfo:
        kind = _evening_type(type)

        async def work(tx: ClubTx) -> EveningInfo:
            season = await self._season(tx, season_id)
            role = await self._officer(tx, actor, season.club_id)
            self._check_in_season(season, day)
            if any(e.date == day for e in await tx.evenings(season_id)):
                raise conflict(f"there is already an evening on {day}")
            evening = await tx.add_evening(
                season_id, day, kind.value, one_game_fewer=one_game_fewer
            )
            await self._audit(
                tx,
                season.club_id,
                (actor, role),
                "evening.add",
                f"evening {day}",
                season_id=season_id,
                evening_id=evening.id,
                after={"date": str(day), "type": kind.value, "one_game_fewer": one_game_fewer},
            )
            return evening

        return await self._write(work)

    async def update_evening(
        self,
        actor: Actor,
        evening_id: int,
        *,
        day: date | None = None,
        type: str | None = None,
        one_game_fewer: bool | None = None,
        cancelled: bool | None = None,
        note: str | None = None,
        reason: str | None = None,
    ) -> EveningInfo:
        """Move an evening, change its type, play one game fewer (the officers' choice, T26:
        allowed until that game has results), cancel it or give it back."""

        async def work(tx: ClubTx) -> EveningInfo:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            ev = state.evening
            values: dict[str, Any] = {}
            if day is not None and day != ev.date:
                if ev.status is not EveningStatus.SCHEDULED or state.checkins:
                    raise conflict("only an evening without check-ins can be moved")
                self._check_in_season(season, day)
                if any(e.date == day for e in await tx.evenings(season.id)):
                    raise conflict(f"there is already an evening on {day}")
                values["date"] = day
            if type is not None and _evening_type(type).value != ev.type:
                if ev.status is not EveningStatus.SCHEDULED:
                    raise conflict("the type of an evening cannot change once seats are drawn")
                values["type"] = _evening_type(type).value
            if one_game_fewer is not None and one_game_fewer != ev.one_game_fewer:
                kind = EveningType(values.get("type", ev.type))
                games = kind.games - one_game_fewer
                done = [g for g in state.games if g.results]
                if any(g.number > games for g in done):
                    raise conflict(f"game {kind.games} already has results")
                if any(g.number > games for g in state.games):
                    await tx.delete_games(evening_id, from_game=games + 1)
                values["one_game_fewer"] = one_game_fewer
                if ev.status.drawn:
                    complete = sum(1 for g in state.games if _complete(g) and g.number <= games)
                    values["status"] = (
                        EveningStatus.FINISHED if complete >= games else EveningStatus.PLAYING
                    )
            if cancelled is not None:
                if cancelled and ev.status is not EveningStatus.CANCELLED:
                    if ev.status is not EveningStatus.SCHEDULED:
                        raise conflict("an evening whose seats are drawn cannot be cancelled")
                    values["status"] = EveningStatus.CANCELLED
                elif not cancelled and ev.status is EveningStatus.CANCELLED:
                    values["status"] = EveningStatus.SCHEDULED
            if note is not None:
                values["note"] = _clean(note)[:200]
            if not values:
                return ev
            await tx.update_evening(evening_id, **values)
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "evening.update",
                f"evening {ev.date}",
                season_id=season.id,
                evening_id=evening_id,
                before=_jsonable({k: getattr(ev, k) for k in values}),
                after=_jsonable(values),
                reason=_clean(reason) or None,
            )
            updated = await tx.evening(evening_id)
            assert updated is not None
            return updated

        return await self._write(work)

    async def delete_evening(self, actor: Actor, evening_id: int, reason: str = "") -> None:
        async def work(tx: ClubTx) -> None:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            if state.evening.status.drawn or state.checkins:
                raise conflict("only an evening without check-ins can be removed")
            await tx.delete_evening(evening_id)
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "evening.delete",
                f"evening {state.evening.date}",
                season_id=season.id,
                before={"date": str(state.evening.date), "type": state.evening.type},
                reason=_clean(reason) or None,
            )

        await self._write(work)

    async def evenings(self, actor: Actor | None, season_id: int) -> list[EveningInfo]:
        async def work(tx: ClubTx) -> list[EveningInfo]:
            season = await self._season(tx, season_id)
            if actor is not None:
                await self._reader(tx, actor, season.club_id)
            return await tx.evenings(season_id)

        return await self._read(work)

    async def find_evening(self, club_id: int, day: date) -> int:
        async def work(tx: ClubTx) -> int:
            evening = await tx.evening_on(club_id, day)
            if evening is None:
                raise not_found(f"no evening on {day}")
            return evening.id

        return await self._read(work)

    async def calendar(self, season_id: int) -> tuple[ClubInfo, SeasonInfo, list[SeasonEvening]]:
        """The public calendar: no login needed (the .ics link is a subscription)."""

        async def work(tx: ClubTx) -> tuple[ClubInfo, SeasonInfo, list[SeasonEvening]]:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            return club, season, _numbered(await tx.evenings(season_id))

        return await self._read(work)

    async def calendar_ics(self, season_id: int, lang: str = "it") -> str:
        lang = check_lang(lang)
        club, season, evenings = await self.calendar(season_id)
        tz = cal.zone(club.timezone)
        events = []
        for e in evenings:
            times = _times(e.info, season, tz)
            events.append(
                cal.IcsEvent(
                    uid=f"club{club.id}-season{season.id}-evening{e.info.id}@burraco",
                    start=times.start,
                    end=times.end,
                    summary=evening_summary(lang, e, season, club),
                    description=evening_description(lang, e, season, times),
                    location=club.place,
                    cancelled=e.info.status is EveningStatus.CANCELLED,
                )
            )
        return cal.ics(f"{club.name} — {season.name}", events, stamp=self.clock())

    # ---------------------------------------------------------------------------- check-in

    def _window(
        self, ev: EveningInfo, season: SeasonInfo, club: ClubInfo
    ) -> tuple[datetime, datetime]:
        tz = cal.zone(club.timezone)
        return (
            datetime.combine(ev.date, season.checkin_opens, tz),
            datetime.combine(ev.date, season.checkin_closes, tz),
        )

    async def checkin(
        self,
        actor: Actor,
        evening_id: int,
        who: int | str,
        *,
        at: datetime | None = None,
        override: str | None = None,
    ) -> CheckinInfo:
        """Register a player present (T30: 20:30-20:45 by default). After the window the
        registration is refused, unless an officer overrides it with a reason; a member may
        register himself, in the window only. ``at``: when (default now)."""
        return (await self.checkins(actor, evening_id, [who], at=at, override=override))[0]

    async def checkins(
        self,
        actor: Actor,
        evening_id: int,
        players: Sequence[int | str],
        *,
        at: datetime | None = None,
        override: str | None = None,
    ) -> list[CheckinInfo]:
        """Several players registered at once, in one transaction: one refused (unknown, late,
        already registered...) and none is registered."""
        when = at or self.clock()
        reason = _clean(override) or None
        if not players:
            raise bad("name the players to register")

        async def work(tx: ClubTx) -> list[CheckinInfo]:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._role(tx, actor, club.id)
            ev = state.evening
            if ev.status is EveningStatus.CANCELLED:
                raise conflict(f"the evening of {ev.date} is cancelled")
            if ev.status is not EveningStatus.SCHEDULED:
                raise conflict(
                    f"the seats of {ev.date} are already drawn: undo the draw (no result"
                    " entered yet) to admit another player"
                )
            opens, closes = self._window(ev, season, club)
            early, late = when < opens, when > closes
            registered = {c.member_id for c in state.checkins}
            out = []
            for who in players:
                member = await self._member(tx, club.id, who)
                if not role.officer and role.member_id != member.id:
                    raise ClubError("forbidden", "only an officer may register another player")
                if not member.active:
                    raise bad(f"{member.name} is not an active member")
                if member.id in registered:
                    raise conflict(f"{member.name} is already registered")
                registered.add(member.id)
                if (early or late) and not (role.officer and reason):
                    local = when.astimezone(opens.tzinfo).strftime("%Y-%m-%d %H:%M")
                    window = f"{opens:%H:%M}-{closes:%H:%M} on {ev.date}"
                    if late:
                        raise ClubError(
                            "late",
                            f"{member.name} arrived at {local}, after the check-in window"
                            f" ({window}): late players do not play, unless an officer"
                            " overrides with a reason",
                        )
                    raise conflict(f"check-in is open {window}, not at {local}")
                override_by = self._who(actor, role) if (early or late) else None
                await tx.add_checkin(
                    evening_id,
                    member.id,
                    at=when,
                    late=late,
                    recorded_by=self._who(actor, role),
                    override_by=override_by,
                    override_reason=reason if override_by else None,
                )
                if override_by:
                    await self._audit(
                        tx,
                        club.id,
                        (actor, role),
                        "checkin.override",
                        f"evening {ev.date}: {member.name}",
                        season_id=season.id,
                        evening_id=evening_id,
                        after={"member": member.name, "at": when.isoformat(), "late": late},
                        reason=reason,
                    )
                out.append(
                    CheckinInfo(
                        member.id,
                        when,
                        late,
                        self._who(actor, role),
                        override_by,
                        override_by and reason,
                    )
                )
            return out

        return await self._write(work)

    async def uncheck(self, actor: Actor, evening_id: int, who: int | str, reason: str) -> None:
        """Remove a registration made by mistake (before the draw)."""

        async def work(tx: ClubTx) -> None:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            member = await self._member(tx, club.id, who)
            if state.evening.status is not EveningStatus.SCHEDULED:
                raise conflict("the seats are drawn: undo the draw first")
            if not any(c.member_id == member.id for c in state.checkins):
                raise bad(f"{member.name} is not registered for {state.evening.date}")
            await tx.remove_checkin(evening_id, member.id)
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "checkin.remove",
                f"evening {state.evening.date}: {member.name}",
                season_id=season.id,
                evening_id=evening_id,
                reason=_clean(reason) or None,
            )

        await self._write(work)

    # ---------------------------------------------------------------------------- the draw

    async def draw(
        self,
        actor: Actor,
        evening_id: int,
        *,
        seed: int | None = None,
        at: datetime | None = None,
    ) -> Draw:
        """The draw when check-in closes (T30): the players' stations in random order, then the
        rests (T29) and the tables of game 1. Before the window has closed an officer may still
        draw (everyone is there); it is noted in the audit trail."""
        when = at or self.clock()

        async def work(tx: ClubTx) -> Draw:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            ev = state.evening
            if ev.status is not EveningStatus.SCHEDULED:
                raise conflict(
                    f"the evening of {ev.date} is {ev.status}: its seats cannot be drawn now"
                )
            names = await self._names(tx, club.id)
            players = sorted(EntrantId(names[c.member_id]) for c in state.checkins)
            if len(players) < 4:
                raise conflict(f"{len(players)} players registered: an evening needs at least 4")
            config = evening_config(ev, season)
            drawn_seed = self.seeds() if seed is None else seed
            evening = Evening.start(players, config, _rng(drawn_seed, 0))
            pairing = evening.draw_game(_rng(drawn_seed, 1))
            ids = {n: i for i, n in names.items()}
            await tx.update_evening(
                evening_id,
                status=EveningStatus.PLAYING,
                seed=drawn_seed,
                stations=[ids[p] for p in evening.players],
                drawn_at=when,
            )
            await tx.add_game(
                evening_id,
                1,
                _seats_of(pairing, ids),
                [ids[r] for r in pairing.byes],
                drawn=True,
                relaxed=pairing.relaxed,
            )
            _, closes = self._window(ev, season, club)
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "evening.draw",
                f"evening {ev.date}: {len(players)} players",
                season_id=season.id,
                evening_id=evening_id,
                after={
                    "seed": drawn_seed,
                    "stations": list(evening.players),
                    "rests": list(pairing.byes),
                    "early": when < closes,
                },
            )
            view = await self._evening_view(tx, evening_id)
            return Draw(view.stations, view.game(1))

        return await self._write(work)

    async def undo_draw(self, actor: Actor, evening_id: int, reason: str) -> None:
        """Back to check-in (before any result): to admit a late player, or to draw again."""
        if not _clean(reason):
            raise bad("say why the draw is undone")

        async def work(tx: ClubTx) -> None:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            if state.evening.status is not EveningStatus.PLAYING:
                raise conflict("there is no draw to undo")
            if any(g.results for g in state.games):
                raise conflict("results are already entered: the draw cannot be undone")
            await tx.delete_games(evening_id)
            await tx.update_evening(
                evening_id, status=EveningStatus.SCHEDULED, seed=None, stations=None, drawn_at=None
            )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "evening.undo_draw",
                f"evening {state.evening.date}",
                season_id=season.id,
                evening_id=evening_id,
                before={"seed": state.evening.seed},
                reason=_clean(reason),
            )

        await self._write(work)

    async def _draw_next(
        self, tx: ClubTx, state: EveningState, season: SeasonInfo, names: Mapping[int, str]
    ) -> None:
        """When a game is complete, the next one is drawn (its rests among those who have not
        rested yet, T29; its tables by the season's seating)."""
        evening, done = build_evening(state, season, names)
        if evening.finished or state.game(done + 1) is not None:
            return
        seed = state.evening.seed
        assert seed is not None
        pairing = evening.draw_game(_rng(seed, done + 1))
        ids = {n: i for i, n in names.items()}
        await tx.add_game(
            state.evening.id,
            done + 1,
            _seats_of(pairing, ids),
            [ids[r] for r in pairing.byes],
            drawn=True,
            relaxed=pairing.relaxed,
        )

    async def set_seating(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        tables: Sequence[Sequence[int | str]],
        rests: Sequence[int | str] = (),
        *,
        reason: str = "",
    ) -> GameView:
        """A game's seating as the room was seated by hand (seed 003: *sorteggio manuale*):
        each table NS1, EW1, NS2, EW2 (partners are 1st and 3rd, 2nd and 4th; a 2-player table
        when the season plays one), and who rests. Replaces the drawn seating while the game
        has no result."""

        async def work(tx: ClubTx) -> GameView:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            ev = state.evening
            if not ev.status.drawn:
                raise conflict("draw the evening first (the stations), then seat its games")
            names = await self._names(tx, club.id)
            evening, done = build_evening(state, season, names)
            if not 1 <= game <= evening.config.games:
                raise bad(f"the evening has games 1 to {evening.config.games}, not {game}")
            existing = state.game(game)
            if existing is not None and existing.results:
                raise conflict(f"game {game} already has results: correct them instead")
            if game != done + 1:
                raise conflict(f"game {game} cannot be seated before game {done} is complete")
            members = {m.name: m for m in [await self._member(tx, club.id, w) for w in rests]}
            rest_names = sorted(EntrantId(n) for n in members)
            if len(rest_names) != len(rests):
                raise bad("a player rests twice")
            table_list = []
            for number, seats in enumerate(tables, 1):
                who = [await self._member(tx, club.id, w) for w in seats]
                line_names = [EntrantId(m.name) for m in who]
                lines: tuple[tuple[EntrantId, ...], tuple[EntrantId, ...]]
                if len(line_names) == 4:
                    lines = ((line_names[0], line_names[2]), (line_names[1], line_names[3]))
                elif len(line_names) == 2:
                    lines = ((line_names[0],), (line_names[1],))
                else:
                    raise bad(f"table {number} has {len(line_names)} players: 4 (or 2)")
                table_list.append(Table(number, lines))
            try:
                pairing = Pairing(game, tuple(table_list), tuple(rest_names))
            except ValueError as error:
                raise bad(str(error)) from None
            self._check_seating(evening, pairing)
            if existing is not None:
                await tx.delete_games(evening_id, from_game=game)
            ids = {n: i for i, n in names.items()}
            await tx.add_game(
                evening_id,
                game,
                _seats_of(pairing, ids),
                [ids[r] for r in pairing.byes],
                drawn=False,
            )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "seating.set",
                f"evening {ev.date}: game {game}",
                season_id=season.id,
                evening_id=evening_id,
                before=None if existing is None else _seating_json(pairing_of(existing, names)),
                after=_seating_json(pairing),
                reason=_clean(reason) or None,
            )
            return (await self._evening_view(tx, evening_id)).game(game)

        return await self._write(work)

    @staticmethod
    def _check_seating(evening: Evening, pairing: Pairing) -> None:
        present = set(evening.players)
        placed = list(pairing.entrants)
        strangers = sorted(set(placed) - present)
        if strangers:
            raise bad(f"not registered this evening: {', '.join(strangers)}")
        missing = sorted(present - set(placed))
        if missing:
            raise bad(f"everyone present must play or rest; missing: {', '.join(missing)}")
        n_rest, n_two = sit_outs(len(present), evening.config.two_left_over)
        twos = [t for t in pairing.tables if len(t.entrants) == 2]
        if len(twos) != n_two or len(pairing.byes) != n_rest:
            raise bad(
                f"with {len(present)} players, {n_rest} rest and {n_two} table(s) of two"
                f" (T29); this seating has {len(pairing.byes)} resting and {len(twos)}"
            )
        _check_rest_order(evening, pairing.byes)

    async def change_rest(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        *,
        rest: int | str,
        instead_of: int | str,
        reason: str,
    ) -> GameView:
        """An officer manages who rests (seed 003): ``rest`` rests in game ``game`` instead of
        ``instead_of``, who takes his seat. Only before the game has results; nobody rests twice
        while another player has not rested yet (T29)."""
        if not _clean(reason):
            raise bad("say why the rest changes")

        async def work(tx: ClubTx) -> GameView:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            names = await self._names(tx, club.id)
            current = state.game(game)
            if current is None:
                raise bad(f"game {game} is not seated yet")
            if current.results:
                raise conflict(f"game {game} already has results")
            newcomer = await self._member(tx, club.id, rest)
            leaving = await self._member(tx, club.id, instead_of)
            resting = {r.member_id for r in current.rests}
            if leaving.id not in resting:
                raise bad(f"{leaving.name} does not rest in game {game}")
            seat = next((s for s in current.seats if s.member_id == newcomer.id), None)
            if seat is None:
                raise bad(f"{newcomer.name} does not play in game {game}")
            old = pairing_of(current, names)
            evening, _ = build_evening(state, season, names)
            byes = tuple(
                sorted(EntrantId(names[i]) for i in (resting - {leaving.id}) | {newcomer.id})
            )
            _check_rest_order(evening, byes)
            seats = [
                NewSeat(
                    leaving.id if s.member_id == newcomer.id else s.member_id,
                    s.table_no,
                    s.line,
                    s.position,
                )
                for s in current.seats
            ]
            rests_now = sorted((resting - {leaving.id}) | {newcomer.id})
            await tx.delete_games(evening_id, from_game=game)
            await tx.add_game(
                evening_id,
                game,
                seats,
                rests_now,
                drawn=current.drawn,
                relaxed=current.relaxed,
                rests_drawn=False,
            )
            if current.started_at is not None:
                await tx.set_game_started(evening_id, game, current.started_at)
            after = await tx.evening_state(evening_id)
            assert after is not None
            new_game = after.game(game)
            assert new_game is not None
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "rest.change",
                f"evening {state.evening.date}: game {game}",
                season_id=season.id,
                evening_id=evening_id,
                before=_seating_json(old),
                after=_seating_json(pairing_of(new_game, names)),
                reason=_clean(reason),
            )
            return (await self._evening_view(tx, evening_id)).game(game)

        return await self._write(work)

    # ---------------------------------------------------------------------------- results

    def _check_result(
        self,
        ns: int,
        ew: int,
        smazzate: Sequence[Sequence[int]] | None,
        timed_out: int | None,
    ) -> tuple[tuple[int, int], ...] | None:
        check_score(ns, "the NS score")
        check_score(ew, "the EW score")
        if timed_out not in (None, 0, 1):
            raise bad("timed_out is 0 (NS), 1 (EW) or nothing")
        if smazzate is None:
            return None
        rows: list[tuple[int, int]] = []
        for i, pair in enumerate(smazzate, 1):
            if len(pair) != 2:
                raise bad(f"smazzata {i}: two scores, NS and EW")
            rows.append(
                (
                    check_score(pair[0], f"smazzata {i} NS"),
                    check_score(pair[1], f"smazzata {i} EW"),
                )
            )
        if not rows:
            return None
        total = (sum(a for a, _ in rows), sum(b for _, b in rows))
        if total != (ns, ew):
            raise bad(
                f"the result does not add up: the smazzate total {total[0]} - {total[1]},"
                f" the result says {ns} - {ew}"
            )
        return tuple(rows)

    async def enter_result(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        ns: int,
        ew: int,
        smazzate: Sequence[Sequence[int]] | None = None,
        timed_out: int | None = None,
    ) -> EveningView:
        """A table's result: the two lines' scores (NS, EW) of the game, and optionally its
        smazzate, which must add up to them. When the game is complete the next one is drawn;
        after the last game the evening is finished."""
        return await self.enter_results(
            actor, evening_id, game, [ResultInput(table, ns, ew, smazzate, timed_out)]
        )

    async def enter_results(
        self, actor: Actor, evening_id: int, game: int, results: Sequence[ResultInput]
    ) -> EveningView:
        """Several tables' results of one game at once, in one transaction: one bad result
        (an unknown table, a score that is not a multiple of 5, smazzate that do not add up,
        a table already entered) and none is stored."""
        if not results:
            raise bad("no result given")
        rows = [self._check_result(r.ns, r.ew, r.smazzate, r.timed_out) for r in results]
        tables = [r.table for r in results]
        if len(set(tables)) != len(tables):
            raise bad("a table's result is given twice")

        async def work(tx: ClubTx) -> EveningView:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            for r in results:
                current = self._table(state, game, r.table)
                if current.result(r.table) is not None:
                    raise conflict(
                        f"game {game}, table {r.table} already has a result:"
                        " correct it with a reason"
                    )
            for r, checked in zip(results, rows, strict=True):
                await tx.set_result(
                    evening_id,
                    game,
                    r.table,
                    ns=r.ns,
                    ew=r.ew,
                    smazzate=checked,
                    timed_out=r.timed_out,
                    entered_by=self._who(actor, role),
                )
            await self._after_result(tx, evening_id, season, club)
            return await self._evening_view(tx, evening_id)

        return await self._write(work)

    def _table(self, state: EveningState, game: int, table: int) -> GameInfo:
        if not state.evening.status.drawn:
            raise conflict(f"the seats of {state.evening.date} are not drawn yet")
        current = state.game(game)
        if current is None:
            raise bad(f"game {game} is not seated yet")
        if table not in current.tables:
            raise bad(f"game {game} has tables {', '.join(map(str, current.tables))}, not {table}")
        return current

    async def _after_result(
        self, tx: ClubTx, evening_id: int, season: SeasonInfo, club: ClubInfo
    ) -> None:
        state = await tx.evening_state(evening_id)
        assert state is not None
        names = await self._names(tx, club.id)
        await self._draw_next(tx, state, season, names)
        evening, _ = build_evening(state, season, names)
        status = EveningStatus.FINISHED if evening.finished else EveningStatus.PLAYING
        if status != state.evening.status:
            await tx.update_evening(evening_id, status=status)

    async def correct_result(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        ns: int,
        ew: int,
        reason: str,
        smazzate: Sequence[Sequence[int]] | None = None,
        timed_out: int | None = None,
    ) -> EveningView:
        """An officer corrects a published result, with a reason: the audit trail keeps the
        old and new scores, the open score checks of the table are closed as corrected, and the
        rankings (computed from the results) follow."""
        if not _clean(reason):
            raise bad("a correction needs a reason")
        rows = self._check_result(ns, ew, smazzate, timed_out)

        async def work(tx: ClubTx) -> EveningView:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            role = await self._officer(tx, actor, club.id)
            current = self._table(state, game, table)
            old = current.result(table)
            if old is None:
                raise bad(f"game {game}, table {table} has no result yet: enter it")
            if (old.ns, old.ew, old.smazzate, old.timed_out) == (ns, ew, rows, timed_out):
                raise bad("the correction changes nothing")
            await tx.set_result(
                evening_id,
                game,
                table,
                ns=ns,
                ew=ew,
                smazzate=rows,
                timed_out=timed_out,
                entered_by=self._who(actor, role),
                correction=True,
            )
            for check in state.checks:
                if (
                    check.game == game
                    and check.table_no == table
                    and check.status is CheckStatus.OPEN
                ):
                    await tx.resolve_check(
                        check.id,
                        status=CheckStatus.CORRECTED,
                        resolved_by=self._who(actor, role),
                        resolution=_clean(reason),
                    )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "result.correct",
                f"evening {state.evening.date}: game {game}, table {table}",
                season_id=season.id,
                evening_id=evening_id,
                before=_result_json(old.ns, old.ew, old.smazzate, old.timed_out),
                after=_result_json(ns, ew, rows, timed_out),
                reason=_clean(reason),
            )
            return await self._evening_view(tx, evening_id)

        return await self._write(work)

    # ---------------------------------------------------------------------------- score checks

    async def request_check(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        table: int,
        *,
        note: str = "",
        member: int | str | None = None,
    ) -> ScoreCheckInfo:
        """A player asks for a check of a published score (seed 003: during the break, after
        two games). A member asks for himself; an officer may ask on a player's behalf."""

        async def work(tx: ClubTx) -> ScoreCheckInfo:
            state, _season, club = await self._evening(tx, evening_id)
            role = await self._reader(tx, actor, club.id)
            asker = role.member
            if member is not None:
                asker = await self._member(tx, club.id, member)
                if not role.officer and asker.id != role.member_id:
                    raise ClubError("forbidden", "a member asks for a check for himself")
            current = self._table(state, game, table)
            if current.result(table) is None:
                raise bad(f"game {game}, table {table} has no published score to check")
            if any(
                c.game == game and c.table_no == table and c.status is CheckStatus.OPEN
                for c in state.checks
            ):
                raise conflict(f"a check of game {game}, table {table} is already open")
            return await tx.add_check(
                evening_id,
                game,
                table,
                member_id=None if asker is None else asker.id,
                requested_by=self._who(actor, role) if asker is None else asker.name,
                note=_clean(note)[:1000],
            )

        return await self._write(work)

    async def resolve_check(self, actor: Actor, check_id: int, resolution: str) -> ScoreCheckInfo:
        """The officer checked the score and it stands (a wrong score is corrected with
        ``correct_result``, which closes the check as corrected)."""

        async def work(tx: ClubTx) -> ScoreCheckInfo:
            check = await tx.check(check_id)
            if check is None:
                raise not_found(f"no score check {check_id}")
            state, season, club = await self._evening(tx, check.evening_id)
            role = await self._officer(tx, actor, club.id)
            if check.status is not CheckStatus.OPEN:
                raise conflict(f"the check {check_id} is already {check.status}")
            await tx.resolve_check(
                check_id,
                status=CheckStatus.CONFIRMED,
                resolved_by=self._who(actor, role),
                resolution=_clean(resolution),
            )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "check.confirm",
                f"evening {state.evening.date}: game {check.game}, table {check.table_no}",
                season_id=season.id,
                evening_id=check.evening_id,
                reason=_clean(resolution) or None,
            )
            found = await tx.check(check_id)
            assert found is not None
            return found

        return await self._write(work)

    # ---------------------------------------------------------------------------- timer

    async def start_game(
        self, actor: Actor, evening_id: int, game: int, *, at: datetime | None = None
    ) -> TimerState:
        """Start the room's timer for a game (seated already)."""
        when = at or self.clock()

        async def work(tx: ClubTx) -> TimerState:
            state, season, club = await self._evening(tx, evening_id, lock=True)
            await self._officer(tx, actor, club.id)
            if state.game(game) is None:
                raise bad(f"game {game} is not seated yet")
            await tx.set_game_started(evening_id, game, when)
            after = await tx.evening_state(evening_id)
            assert after is not None
            return _timer(after, season, when)

        return await self._write(work)

    async def timer(self, evening_id: int, *, now: datetime | None = None) -> TimerState:
        """Public: the projection page needs no login."""

        async def work(tx: ClubTx) -> TimerState:
            state, season, _club = await self._evening(tx, evening_id)
            return _timer(state, season, now or self.clock())

        return await self._read(work)

    # ---------------------------------------------------------------------------- reading

    async def evening(self, actor: Actor | None, evening_id: int) -> EveningView:
        """The evening with its seatings, results, ranking and score checks (``actor`` None:
        no check, for the console's exports)."""

        async def work(tx: ClubTx) -> EveningView:
            view = await self._evening_view(tx, evening_id)
            if actor is not None:
                await self._reader(tx, actor, view.club.id)
            return view

        return await self._read(work)

    async def _evening_view(self, tx: ClubTx, evening_id: int) -> EveningView:
        state, season, club = await self._evening(tx, evening_id)
        names = await self._names(tx, club.id)
        tz = cal.zone(club.timezone)
        ev = state.evening
        config = evening_config(ev, season)
        number = next(
            (e.number for e in _numbered(await tx.evenings(season.id)) if e.info.id == ev.id), 0
        )
        games = tuple(_game_view(g, names, config) for g in state.games)
        if ev.stations:
            evening, done = build_evening(state, season, names)
            ranking = evening.ranking()
        else:
            done = 0
            ranking = EveningRanking(())
        return EveningView(
            club=club,
            season=season,
            evening=ev,
            number=number,
            type=config.type,
            games_planned=config.games,
            times=_times(ev, season, tz),
            checkins=tuple(
                CheckinView(
                    names[c.member_id],
                    c.at.astimezone(tz),
                    c.late,
                    c.recorded_by,
                    c.override_by,
                    c.override_reason,
                )
                for c in state.checkins
            ),
            stations=tuple(names[i] for i in ev.stations or ()),
            games=games,
            ranking=ranking,
            complete_games=done,
            checks=tuple(
                CheckView(c, None if c.member_id is None else names.get(c.member_id))
                for c in state.checks
            ),
        )

    async def standings(
        self, actor: Actor | None, season_id: int, *, after: int | None = None
    ) -> StandingsView:
        """The season standings (T28): the sum of the ranking points of the finished evenings,
        or of the first ``after`` of them (the partial standings of an e-mail)."""

        async def work(tx: ClubTx) -> StandingsView:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            if actor is not None:
                await self._reader(tx, actor, club.id)
            return await self._standings(tx, club, season, after)

        return await self._read(work)

    async def _standings(
        self, tx: ClubTx, club: ClubInfo, season: SeasonInfo, after: int | None
    ) -> StandingsView:
        names = await self._names(tx, club.id)
        evenings: list[SeasonEvening] = []
        for e in _numbered(await tx.evenings(season.id)):
            ranking = None
            if e.info.status is EveningStatus.FINISHED:
                state = await tx.evening_state(e.info.id)
                assert state is not None
                ranking = build_evening(state, season, names)[0].ranking()
            evenings.append(SeasonEvening(e.info, e.number, e.type, e.games, ranking))
        counted = [e for e in evenings if e.ranking is not None]
        if after is not None:
            counted = counted[: max(0, after)]
        season_model = Season(tuple(e.ranking for e in counted if e.ranking is not None))
        progress: dict[str, list[int]] = {}
        running: dict[str, int] = {}
        for k, e in enumerate(counted):
            assert e.ranking is not None
            for row in e.ranking.rows:
                running[row.player] = running.get(row.player, 0) + row.points
                progress.setdefault(row.player, [0] * k)
            for player, points in running.items():
                progress[player].append(points)
        return StandingsView(
            club=club,
            season=season,
            evenings=tuple(evenings),
            counted=tuple(counted),
            rows=season_model.standings(),
            progress={p: tuple(v) for p, v in progress.items()},
        )

    # ---------------------------------------------------------------------------- fees

    async def record_payment(
        self,
        actor: Actor,
        season_id: int,
        who: int | str,
        amount_cents: int,
        *,
        paid_on: date | None = None,
        note: str = "",
    ) -> fee.MemberAccount:
        if not isinstance(amount_cents, int) or amount_cents <= 0:
            raise bad("a payment is a positive amount")

        async def work(tx: ClubTx) -> fee.MemberAccount:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            role = await self._officer(tx, actor, club.id)
            member = await self._member(tx, club.id, who)
            day = paid_on or self.clock().astimezone(cal.zone(club.timezone)).date()
            await tx.add_payment(
                season_id,
                member.id,
                amount_cents=amount_cents,
                paid_on=day,
                note=_clean(note)[:200],
                recorded_by=self._who(actor, role),
            )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "fee.payment",
                f"{member.name}: {fee.euros(amount_cents)}",
                season_id=season_id,
                after={"member": member.name, "cents": amount_cents, "paid_on": str(day)},
                reason=_clean(note) or None,
            )
            return (await self._fees(tx, club, season, prizes=False)).account(member.name)

        return await self._write(work)

    async def add_charge(
        self,
        actor: Actor,
        season_id: int,
        who: int | str,
        amount_cents: int,
        *,
        reason: str,
        due_on: date | None = None,
    ) -> fee.MemberAccount:
        """An adjustment of what a member owes: an extra charge, or a waiver (negative)."""
        if not isinstance(amount_cents, int) or amount_cents == 0:
            raise bad("an adjustment is a non-zero amount")
        if not _clean(reason):
            raise bad("an adjustment needs a reason")

        async def work(tx: ClubTx) -> fee.MemberAccount:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            role = await self._officer(tx, actor, club.id)
            member = await self._member(tx, club.id, who)
            day = due_on or self.clock().astimezone(cal.zone(club.timezone)).date()
            await tx.add_charge(
                season_id,
                member.id,
                due_on=day,
                amount_cents=amount_cents,
                reason=_clean(reason),
                created_by=self._who(actor, role),
            )
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "fee.adjust",
                f"{member.name}: {fee.euros(amount_cents)}",
                season_id=season_id,
                after={"member": member.name, "cents": amount_cents, "due_on": str(day)},
                reason=_clean(reason),
            )
            return (await self._fees(tx, club, season, prizes=False)).account(member.name)

        return await self._write(work)

    async def fees(self, actor: Actor | None, season_id: int) -> fee.FeesReport:
        """Every member's account (officers) or only one's own (members)."""

        async def work(tx: ClubTx) -> fee.FeesReport:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            report = await self._fees(tx, club, season)
            if actor is None:
                return report
            role = await self._reader(tx, actor, club.id)
            if role.officer:
                return report
            mine = tuple(a for a in report.accounts if role.member and a.member == role.member.name)
            return fee.FeesReport(mine, report.pool_share_cents, report.prizes_cents)

        return await self._read(work)

    async def _fees(
        self, tx: ClubTx, club: ClubInfo, season: SeasonInfo, *, prizes: bool = True
    ) -> fee.FeesReport:
        """Every member's account; ``prizes``: with the value of the prizes so far (it needs
        the standings)."""
        names = await self._names(tx, club.id)
        attendance: dict[str, list[date]] = {}
        for e in await tx.evenings(season.id):
            if e.status.drawn:
                for member_id in e.stations or ():
                    attendance.setdefault(names[member_id], []).append(e.date)
        adjustments: dict[str, list[fee.Adjustment]] = {}
        for c in await tx.charges(season.id):
            adjustments.setdefault(names[c.member_id], []).append(
                fee.Adjustment(c.due_on, c.amount_cents, c.reason)
            )
        payments: dict[str, list[fee.Payment]] = {}
        for p in await tx.payments(season.id):
            payments.setdefault(names[p.member_id], []).append(
                fee.Payment(p.paid_on, p.amount_cents, p.note)
            )
        value = 0
        if prizes:
            value = _prizes(await self._standings(tx, club, season, None), ()).total_cents
        return fee.FeesReport(
            fee.accounts(attendance, adjustments, payments, season.monthly_fee_cents),
            season.pool_share_cents,
            value,
        )

    # ---------------------------------------------------------------------------- prizes

    async def prizes(self, actor: Actor | None, season_id: int) -> PrizesReport:
        """The weekly prizes (each evening's best score, T28) and the top-3 prizes, with their
        value; and what was awarded when the season was closed."""

        async def work(tx: ClubTx) -> PrizesReport:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            if actor is not None:
                await self._reader(tx, actor, club.id)
            standings = await self._standings(tx, club, season, None)
            report = _prizes(standings, await tx.prizes(season_id))
            return PrizesReport(
                report.weekly, report.season, report.awarded, await self._names(tx, club.id)
            )

        return await self._read(work)

    async def close_season(self, actor: Actor, season_id: int) -> PrizesReport:
        """Award the prizes (stored; closing again replaces them): every evening must be
        finished or cancelled."""

        async def work(tx: ClubTx) -> PrizesReport:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            role = await self._officer(tx, actor, club.id)
            open_ = [e.date for e in await tx.evenings(season_id) if e.status.open]
            if open_:
                raise conflict(f"the evening of {open_[0]} is neither finished nor cancelled")
            standings = await self._standings(tx, club, season, None)
            report = _prizes(standings, ())
            ids = {n: i for i, n in (await self._names(tx, club.id)).items()}
            rows: list[dict[str, Any]] = [
                {
                    "kind": PrizeKind.WEEKLY,
                    "evening_id": w.evening.id,
                    "place": None,
                    "member_id": ids[w.player],
                    "value_cents": w.value_cents,
                    "description": f"{w.evening.date}: {w.vp} VP, {w.mp:+d} MP",
                }
                for w in report.weekly
            ] + [
                {
                    "kind": PrizeKind.SEASON,
                    "evening_id": None,
                    "place": s.place,
                    "member_id": ids[s.player],
                    "value_cents": s.value_cents,
                    "description": f"{s.place}: {s.points}",
                }
                for s in report.season
            ]
            await tx.replace_prizes(season_id, rows)
            await self._audit(
                tx,
                club.id,
                (actor, role),
                "season.close",
                f"season {season.name}: prizes awarded",
                season_id=season_id,
                after=[
                    {
                        "kind": r["kind"],
                        "member": names_of(ids)[r["member_id"]],
                        "cents": r["value_cents"],
                    }
                    for r in rows
                ],
            )
            return _prizes(standings, await tx.prizes(season_id))

        return await self._write(work)

    # ---------------------------------------------------------------------------- reports

    async def member_report(
        self, actor: Actor | None, season_id: int, who: int | str
    ) -> MemberReport:
        """One member's season: each finished evening (place, VP, MP, points, rests, late),
        his standing, weekly and season prizes, and his fees account. Officers see anyone's;
        a member sees his own."""

        async def work(tx: ClubTx) -> MemberReport:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            member = await self._member(tx, club.id, who)
            if actor is not None:
                role = await self._reader(tx, actor, club.id)
                if not role.officer and role.member_id != member.id:
                    raise ClubError("forbidden", "a member sees only his own report")
            standings = await self._standings(tx, club, season, None)
            prizes = _prizes(standings, ())
            rows: list[MemberEvening] = []
            for e in standings.counted:
                assert e.ranking is not None
                state = await tx.evening_state(e.info.id)
                assert state is not None
                late = any(c.member_id == member.id and c.late for c in state.checkins)
                found = next((r for r in e.ranking.rows if r.player == member.name), None)
                rows.append(MemberEvening(e, found, late))
            report = await self._fees(tx, club, season, prizes=False)
            account = next((a for a in report.accounts if a.member == member.name), None)
            return MemberReport(
                club=club,
                season=season,
                member=member.name,
                standing=next((r for r in standings.rows if r.player == member.name), None),
                evenings=tuple(rows),
                weekly=tuple(w for w in prizes.weekly if w.player == member.name),
                season_prize=next((p for p in prizes.season if p.player == member.name), None),
                account=account,
            )

        return await self._read(work)

    async def club_report(self, actor: Actor | None, season_id: int) -> ClubReport:
        """The club's season for its officers: the calendar with attendance and each
        evening's best, the standings, fees and pool, prizes, corrections."""

        async def work(tx: ClubTx) -> ClubReport:
            season = await self._season(tx, season_id)
            club = await self._club(tx, season.club_id)
            if actor is not None:
                await self._officer(tx, actor, club.id)
            standings = await self._standings(tx, club, season, None)
            summaries = []
            for e in standings.evenings:
                state = await tx.evening_state(e.info.id)
                assert state is not None
                summaries.append(
                    EveningSummary(
                        e,
                        len(e.info.stations or ()),
                        sum(1 for c in state.checkins if c.late),
                        () if e.ranking is None else tuple(e.ranking.best),
                    )
                )
            corrections = [
                a
                for a in await tx.audit_trail(club.id, season_id=season_id)
                if a.action == "result.correct"
            ]
            return ClubReport(
                club=club,
                season=season,
                evenings=tuple(summaries),
                standings=standings,
                fees=await self._fees(tx, club, season),
                prizes=_prizes(standings, await tx.prizes(season_id)),
                corrections=len(corrections),
                members=sum(1 for m in await tx.members(club.id) if m.active),
            )

        return await self._read(work)

    # ---------------------------------------------------------------------------- audit

    async def audit_trail(
        self,
        actor: Actor | None,
        club_id: int,
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
        action_prefix: str | None = None,
    ) -> list[AuditEntry]:
        async def work(tx: ClubTx) -> list[AuditEntry]:
            await self._club(tx, club_id)
            if actor is not None:
                await self._officer(tx, actor, club_id)
            return await tx.audit_trail(
                club_id, season_id=season_id, evening_id=evening_id, action_prefix=action_prefix
            )

        return await self._read(work)

    async def note_mail(
        self,
        actor: Actor,
        club_id: int,
        what: str,
        recipients: Sequence[str],
        *,
        season_id: int | None = None,
        evening_id: int | None = None,
    ) -> None:
        """Record e-mails sent (and, for an evening's standings, when they were published)."""

        async def work(tx: ClubTx) -> None:
            role = await self._officer(tx, actor, club_id)
            if evening_id is not None and what == "standings":
                await tx.update_evening(evening_id, published_at=self.clock())
            await self._audit(
                tx,
                club_id,
                (actor, role),
                f"mail.{what}",
                f"{len(recipients)} recipients",
                season_id=season_id,
                evening_id=evening_id,
                after=sorted(recipients),
            )

        await self._write(work)

    async def require_officer(self, actor: Actor, club_id: int) -> Role:
        return await self._read(lambda tx: self._officer(tx, actor, club_id))

    async def club_of(self, *, season_id: int | None = None, evening_id: int | None = None) -> int:
        async def work(tx: ClubTx) -> int:
            if evening_id is not None:
                ev = await tx.evening(evening_id)
                if ev is None:
                    raise not_found(f"no evening {evening_id}")
                return (await self._season(tx, ev.season_id)).club_id
            assert season_id is not None
            return (await self._season(tx, season_id)).club_id

        return await self._read(work)

    async def mailing_list(self, club_id: int) -> list[MemberInfo]:
        """The active members with an e-mail address."""

        async def work(tx: ClubTx) -> list[MemberInfo]:
            return [m for m in await tx.members(club_id) if m.active and m.email]

        return await self._read(work)


# ------------------------------------------------------------------------------ functions


def names_of(ids: Mapping[str, int]) -> dict[int, str]:
    return {i: n for n, i in ids.items()}


def _evening_type(value: str) -> EveningType:
    try:
        return EveningType(value.strip().lower())
    except ValueError:
        raise bad(f"an evening is internazionale or italiano, not {value!r}") from None


def _numbered(evenings: Sequence[EveningInfo]) -> list[SeasonEvening]:
    """The calendar in date order, numbered (cancelled evenings keep no number: 0)."""
    out = []
    n = 0
    for e in sorted(evenings, key=lambda e: e.date):
        kind = EveningType(e.type)
        if e.status is not EveningStatus.CANCELLED:
            n += 1
        out.append(
            SeasonEvening(
                e,
                n if e.status is not EveningStatus.CANCELLED else 0,
                kind,
                kind.games - e.one_game_fewer,
                None,
            )
        )
    return out


def _times(ev: EveningInfo, season: SeasonInfo, tz: Any) -> cal.EveningTimes:
    return cal.evening_times(
        ev.date,
        tz,
        opens=season.checkin_opens,
        closes=season.checkin_closes,
        type=EveningType(ev.type),
        one_game_fewer=ev.one_game_fewer,
        break_minutes=season.break_minutes,
    )


def _timer(state: EveningState, season: SeasonInfo, now: datetime) -> TimerState:
    kind = EveningType(state.evening.type)
    return timer_state(
        games=kind.games - state.evening.one_game_fewer,
        minutes=kind.minutes,
        break_minutes=season.break_minutes,
        started={g.number: g.started_at for g in state.games},
        now=now,
    )


def _game_view(game: GameInfo, names: Mapping[int, str], config: EveningConfig) -> GameView:
    pairing = pairing_of(game, names)
    tables = []
    for t in pairing.tables:
        result = game.result(t.number)
        mp = vp = None
        if result is not None:
            rs = score(
                TableResult(t.number, (result.ns, result.ew), timed_out=result.timed_out),
                config.vp_table,
            )
            mp, vp = rs.mp, rs.vp
        tables.append(TableView(t.number, (tuple(t.lines[0]), tuple(t.lines[1])), result, mp, vp))
    return GameView(
        number=game.number,
        drawn=game.drawn,
        relaxed=game.relaxed,
        started_at=game.started_at,
        tables=tuple(tables),
        rests=tuple(pairing.byes),
        rests_drawn=all(r.drawn for r in game.rests),
    )


def _check_rest_order(evening: Evening, byes: Sequence[EntrantId]) -> None:
    """T29: the names resting are among those who rested least so far this evening."""
    counts = evening.history.byes
    resting = set(byes)
    others = [p for p in evening.players if p not in resting]
    if not others or not resting:
        return
    least_other = min(counts.get(p, 0) for p in others)
    for p in sorted(resting):
        if counts.get(p, 0) > least_other:
            waiting = sorted(q for q in others if counts.get(q, 0) < counts.get(p, 0))
            raise bad(
                f"{p} has already rested this evening while {', '.join(waiting)} has not:"
                " nobody rests twice before everyone has rested (T29)"
            )


def _seating_json(pairing: Pairing) -> dict[str, Any]:
    return {
        "game": pairing.round,
        "tables": [[list(t.lines[0]), list(t.lines[1])] for t in pairing.tables],
        "rests": list(pairing.byes),
    }


def _result_json(
    ns: int, ew: int, smazzate: Sequence[Sequence[int]] | None, timed_out: int | None
) -> dict[str, Any]:
    out: dict[str, Any] = {"ns": ns, "ew": ew}
    if smazzate is not None:
        out["smazzate"] = [list(s) for s in smazzate]
    if timed_out is not None:
        out["timed_out"] = timed_out
    return out


def _jsonable(values: Any) -> Any:
    if isinstance(values, StrEnum):
        return values.value
    if isinstance(values, Mapping):
        return {k: _jsonable(v) for k, v in values.items()}
    if isinstance(values, list | tuple):
        return [_jsonable(v) for v in values]
    if isinstance(values, date | time | datetime):
        return values.isoformat()
    return values


def _prizes(standings: StandingsView, awarded: Sequence[PrizeInfo]) -> PrizesReport:
    """Weekly prizes: each finished evening's best (T28 [ENG]: highest VP, then MP; players
    still tied each get one). Top-3 prizes: places 1-3 of the standings; players tied share
    the places they cover and split their prizes equally (T17), to the cent."""
    season = standings.season
    weekly = []
    for e in standings.counted:
        assert e.ranking is not None
        for player in e.ranking.best:
            row = e.ranking.row(player)
            weekly.append(
                WeeklyPrize(e.info, e.number, player, row.vp, row.mp, season.weekly_prize_cents)
            )
    amounts = list(season.season_prizes_cents)
    top: list[SeasonPrize] = []
    if standings.rows:
        ranking = Standings.from_totals(Total(r.player, vp=r.points) for r in standings.rows)
        shares = ranking.prizes(amounts + [0] * len(ranking.rows))
        for srow in standings.rows:
            if srow.place <= 3:
                value = shares.get(srow.player, Fraction(0))
                top.append(SeasonPrize(srow.place, srow.player, srow.points, round(value)))
    return PrizesReport(tuple(weekly), tuple(top), tuple(awarded))
