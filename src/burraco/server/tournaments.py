"""Online tournaments: registration, rounds played on server tables, standings pushed live.

A ``TournamentManager`` lives in the server process next to the tables (``hub.tournaments``).
Everything it knows is in the store (``burraco.store.tournament_store``): it reads a tournament
back before each change, so that a restarted server simply goes on. The pairing systems, MP,
VP and standings are the pure logic of ``burraco.tournament``; this module only decides *when*
(registration closes, the tournament starts, a round's last table finishes) and does the I/O
(server tables, the store, the watchers' WebSocket messages). docs/tournaments.md, "Online
tournaments", describes the behaviour; docs/protocol.md the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from burraco.bots import BOT_LEVELS
from burraco.engine.errors import RulesError
from burraco.engine.vp import VPTable, vp_table
from burraco.errors import ServiceError
from burraco.store import (
    EntrantInfo,
    EntrantTaken,
    FinishedMatch,
    RoundTableInfo,
    TournamentData,
    TournamentInfo,
    TournamentStore,
    UserInfo,
)
from burraco.tournament import (
    BracketMode,
    EntrantId,
    EntrantKind,
    History,
    Knockout,
    KnockoutRound,
    Mitchell,
    Outcome,
    OutcomeKind,
    Pairing,
    RematchPolicy,
    Standings,
    Table,
    TableResult,
    admit,
    danish_round,
    decide,
    first_round,
    individual_round,
    partial_elimination,
    round_robin_round,
    round_robin_rounds,
    score,
    sit_out,
)

from .connection import Connection
from .protocol import encode
from .table import TableActor, commands
from .tableconfig import TableConfig

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("burraco.tournaments")

REGISTRATION_CLOSES: Final = timedelta(minutes=2)
"""T1: registration to a scheduled tournament closes this long before its start."""
SYSTEMS: Final = ("danish", "round_robin", "mitchell", "knockout")
KINDS: Final = tuple(kind.value for kind in EntrantKind)
MAX_ENTRANTS: Final = 256
SCHEDULER_NAP: Final = 30.0
"""Seconds the scheduler sleeps at most between two looks at the scheduled tournaments."""


class TournamentError(ServiceError):
    """A request about a tournament that is refused (an HTTP error ``{error, message}``; the
    status of each code is in ``server/errors.py``)."""


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# ------------------------------------------------------------------------------- settings


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """How a tournament is played (stored as JSON with the tournament)."""

    kind: str = EntrantKind.INDIVIDUAL.value
    """``individual`` (1 v 1 at 2-player tables), ``pairs`` (fixed pairs at 4-player tables)
    or ``individual_four`` (single players at 4-player tables with a new partner each round,
    Danish only)."""
    system: str = "danish"
    """``danish``, ``round_robin``, ``mitchell`` or ``knockout``."""
    rounds: int | None = None
    """Danish: the number of rounds (default 3). Mitchell: at most the number of tables
    (default: all). Round robin and knockout: as many as the system needs."""
    rules: str = "italian"
    options: dict[str, Any] | None = None
    smazzate: int = 3
    """Smazzate per round (T3)."""
    round_seconds: float | None = None
    """The chess clock of each round (T5): each line gets half."""
    hand_seconds: float | None = None
    vp_table: str = "auto"
    """``auto`` (VP-2/3/4 by smazzate per round, else VP-3), ``VP-2``, ``VP-3`` or ``VP-4``."""
    rematch_policy: str = RematchPolicy.NOT_PREVIOUS_ROUND.value
    bracket: str = BracketMode.REDRAW_EACH_ROUND.value
    absent: str = "bot"
    """A seat whose player is away: ``bot`` (a bot plays it) or ``forfeit`` (T14's score)."""
    absent_seconds: float | None = None
    """How long a player may be away before that happens (None: the server's grace)."""
    between_smazzate: float = 4.0
    min_players: int = 4
    """T1: a scheduled tournament with fewer players is cancelled."""
    elimination: dict[str, int] | None = None
    """T21, Danish only: after round ``r`` (a key, as text in JSON), the entrants below that
    many VP are out: they sit out the following rounds and keep their VP in the ranking."""

    def thresholds(self) -> dict[int, int]:
        """T21's thresholds by round number."""
        return {int(r): int(vp) for r, vp in (self.elimination or {}).items()}

    @property
    def entrant_kind(self) -> EntrantKind:
        return EntrantKind(self.kind)

    @property
    def seats(self) -> int:
        return self.entrant_kind.seats

    def table(self) -> VPTable:
        if self.vp_table.lower() == "auto":
            return vp_table(f"VP-{self.smazzate}" if self.smazzate in (2, 3, 4) else "VP-3")
        return vp_table(self.vp_table)

    def table_config(self, tournament: str) -> TableConfig:
        return TableConfig(
            rules=self.rules,
            players=self.seats,
            smazzate=self.smazzate,
            options=dict(self.options or {}),
            round_seconds=self.round_seconds,
            hand_seconds=self.hand_seconds,
            public=False,
            between_smazzate=self.between_smazzate,
            tournament=tournament,
            absent=self.absent,
            absent_seconds=self.absent_seconds,
        )

    def validate(self) -> None:
        """Raises TournamentError (or RulesError for the ruleset) when something is wrong."""

        def bad(message: str) -> TournamentError:
            return TournamentError("bad_tournament", message)

        if self.kind not in KINDS:
            raise bad(f"kind is one of {', '.join(KINDS)}")
        if self.system not in SYSTEMS:
            raise bad(f"system is one of {', '.join(SYSTEMS)}")
        if self.kind == EntrantKind.INDIVIDUAL_FOUR and self.system != "danish":
            raise bad("single players at 4-player tables play the Danish system")
        if self.rounds is not None and not 1 <= self.rounds <= 20:
            raise bad("rounds must be between 1 and 20")
        if not 1 <= self.smazzate <= 20:
            raise bad("smazzate must be between 1 and 20")
        if self.rematch_policy not in {p.value for p in RematchPolicy}:
            raise bad("rematch_policy is allowed, not_previous_round or never")
        if self.bracket not in {b.value for b in BracketMode}:
            raise bad("bracket is redraw_each_round or fixed_bracket")
        if self.absent not in ("bot", "forfeit"):
            raise bad("absent is bot or forfeit")
        if self.absent_seconds is not None and not 1 <= self.absent_seconds <= 600:
            raise bad("absent_seconds must be between 1 and 600")
        if not 4 <= self.min_players <= MAX_ENTRANTS:
            raise bad(f"min_players must be between 4 and {MAX_ENTRANTS}")
        if self.elimination:
            self._validate_elimination(bad)
        try:
            self.table()
        except RulesError as error:
            raise bad(str(error)) from None
        self.table_config("check").validate()  # RulesError: 422 bad_rules

    def _validate_elimination(self, bad: Callable[[str], TournamentError]) -> None:
        if self.system != "danish":
            raise bad("T21: partial elimination is for the Danish system")
        if not isinstance(self.elimination, dict) or len(self.elimination) > 20:
            raise bad('T21: elimination maps rounds to VP thresholds, e.g. {"1": 7}')
        rounds = self.rounds or 3
        for key, vp in self.elimination.items():
            try:
                after = int(key)
            except (TypeError, ValueError):
                raise bad(f"T21: {key!r} is not a round number") from None
            if not 1 <= after < rounds:
                raise bad(f"T21: elimination after round {after}: rounds 1 to {rounds - 1}")
            if isinstance(vp, bool) or not isinstance(vp, int) or not 0 <= vp <= 20 * after:
                raise bad(f"T21: after round {after} the threshold is 0 to {20 * after} VP")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSettings:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


# -------------------------------------------------------------------------- what a round is


@dataclass(frozen=True, slots=True)
class Progress:
    """A tournament read back from the store, with what ``burraco.tournament`` makes of it."""

    data: TournamentData
    settings: TournamentSettings
    admitted: tuple[EntrantId, ...]
    """Entrants playing, in registration order (empty before the start)."""
    pairings: tuple[Pairing, ...]
    outcomes: tuple[Outcome, ...]
    """Byes of every round and every table result so far."""

    @property
    def info(self) -> TournamentInfo:
        return self.data.info

    @classmethod
    def of(cls, data: TournamentData) -> Progress:
        settings = TournamentSettings.from_json(data.info.settings)
        admitted = tuple(EntrantId(e.entrant) for e in data.entrants if e.status == "playing")
        pairings: list[Pairing] = []
        outcomes: list[Outcome] = []
        for rnd in data.rounds:
            rows = [t for t in data.tables if t.round == rnd.number]
            seatings = tuple(_seating(t) for t in rows)
            byes = tuple(EntrantId(b) for b in rnd.byes)
            pairings.append(Pairing(rnd.number, seatings, byes, rnd.relaxed))
            outcomes.extend(sit_out(b, rnd.number) for b in byes)
            for row, seating in zip(rows, seatings, strict=True):
                if row.result is not None:
                    outcomes.extend(_outcomes(seating, row.result, rnd.number))
        return cls(data, settings, admitted, tuple(pairings), tuple(outcomes))

    def standings(self) -> Standings:
        return Standings.of(self.outcomes, self.admitted)

    def eliminated(self) -> dict[EntrantId, int]:
        """T21: the entrants out of the tournament, with the round after which each went out:
        after each finished round with a threshold, those below it among the entrants still in
        (the standings of that moment)."""
        thresholds = self.settings.thresholds()
        if not thresholds:
            return {}
        finished = {r.number for r in self.data.rounds if r.status == "finished"}
        out: dict[EntrantId, int] = {}
        for after in sorted(thresholds):
            if after not in finished:
                break
            still = [e for e in self.admitted if e not in out]
            kept = set(still)
            outcomes = [o for o in self.outcomes if o.round <= after and o.entrant in kept]
            standings = Standings.of(outcomes, still)
            for entrant in partial_elimination(standings, after_round=after, thresholds=thresholds):
                out[entrant] = after
        return out

    def total_rounds(self) -> int:
        n = len(self.admitted)
        s = self.settings
        if n < 2:
            return 0
        if s.system == "round_robin":
            return round_robin_rounds(n)
        if s.system == "mitchell":
            tables = Mitchell.seat(self.admitted).max_rounds
            return min(s.rounds or tables, tables)
        if s.system == "knockout":
            return (1 << (n - 1).bit_length()).bit_length() - 1
        return s.rounds or 3

    def rng(self, round: int) -> random.Random:
        """The draws of round ``round``: the same after a restart."""
        return random.Random(f"{self.info.seed}:{round}")

    def drawn_order(self) -> list[EntrantId]:
        """The order drawn at the start (round robin and Mitchell stations)."""
        order = list(self.admitted)
        self.rng(0).shuffle(order)
        return order

    def knockout(self) -> Knockout | None:
        """The bracket as played so far (None before round 1)."""
        rounds = [r for r in self.data.rounds if r.slots is not None]
        if not rounds:
            return None
        mode = BracketMode(self.settings.bracket)
        winners: list[tuple[EntrantId, ...]] = []
        for rnd in rounds:
            if rnd.status != "finished":
                break
            won = _knockout_winners(self.data, rnd.number)
            advancing: list[EntrantId] = []
            slots = rnd.slots or ()
            for i in range(0, len(slots), 2):
                a, b = slots[i], slots[i + 1]
                if a is None or b is None:
                    present = a if a is not None else b
                    if present is not None:
                        advancing.append(EntrantId(present))
                else:
                    advancing.append(EntrantId(a if a in won else b))
            winners.append(tuple(advancing))
        return Knockout(
            self.admitted,
            mode,
            tuple(
                KnockoutRound(
                    r.number, tuple(None if s is None else EntrantId(s) for s in r.slots or ())
                )
                for r in rounds
            ),
            tuple(winners),
        )

    def pair(self, number: int) -> tuple[Pairing, tuple[str | None, ...] | None]:
        """Round ``number``'s pairing (and a knockout round's bracket slots)."""
        s = self.settings
        rng = self.rng(number)
        if s.system == "round_robin":
            return round_robin_round(self.drawn_order(), number), None
        if s.system == "mitchell":
            return Mitchell.seat(self.drawn_order()).round(number), None
        if s.system == "knockout":
            bracket = self.knockout()
            if bracket is None:
                bracket = Knockout.draw(self.admitted, rng, BracketMode(s.bracket))
            else:
                last = bracket.rounds[-1]
                won = _knockout_winners(self.data, last.round)
                played = [e for a, b in last.matches if a and b for e in (a, b) if e in won]
                bracket = Knockout(
                    bracket.entrants, bracket.mode, bracket.rounds, bracket.winners[:-1]
                )
                bracket = bracket.advance(played, rng)
            current = bracket.rounds[-1]
            return current.pairing(), current.slots
        history = History.of(self.pairings)
        out = self.eliminated()  # T21: they sit out every following round
        if s.entrant_kind is EntrantKind.INDIVIDUAL_FOUR:
            if number == 1:
                order = list(self.admitted)
                rng.shuffle(order)
            else:
                order = [e for e in self.standings().pairing_order(rng) if e not in out]
            return individual_round(order, history, round=number), None
        if number == 1:
            return first_round(self.admitted, rng), None
        return (
            danish_round(
                [e for e in self.standings().pairing_order(rng) if e not in out],
                history,
                round=number,
                last_round=number == self.total_rounds(),
                policy=RematchPolicy(s.rematch_policy),
            ),
            None,
        )

    def ranking(self) -> list[dict[str, Any]]:
        """The standings as the clients show them (a knockout ranks by elimination, T25)."""
        names = {e.entrant: e for e in self.data.entrants}
        rows: list[dict[str, Any]] = []
        standings = self.standings()
        if self.settings.system == "knockout":
            bracket = self.knockout()
            places: dict[str, int] = {}
            if bracket is not None:
                for place, group in bracket.ranking():
                    for e in group:
                        places[e] = place
            order = sorted(
                standings.rows,
                key=lambda r: (places.get(r.entrant, 0), -r.vp, -r.mp, r.entrant),
            )
            for row in order:
                rows.append(self._row(row.entrant, places.get(row.entrant), row, names, False))
            return rows
        for row in standings.rows:
            rows.append(self._row(row.entrant, row.place, row, names, row.tied))
        return rows

    @staticmethod
    def _row(
        entrant: str, place: int | None, row: Any, names: Mapping[str, Any], tied: bool
    ) -> dict[str, Any]:
        who = names.get(entrant)
        return {
            "place": place,
            "entrant": entrant,
            "name": who.name if who else entrant,
            "bot": who.bot if who else None,
            "vp": row.vp,
            "mp": row.mp,
            "played": row.total.played,
            "byes": row.total.sat_out,
            "tied": tied,
        }


def _seating(row: RoundTableInfo) -> Table:
    return Table(
        row.number,
        (tuple(EntrantId(e) for e in row.lines[0]), tuple(EntrantId(e) for e in row.lines[1])),
    )


def _table_result(number: int, result: Mapping[str, Any]) -> TableResult:
    if result.get("double_forfeit"):
        return TableResult(number, (0, 0))
    closings = result.get("closings") or (0, 0)
    return TableResult(
        number,
        (int(result["totals"][0]), int(result["totals"][1])),
        result.get("timed_out"),
        (int(closings[0]), int(closings[1])),
    )


def _outcomes(seating: Table, result: Mapping[str, Any], round: int) -> list[Outcome]:
    """Every entrant's outcome at a finished table, from the MP and VP stored with its result
    (scored once, with the tournament's VP table, when the table finished)."""
    technical = result.get("timed_out") is not None or bool(result.get("double_forfeit"))
    kind = OutcomeKind.TECHNICAL if technical else OutcomeKind.PLAYED
    out = []
    for i, line in enumerate(seating.lines):
        for entrant in line:
            out.append(
                Outcome(
                    entrant,
                    round,
                    int(result["vp"][i]),
                    int(result["mp"][i]),
                    kind,
                    seating.number,
                    tuple(e for e in line if e != entrant),
                    seating.lines[1 - i],
                    result.get("timed_out") == i or bool(result.get("double_forfeit")),
                )
            )
    return out


def _knockout_winners(data: TournamentData, round: int) -> set[str]:
    out: set[str] = set()
    for row in data.tables:
        if row.round == round and row.result is not None and row.result.get("winner") is not None:
            out.update(row.lines[int(row.result["winner"])])
    return out


# ------------------------------------------------------------------------------ the manager


class TournamentManager:
    def __init__(self, hub: Hub, *, clock: Callable[[], datetime] | None = None) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.store)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.watchers: dict[str, set[Connection]] = {}
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()
        self._scheduler: asyncio.Task[None] | None = None
        self._closed_announced: set[str] = set()
        hub.finish_listeners.append(self._on_table_finished)

    # --------------------------------------------------------------------------- lifecycle

    async def start(self, *, scheduler: bool = True) -> None:
        """Go on with every tournament the store has in progress (after a restart), then
        watch the clock for scheduled ones."""
        for info in await self.store.tournaments(["registering", "running"]):
            try:
                await self._resume(info.id)
            except Exception:
                log.exception("tournament %s could not be resumed", info.id)
        if scheduler:
            self._scheduler = asyncio.get_running_loop().create_task(
                self._schedule(), name="tournament scheduler"
            )

    async def close(self) -> None:
        tasks = [t for t in (self._scheduler, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def _schedule(self) -> None:
        while True:
            delay = SCHEDULER_NAP
            try:
                await self.tick()
                now = self.clock()
                for info in await self.store.tournaments(["registering"]):
                    if info.starts_at is not None:
                        for moment in (info.starts_at - REGISTRATION_CLOSES, info.starts_at):
                            if moment > now:
                                delay = min(delay, (moment - now).total_seconds())
            except Exception:  # the store may be away for a moment: try again later
                log.exception("tournament scheduler")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=max(0.05, delay + 0.05))

    async def tick(self) -> None:
        """Start (or cancel) every scheduled tournament whose time has come, and tell the
        watchers when a registration closes."""
        now = self.clock()
        for info in await self.store.tournaments(["registering"]):
            if info.start != "scheduled" or info.starts_at is None:
                continue
            if now >= info.starts_at:
                async with self._lock:
                    await self._begin(info.id)
            elif now >= info.starts_at - REGISTRATION_CLOSES and info.id not in (
                self._closed_announced
            ):
                self._closed_announced.add(info.id)
                await self._push(info.id, "registration_closed")

    # ------------------------------------------------------------------------- requests

    async def create(
        self,
        user: UserInfo,
        *,
        name: str,
        start: str,
        size: int | None,
        starts_at: datetime | None,
        settings: TournamentSettings,
    ) -> dict[str, Any]:
        settings.validate()
        now = self.clock()
        per_table = settings.entrant_kind.entrants_per_table
        if start == "sitgo":
            if size is None or not 4 <= size <= MAX_ENTRANTS or size % per_table:
                raise TournamentError(
                    "bad_tournament",
                    f"a Sit&Go needs a size of 4 to {MAX_ENTRANTS} entrants, a multiple of "
                    f"{per_table}",
                )
            starts_at = None
        elif start == "scheduled":
            if starts_at is None:
                raise TournamentError("bad_tournament", "a scheduled tournament needs starts_at")
            starts_at = _utc(starts_at)
            if starts_at - REGISTRATION_CLOSES <= now:
                raise TournamentError(
                    "bad_tournament",
                    "the start must be more than 2 minutes away (registration closes then)",
                )
            size = None
        else:
            raise TournamentError("bad_tournament", "start is sitgo or scheduled")
        tournament_id = secrets.token_urlsafe(9)
        await self.store.create(
            tournament_id,
            name=name.strip()[:80] or tournament_id,
            created_by=user.id,
            start=start,
            starts_at=starts_at,
            size=size,
            settings=settings.to_json(),
            seed=secrets.randbits(62),
            now=now,
        )
        self._wake.set()
        return await self.view(tournament_id)

    async def summaries(self, *, past: int = 50) -> list[dict[str, Any]]:
        """Every tournament registering or running (oldest first), then the ``past`` latest
        finished or cancelled ones (newest first)."""
        infos = await self.store.tournaments()
        active = [i for i in infos if i.status in ("registering", "running")]
        over = [i for i in infos if i.status not in ("registering", "running")][::-1][:past]
        counts = await self.store.entrant_counts([i.id for i in active + over])
        now = self.clock()
        return [self._summary(i, counts.get(i.id, 0), now) for i in active + over]

    async def view(self, tournament_id: str) -> dict[str, Any]:
        data = await self.store.load(tournament_id)
        if data is None:
            raise TournamentError("no_such_tournament", "there is no such tournament")
        return self._view(Progress.of(data))

    async def register(
        self, user: UserInfo, tournament_id: str, partner: str | None = None
    ) -> dict[str, Any]:
        """Register ``user``. In a pairs tournament ``partner`` names the other player, and the
        pair is *invited* until that player confirms it (``confirm``): nobody is entered in a
        tournament without agreeing to it."""
        async with self._lock:
            data = await self._open_for_registration(tournament_id)
            pairs = TournamentSettings.from_json(data.info.settings).kind == EntrantKind.PAIRS
            mate: UserInfo | None = None
            if pairs:
                if not partner:
                    raise TournamentError("partner_needed", "a pair registers with a partner")
                mate = await self.hub.store.user_by_name(partner.strip())
                if mate is None or mate.id == user.id:
                    raise TournamentError("no_such_partner", f"no player named {partner!r}")
            elif partner:
                raise TournamentError("no_pairs", "this tournament is for single players")
            try:
                await self.store.add_entrant(
                    tournament_id,
                    f"u{user.id}",
                    user_id=user.id,
                    partner_id=None if mate is None else mate.id,
                    bot=None,
                    name=user.name if mate is None else f"{user.name} & {mate.name}",
                    now=self.clock(),
                    status="registered" if mate is None else "invited",
                )
            except EntrantTaken:
                raise TournamentError(
                    "already_registered", "you (or your partner) are registered already"
                ) from None
            if mate is not None:
                self._tell_partner(mate.id, tournament_id, "partner_invite", user)
            await self._after_registration(data.info)
        return await self.view(tournament_id)

    async def confirm(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        """The partner named by a pair agrees to play: the pair is registered now (after
        everyone registered so far), and a Sit&Go it fills starts."""
        async with self._lock:
            data = await self._open_for_registration(tournament_id)
            invited = next(
                (e for e in data.entrants if e.partner_id == user.id and e.status == "invited"),
                None,
            )
            if invited is None:
                raise TournamentError("no_invitation", "no pair is waiting for you to confirm")
            await self.store.confirm_entrant(tournament_id, invited.entrant, now=self.clock())
            self._tell_partner(invited.user_id, tournament_id, "partner_confirmed", user)
            await self._after_registration(data.info)
        return await self.view(tournament_id)

    async def invitations(self, user: UserInfo) -> list[dict[str, Any]]:
        """The pairs waiting for ``user`` to confirm, in tournaments still registering."""
        found = await self.store.invitations(user.id)
        return [
            {"tournament": tid, "name": name, "pair": pair, "by": by}
            for tid, name, pair, by in found
        ]

    async def add_bots(
        self, user: UserInfo, tournament_id: str, level: str, count: int
    ) -> dict[str, Any]:
        if level not in BOT_LEVELS or level == "cmd":
            raise TournamentError("no_such_bot", f"unknown bot level {level[:64]!r}")
        async with self._lock:
            data = await self._open_for_registration(tournament_id)
            if data.info.created_by != user.id:
                raise TournamentError("forbidden", "only the organiser can enter bots")
            taken = {e.entrant for e in data.entrants}
            number = 0
            for _ in range(count):
                if data.info.size is not None:
                    fresh = await self.store.load(tournament_id)
                    assert fresh is not None
                    if _active(fresh) >= data.info.size:
                        break
                number += 1
                while f"b{number}" in taken:
                    number += 1
                taken.add(f"b{number}")
                await self.store.add_entrant(
                    tournament_id,
                    f"b{number}",
                    user_id=None,
                    bot=level,
                    name=f"{level} {number}",
                    now=self.clock(),
                )
            await self._after_registration(data.info)
        return await self.view(tournament_id)

    async def unregister(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        async with self._lock:
            data = await self._open_for_registration(tournament_id, joining=False)
            entrant = next((e for e in data.entrants if user.id in e.users), None)
            if entrant is None or not await self.store.remove_entrant(
                tournament_id, entrant.entrant
            ):
                raise TournamentError("not_registered", "you are not registered")
            if entrant.status == "invited" and entrant.partner_id == user.id:
                # The partner declined the pair: tell the player who registered it.
                self._tell_partner(entrant.user_id, tournament_id, "partner_declined", user)
            await self._push(tournament_id, "registration")
        return await self.view(tournament_id)

    async def _open_for_registration(
        self, tournament_id: str, *, joining: bool = True
    ) -> TournamentData:
        data = await self.store.load(tournament_id)
        if data is None:
            raise TournamentError("no_such_tournament", "there is no such tournament")
        info = data.info
        if info.status != "registering":
            raise TournamentError("not_registering", "registration is over")
        if not self._registration_open(info, self.clock()):
            raise TournamentError(
                "registration_closed", "registration closes 2 minutes before the start"
            )
        if joining:
            active = _active(data)
            if info.size is not None and active >= info.size:
                raise TournamentError("full", "the tournament is full")
            if active >= MAX_ENTRANTS:
                raise TournamentError("full", "the tournament is full")
        return data

    async def _after_registration(self, info: TournamentInfo) -> None:
        data = await self.store.load(info.id)
        assert data is not None
        if info.size is not None and _active(data) >= info.size:
            await self._begin(info.id)
        else:
            await self._push(info.id, "registration")

    @staticmethod
    def _registration_open(info: TournamentInfo, now: datetime) -> bool:
        if info.status != "registering":
            return False
        return info.starts_at is None or now < info.starts_at - REGISTRATION_CLOSES

    # ------------------------------------------------------------------- starting, rounds

    async def _begin(self, tournament_id: str) -> None:
        """T1: admit the earliest registrants up to a multiple of the table size, exclude (and
        tell) the others, or cancel below the minimum; then pair round 1. Lock held."""
        data = await self.store.load(tournament_id)
        if data is None or data.info.status != "registering":
            return
        settings = TournamentSettings.from_json(data.info.settings)
        registered = [EntrantId(e.entrant) for e in data.entrants if e.status == "registered"]
        admission = admit(registered, settings.entrant_kind, min_players=settings.min_players)
        now = self.clock()
        statuses: dict[str, str] = dict.fromkeys(admission.excluded, "excluded")
        statuses |= dict.fromkeys(admission.admitted, "playing")
        # Pairs whose partner never confirmed do not play (and are told so).
        unconfirmed = [e.entrant for e in data.entrants if e.status == "invited"]
        statuses |= dict.fromkeys(unconfirmed, "unconfirmed")
        self._notify(data, unconfirmed, "unconfirmed")
        if admission.cancelled:
            await self.store.set_status(
                tournament_id,
                "cancelled",
                finished_at=now,
                note=f"fewer than {settings.min_players} players registered",
                entrants=statuses,
            )
            self._notify(data, admission.excluded, "cancelled")
            await self._push(tournament_id, "cancelled")
            return
        await self.store.set_status(tournament_id, "running", started_at=now, entrants=statuses)
        self._notify(data, admission.excluded, "excluded")
        await self._advance(tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        """Pair and start the next round, or end the tournament. Lock held."""
        data = await self.store.load(tournament_id)
        if data is None or data.info.status != "running":
            return
        progress = Progress.of(data)
        if any(r.status == "playing" for r in data.rounds):
            return
        number = len(data.rounds) + 1
        bracket = progress.knockout()
        out = progress.eliminated()
        if out:
            # T21: tell those who went out after the round just finished.
            self._notify(data, [e for e, after in out.items() if after == number - 1], "eliminated")
        still = len(progress.admitted) - len(out)
        over = (
            number > progress.total_rounds()
            or (bracket is not None and bracket.champion is not None)
            # T21 left fewer entrants than one table needs: the ranking is final.
            or still < (4 if progress.settings.entrant_kind is EntrantKind.INDIVIDUAL_FOUR else 2)
        )
        if over:
            await self.store.set_status(tournament_id, "finished", finished_at=self.clock())
            await self._push(tournament_id, "finished")
            return
        pairing, slots = progress.pair(number)
        await self.store.add_round(
            tournament_id,
            number,
            byes=list(pairing.byes),
            relaxed=pairing.relaxed,
            slots=slots,
            tables=[(t.number, t.lines) for t in pairing.tables],
            now=self.clock(),
        )
        await self._open_tables(tournament_id)
        if not pairing.tables:  # everyone had a bye (cannot happen with 2 or more entrants)
            await self._round_over(tournament_id, number)

    async def _open_tables(self, tournament_id: str) -> None:
        """Create a server table for every table of the current round that has none."""
        data = await self.store.load(tournament_id)
        assert data is not None
        settings = TournamentSettings.from_json(data.info.settings)
        current = max((r.number for r in data.rounds), default=0)
        entrants = {e.entrant: e for e in data.entrants}
        opened: list[tuple[RoundTableInfo, str]] = []
        for row in data.tables:
            if row.round == current and row.table_id is None and row.result is None:
                table_id = await self._server_table(data.info, settings, row, entrants)
                opened.append((row, table_id))
        if not opened:
            return
        await self._push(tournament_id, "round")
        for row, table_id in opened:
            users = [u for line in row.lines for e in line for u in entrants[e].users]
            self._tell_users(
                users,
                {
                    "type": "tournament_notice",
                    "tournament": tournament_id,
                    "notice": "table",
                    "round": row.round,
                    "table": table_id,
                },
            )

    async def _server_table(
        self,
        info: TournamentInfo,
        settings: TournamentSettings,
        row: RoundTableInfo,
        entrants: Mapping[str, Any],
        *,
        smazzate: int | None = None,
        played: Sequence[dict[str, Any]] | None = None,
    ) -> str:
        """A server table for ``row`` with every seat taken, started at once."""
        config = settings.table_config(info.id)
        if smazzate is not None:
            config = replace(config, smazzate=smazzate)
        hub = self.hub
        table_id = secrets.token_urlsafe(9)
        await hub.store.create_table(
            table_id,
            created_by=info.created_by,
            config=config.to_json(),
            public=False,
            invite_code=None,
            players=config.players,
        )
        for seat, (user_id, bot) in enumerate(_seats(row, entrants, config.players)):
            await hub.store.set_seat(table_id, seat, user_id=user_id, bot=bot)
        await self.store.set_table(info.id, row.round, row.number, table_id=table_id, played=played)
        stored = await hub.store.table(table_id)
        assert stored is not None
        actor = TableActor(hub, stored)
        hub.tables[table_id] = actor
        actor.start()
        await actor.call(commands.Start())
        return table_id

    def _on_table_finished(self, actor: TableActor, result: dict[str, Any]) -> None:
        tournament = actor.config.tournament
        if tournament is None:
            return
        closings = [0, 0]
        for sheet in actor.scores:
            seat = sheet.get("closed_by")
            if seat is not None:
                closings[seat % 2 if actor.rules.players == 4 else seat] += 1
        self._spawn(self._table_done(actor.id, result, closings))

    async def _table_done(
        self, table_id: str, result: Mapping[str, Any], closings: Sequence[int] | None
    ) -> None:
        async with self._lock:
            owner = await self.store.table_owner(table_id)
            if owner is None:
                return
            tournament_id, round_number, number = owner
            data = await self.store.load(tournament_id)
            if data is None or data.info.status != "running":
                return
            row = next(t for t in data.tables if t.round == round_number and t.number == number)
            if row.result is not None or row.table_id != table_id:
                return
            settings = TournamentSettings.from_json(data.info.settings)
            totals = [int(t) for t in result["totals"]]
            winner = result.get("winner")
            ended = str(result.get("ended", "complete"))
            timed_out: int | None = None
            if ended in ("timeout", "forfeit") and winner is not None:
                timed_out = 1 - int(winner)
            own_closings = [0, 0] if closings is None else [int(c) for c in closings]
            closings = own_closings
            # A knockout tie: the matches already played at this pairing count too (T23).
            for earlier in row.played:
                totals = [a + b for a, b in zip(totals, earlier["totals"], strict=True)]
                closings = [a + b for a, b in zip(closings, earlier["closings"], strict=True)]
            out: dict[str, Any] = {
                "totals": totals,
                "timed_out": timed_out,
                "closings": list(closings),
                "ended": ended,
            }
            if ended == "forfeit" and winner is None:
                out["double_forfeit"] = True
            if settings.system == "knockout":
                if out.get("double_forfeit"):
                    decision_winner: int | None = random.Random(f"{table_id}").randrange(2)
                else:
                    decision = decide(totals, closings, timed_out)
                    decision_winner = decision.winner
                if decision_winner is None:  # T23: one more smazzata, at a new table
                    played = [
                        *row.played,
                        {
                            "table_id": table_id,
                            "totals": [int(t) for t in result["totals"]],
                            "closings": own_closings,
                        },
                    ]
                    entrants = {e.entrant: e for e in data.entrants}
                    new_id = await self._server_table(
                        data.info, settings, row, entrants, smazzate=1, played=played
                    )
                    await self._push(tournament_id, "extra_smazzata")
                    self._tell_users(
                        [u for line in row.lines for e in line for u in entrants[e].users],
                        {
                            "type": "tournament_notice",
                            "tournament": tournament_id,
                            "notice": "table",
                            "round": round_number,
                            "table": new_id,
                        },
                    )
                    return
                out["winner"] = decision_winner
            rs = _score(out, settings.table())
            out["mp"], out["vp"] = rs
            await self.store.set_result(tournament_id, round_number, number, out)
            fresh = await self.store.load(tournament_id)
            assert fresh is not None
            if all(t.result is not None for t in fresh.tables if t.round == round_number):
                await self._round_over(tournament_id, round_number)
            else:
                await self._push(tournament_id, "result")

    async def _round_over(self, tournament_id: str, number: int) -> None:
        await self.store.finish_round(tournament_id, number, self.clock())
        await self._advance(tournament_id)

    async def _resume(self, tournament_id: str) -> None:
        """After a restart: finish what the crash interrupted, from the store."""
        pending: list[tuple[str, FinishedMatch]] = []
        async with self._lock:
            data = await self.store.load(tournament_id)
            if data is None:
                return
            info = data.info
            if info.status == "registering":
                if info.size is not None and _active(data) >= info.size:
                    await self._begin(tournament_id)
                return
            if info.status != "running":
                return
            playing = [r for r in data.rounds if r.status == "playing"]
            if not playing:
                await self._advance(tournament_id)
                return
            await self._open_tables(tournament_id)
            data = await self.store.load(tournament_id)
            assert data is not None
            current = [t for t in data.tables if t.round == playing[0].number]
            for row in current:
                if row.result is None and row.table_id:
                    done = await self.store.finished_match(row.table_id)
                    if done is not None:
                        pending.append((row.table_id, done))
            if all(row.result is not None for row in current):  # stopped before the pairing
                await self._round_over(tournament_id, playing[0].number)
        for table_id, done in pending:
            closings = await asyncio.to_thread(_closings_of, done.record)
            await self._table_done(
                table_id,
                {"totals": list(done.totals), "winner": done.winner, "ended": done.ended},
                closings,
            )

    # ------------------------------------------------------------------------- watchers

    async def watch(self, conn: Connection, tournament_id: str) -> None:
        view = await self.view(tournament_id)  # TournamentError: no such tournament
        self.watchers.setdefault(tournament_id, set()).add(conn)
        conn.send(encode({"type": "tournament", "reason": "watch", "tournament": view}))

    def unwatch(self, conn: Connection, tournament_id: str) -> None:
        watching = self.watchers.get(tournament_id)
        if watching is not None:
            watching.discard(conn)
            if not watching:
                del self.watchers[tournament_id]

    async def _push(self, tournament_id: str, reason: str) -> None:
        """Send the tournament as it now stands to everyone watching it."""
        watching = self.watchers.get(tournament_id)
        if not watching:
            return
        for conn in [c for c in watching if c.closed]:
            watching.discard(conn)
        if not watching:
            return
        text = encode(
            {"type": "tournament", "reason": reason, "tournament": await self.view(tournament_id)}
        )
        for conn in list(watching):
            conn.send(text)

    def _tell_users(self, user_ids: Sequence[int | None], message: dict[str, Any]) -> None:
        wanted = {u for u in user_ids if u is not None}
        if not wanted:
            return
        text = encode(message)
        for conn in list(self.hub.connections):
            if conn.user.id in wanted:
                conn.send(text)

    def _tell_partner(
        self, user_id: int | None, tournament_id: str, notice: str, by: UserInfo
    ) -> None:
        """A notice about a pair to one of its players, naming the other (``by``)."""
        self._tell_users(
            [user_id],
            {
                "type": "tournament_notice",
                "tournament": tournament_id,
                "notice": notice,
                "by": by.name,
            },
        )

    def _notify(self, data: TournamentData, entrants: Sequence[str], notice: str) -> None:
        users = [u for e in data.entrants if e.entrant in set(entrants) for u in e.users]
        self._tell_users(
            users,
            {"type": "tournament_notice", "tournament": data.info.id, "notice": notice},
        )

    # ---------------------------------------------------------------------------- views

    def _summary(self, info: TournamentInfo, entrants: int, now: datetime) -> dict[str, Any]:
        return {
            "id": info.id,
            "name": info.name,
            "status": info.status,
            "start": info.start,
            "starts_at": None if info.starts_at is None else info.starts_at.isoformat(),
            "closes_at": None
            if info.starts_at is None
            else (info.starts_at - REGISTRATION_CLOSES).isoformat(),
            "size": info.size,
            "entrant_count": entrants,
            "settings": info.settings,
            "created_by": info.created_by,
            "created_at": info.created_at.isoformat(),
            "started_at": None if info.started_at is None else info.started_at.isoformat(),
            "finished_at": None if info.finished_at is None else info.finished_at.isoformat(),
            "note": info.note,
            "registration_open": self._registration_open(info, now),
        }

    def _view(self, progress: Progress) -> dict[str, Any]:
        data = progress.data
        view = self._summary(data.info, _active(data), self.clock())
        names = {e.entrant: e.name for e in data.entrants}
        view["entrants"] = [
            {
                "id": e.entrant,
                "name": e.name,
                "bot": e.bot,
                "user_id": e.user_id,
                "partner_id": e.partner_id,
                "position": e.position,
                "status": e.status,
            }
            for e in data.entrants
        ]
        table = progress.settings.table()
        view["vp_table"] = table.name
        view["vp_rows"] = [list(row) for row in table.rows()]  # shown before the start (T16)
        view["rounds_total"] = progress.total_rounds() if progress.admitted else None
        view["rounds"] = [
            {
                "number": r.number,
                "status": r.status,
                "relaxed": r.relaxed,
                "byes": [{"id": b, "name": names.get(b, b)} for b in r.byes],
                "tables": [
                    {
                        "number": t.number,
                        "table_id": t.table_id,
                        "lines": [
                            [{"id": e, "name": names.get(e, e)} for e in line] for line in t.lines
                        ],
                        "result": t.result,
                    }
                    for t in data.tables
                    if t.round == r.number
                ],
            }
            for r in data.rounds
        ]
        view["standings"] = progress.ranking() if progress.admitted else []
        view["eliminated"] = dict(progress.eliminated())
        return view


def _seats(
    row: RoundTableInfo, entrants: Mapping[str, EntrantInfo], players: int
) -> list[tuple[int | None, str | None]]:
    """Who sits where (user id or bot level): line 0 at seats 0 and 2, line 1 at 1 and 3. A
    line is one entrant (a single player, or a fixed pair whose second player sits opposite)
    or two single players (partners for the round)."""
    if players == 2:
        return [(entrants[e].user_id, entrants[e].bot) for e in (row.lines[0][0], row.lines[1][0])]
    sides: list[list[tuple[int | None, str | None]]] = []
    for line in row.lines:
        if len(line) == 2:
            sides.append([(entrants[e].user_id, entrants[e].bot) for e in line])
        else:
            pair = entrants[line[0]]
            sides.append([(pair.user_id, pair.bot), (pair.partner_id, pair.bot)])
    return [sides[0][0], sides[1][0], sides[0][1], sides[1][1]]


def _active(data: TournamentData) -> int:
    return sum(1 for e in data.entrants if e.status in ("registered", "playing"))


def _score(result: Mapping[str, Any], table: VPTable) -> tuple[list[int], list[int]]:
    """Each line's MP and VP (R65, R66; T14 after a timeout or a forfeit)."""
    if result.get("double_forfeit"):
        return [-355, -355], [6, 6]
    rs = score(_table_result(0, result), table)
    return list(rs.mp), list(rs.vp)


def _closings_of(record: str) -> list[int]:
    """Each line's closings in a finished match, from its record (a knockout tie-break)."""
    from .replay import replay_json

    closings = [0, 0]
    try:
        replayed = replay_json(record)
    except Exception:
        return closings
    players = len(replayed.get("players", [])) or 2
    for hand in replayed["hands"]:
        sheet = hand.get("score") or {}
        seat = sheet.get("closed_by")
        if seat is not None:
            closings[seat % 2 if players == 4 else seat] += 1
    return closings
