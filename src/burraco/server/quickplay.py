"""Quick play (issue 16): the server side of ``burraco.matchmaking``. A queue per kind of table
(players, ruleset, time control, rated or casual); joining looks for a table at once, a ticker
every second lets the accepted gaps widen and bots fill for those who allowed them; a group
found becomes a started table, and its players are told on their WebSockets (``quickplay``)
and by ``GET /api/quickplay``. Queues live in this process (several processes: issue 17)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from burraco.errors import ErrorCode, ServiceError
from burraco.matchmaking import PRESETS, Group, Queue, QueueError, Seeker
from burraco.ratings import Mode
from burraco.store import UserInfo

from . import messages
from .tableconfig import TableConfig

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("burraco.quickplay")

CLOCKS: Final[dict[str, tuple[float, float] | None]] = {
    "none": None,
    "10": (600.0, 60.0),
    "25": (1500.0, 60.0),
}
"""The time controls quick play offers (the lobby's): round seconds (T5), turn seconds (T11)."""

SMAZZATE: Final = 3
"""A quick-play match: three smazzate (long enough to be rated, docs/ratings.md)."""

FILL_BOT: Final = "heuristic"
"""The level of the bots that fill a table (Bot Esperto, the rating pool's anchor)."""


@dataclass(frozen=True, slots=True)
class QueueKey:
    players: int
    rules: str
    clock: str
    rated: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rules": self.rules,
            "clock": self.clock,
            "rated": self.rated,
        }


class QuickPlay:
    def __init__(self, hub: Hub, *, now: Callable[[], float] | None = None) -> None:
        self.hub = hub
        self.now = now or hub.clock.monotonic
        """The queues' time (seconds; the hub's clock unless told)."""
        self.settings = PRESETS["standard"]
        self.queues: dict[QueueKey, Queue] = {}
        self.where: dict[int, QueueKey] = {}
        """The queue each waiting user is in."""
        self.seated: dict[int, str] = {}
        """The last quick-play table found for each user (until he queues again)."""
        self.pending: dict[int, tuple[int, QueueKey, float | None]] = {}
        """A player waiting for his named partner to queue with him: partner, queue, bots."""
        self.lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------------- requests

    async def join(
        self,
        user: UserInfo,
        *,
        players: int,
        rules: str,
        clock: str,
        rated: bool,
        bots_after: float | None,
        partner: str | None,
    ) -> dict[str, Any]:
        if clock not in CLOCKS:
            raise ServiceError(
                ErrorCode.BAD_INPUT,
                f"unknown time control {clock!r}",
                detail="unknown_clock",
                params={"clock": clock},
            )
        if rated and user.is_guest:
            raise ServiceError(
                ErrorCode.GUEST_NOT_RATED,
                "guests play casual quick play only: they are never rated",
            )
        if user.is_bot:
            self.hub.check_bot_seats(user)  # its tables at once (docs/accounts.md)
        self.hub.check_live_tables(user.id)  # a quick-play table is one more live table
        key = QueueKey(players, rules, clock, rated)
        self._config(key).validate()  # a ruleset that does not exist is refused here
        async with self.lock:
            if user.id in self.where or user.id in self.pending:
                raise ServiceError(
                    ErrorCode.CONFLICT,
                    "you are already waiting for a table",
                    detail="already_waiting",
                )
            self.seated.pop(user.id, None)
            members: tuple[int, ...] = (user.id,)
            if partner is not None:
                mate = await self._partner(user, partner, players)
                waiting = self.pending.get(mate.id)
                if waiting is None or waiting[0] != user.id or waiting[1] != key:
                    # The partner has not asked yet (or for another table): wait for him.
                    self.pending[user.id] = (mate.id, key, bots_after)
                    return self.status_of(user.id)
                del self.pending[mate.id]
                members = (mate.id, user.id)
            rating = await self._rating(members, key)
            seeker = Seeker(members[0], members, rating, self.now(), bots_after)
            queue = self.queues.setdefault(key, Queue(players, self.settings))
            try:
                group = queue.add(seeker, self.now())
            except QueueError as error:
                raise ServiceError(ErrorCode.CONFLICT, str(error)) from None
            for member in members:
                self.where[member] = key
            if group is not None:
                await self._open(key, group, asked_by=members)
            return self.status_of(user.id)

    async def leave(self, user: UserInfo) -> dict[str, Any]:
        async with self.lock:
            self._dequeue(user.id)
            return self.status_of(user.id)

    async def forget(self, user_id: int) -> None:
        """``user_id``'s account is being deleted: he leaves his queue (the partner of a pair
        leaves it with him) and no partner waits for him any more."""
        async with self.lock:
            self._dequeue(user_id)
            self.seated.pop(user_id, None)
            for mate, (partner, _, _) in list(self.pending.items()):
                if partner == user_id:
                    del self.pending[mate]

    def _dequeue(self, user_id: int) -> None:
        """``user_id`` waits no longer: not for a partner, not in his queue (with his pair's
        partner). Lock held."""
        self.pending.pop(user_id, None)
        key = self.where.get(user_id)
        if key is not None:
            seeker = self.queues[key].remove(user_id)
            for member in seeker.members if seeker else (user_id,):
                self.where.pop(member, None)

    def status_of(self, user_id: int) -> dict[str, Any]:
        if user_id in self.seated:
            return {"status": "seated", "table": self.seated[user_id]}
        if user_id in self.pending:
            return {"status": "partner", "queue": self.pending[user_id][1].to_json()}
        key = self.where.get(user_id)
        if key is None:
            return {"status": "idle"}
        queue = self.queues[key]
        return {"status": "waiting", "queue": key.to_json(), "waiting": len(queue)}

    def counts(self) -> list[dict[str, Any]]:
        """How many wait in each queue (the lobby shows it)."""
        return [key.to_json() | {"waiting": len(q)} for key, q in self.queues.items() if len(q)]

    # --------------------------------------------------------------------------- inside

    async def _partner(self, user: UserInfo, name: str, players: int) -> UserInfo:
        if players != 4:
            raise ServiceError(
                ErrorCode.BAD_INPUT,
                "only 4-player tables are played in pairs",
                detail="pairs_four_only",
            )
        mate = await self.hub.store.user_by_name(name)
        if mate is None:
            raise ServiceError(
                ErrorCode.NO_SUCH_PARTNER,
                f"there is no player {name!r}",
                detail="unknown_partner",
                params={"name": name},
            )
        if mate.id == user.id:
            raise ServiceError(
                ErrorCode.NO_SUCH_PARTNER, "one cannot be one's own partner", detail="own_partner"
            )
        if await self.hub.moderation.blocks(mate.id, user.id):
            raise ServiceError(
                ErrorCode.FORBIDDEN,
                f"{mate.name} does not take invitations from you",
                detail="blocked",
                params={"name": mate.name},
            )
        if mate.id in self.where:
            raise ServiceError(
                ErrorCode.CONFLICT,
                f"{mate.name} is already waiting for a table",
                detail="partner_waiting",
                params={"name": mate.name},
            )
        return mate

    async def _rating(self, members: tuple[int, ...], key: QueueKey) -> float:
        mode = Mode.for_players(key.players)
        total = 0.0
        for member in members:
            rows = await self.hub.ratings.ratings_of(member)
            row = next((r for r in rows if r.mode is mode), None)
            total += row.rating.mu if row else self.hub.ratings.settings.mu
        return total / len(members)

    def _config(self, key: QueueKey) -> TableConfig:
        clock = CLOCKS[key.clock]
        return TableConfig(
            rules=key.rules,
            players=key.players,
            smazzate=SMAZZATE,
            round_seconds=None if clock is None else clock[0],
            hand_seconds=None if clock is None else clock[1],
            public=True,
            rated=key.rated,
            absent="forfeit" if key.rated and key.players != 3 else "bot",
        )

    async def _open(self, key: QueueKey, group: Group, *, asked_by: tuple[int, ...] = ()) -> None:
        """A started table for ``group``; its players are told where to go. If the table cannot
        be opened, nobody of the group is lost: they wait again in the queue, in their places,
        except ``asked_by``, whose request (it completed the group) fails with the error."""
        seats = group.seats(key.players)
        users = [user for user in seats if user is not None]
        try:
            table_id = await self.hub.open_seated_table(
                self._config(key),
                [(user, None if user is not None else FILL_BOT) for user in seats],
                created_by=users[0],
            )
        except BaseException:
            queue = self.queues[key]
            for seeker in group.seekers:
                if set(seeker.members) & set(asked_by):
                    for member in seeker.members:
                        self.where.pop(member, None)
                else:
                    queue.put_back(seeker)
            raise
        for user in users:
            self.where.pop(user, None)
        found = messages.quickplay_found(table_id)
        for user in users:
            self.seated[user] = table_id
            self.hub.tell(user, found)
        log.info("quick play: table %s for %s (%d bots)", table_id, users, group.bots)

    async def tick(self) -> None:
        async with self.lock:
            now = self.now()
            for key, queue in list(self.queues.items()):
                for group in queue.tick(now):
                    try:
                        await self._open(key, group)
                    except Exception:  # they wait again (see _open); the next tick tries again
                        members = [m for seeker in group.seekers for m in seeker.members]
                        log.exception("quick play: no table could be opened for %s", members)

    async def _run(self) -> None:
        while True:
            await self.hub.clock.sleep(1.0)
            try:
                await self.tick()
            except Exception:  # a failure to open one table must not stop quick play for all
                log.exception("quick play tick failed")

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="quick play")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
