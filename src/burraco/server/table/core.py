"""What every part of a table shares: its state, and what the parts ask of each other.

``TableActor`` (actor.py) is assembled from one mixin per concern: seats, play, bots, timers,
recovery, finishing and the event history. They all derive from ``TableCore``, which declares
the table's attributes (set in ``TableActor.__init__``) and, for the type checker only, the
methods one part calls on another, so that each module can be read and checked on its own.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Literal, cast

import orjson

from burraco.engine import Action, Rules, Smazzata
from burraco.engine.clock import RoundClock, TimeControl
from burraco.engine.events import Event
from burraco.engine.match import Match
from burraco.engine.record import HandRecord
from burraco.errors import ServiceError
from burraco.store import UserInfo

from .. import messages
from ..connection import Connection
from ..fairness import CommittedDeck
from ..ratelimit import Bucket
from ..tableconfig import TableConfig
from ..wire import ViewJson
from .pending import PendingDeal
from .status import TableStatus

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable

    from ..clock import TimerHandle
    from ..hub import Hub
    from .commands import TableCommand, TimerPurpose
    from .finish import Conclusion
    from .history import Stored
    from .seats import SeatState


class TableError(ServiceError):
    """A lobby request the table refuses (seat taken, not your table, ...)."""


class TableCore:
    hub: Hub
    id: str
    config: TableConfig
    rules: Rules
    control: TimeControl | None
    status: TableStatus
    match_no: int
    created_by: int | None
    seats: list[SeatState]
    queue: asyncio.Queue[tuple[TableCommand, asyncio.Future[Any] | None]]
    seq: int
    """The last event number used (events are numbered without gaps, history.py)."""
    memory: deque[Stored]
    watchers: dict[Connection, int | None]
    """Every connection following the table, with the seat it plays (None: a spectator)."""
    chat: deque[messages.ChatLine]
    chat_limit: Bucket
    """Chat lines the table still takes now (from everybody)."""
    match: Match | None
    state: Smazzata | None
    number: int
    """The smazzata being played (1, 2, ...)."""
    decks: list[CommittedDeck]
    hands: list[HandRecord]
    hand_actions: list[Action]
    scores: list[dict[str, Any]]
    clock: RoundClock | None
    ended: str | None
    evicted: bool
    """Set when the hub let go of this finished table (``_evict_if_idle``): commands that
    still reach this object go to the table's new actor."""
    _deserted_at_last_check: bool
    _timers: dict[str, TimerHandle]
    """The table's pending timers by key (timers.py)."""
    seed_commits: dict[int, tuple[int, str]]
    """Each seated person's commitment to his seed for the next deal (``seed_commit``), with
    his user id (a seat that changed hands drops it)."""
    conclusion: Conclusion | None
    """A finished match whose storing failed and is tried again (finish.py)."""
    pending: PendingDeal | None
    """A deal whose ``shuffle`` went out and which waits for the seeds (play.py)."""
    sheet_readers: set[int]
    """Between two smazzate: the seats whose connected player has not closed the score sheet
    yet; the next deal waits for them (at most ``config.sheet_seconds``, play.py)."""
    _sheet_since: float
    """When the last smazzata ended (``hub.clock.now()``)."""
    abandoned: int | None
    """At a rated table, the seat whose player stayed away past his deadline (rating.py)."""
    _presence_told: dict[int, bool]
    """Per seat, whether the table was last told it is away (``seats.py``, presence news)."""
    _view_json: ViewJson
    _config_json: dict[str, Any] | None
    """``config.to_json()``, made once: the settings never change, and ``asdict`` costs more
    than the rest of a lobby entry (a cluster's heartbeat lists thousands of them)."""
    _config_bytes: bytes | None
    """The same, serialised (``lobby_json``)."""

    def seat_of(self, user: UserInfo) -> int | None:
        for seat, state in enumerate(self.seats):
            if state.user_id == user.id:
                return seat
        return None

    def info_json(self) -> dict[str, Any]:
        """The table as the lobby shows it (``messages.TableInfoJson``), for HTTP answers."""
        return cast(dict[str, Any], self._info())

    def _info(self) -> messages.TableInfoJson:
        return messages.table_info(
            self.id,
            status=self.status,
            config=self.config_json(),
            seats=self._seats_json(),
            match_no=self.match_no,
            created_by=self.created_by,
        )

    def config_json(self) -> dict[str, Any]:
        """``config.to_json()`` (a copy of the one made once)."""
        made = self._config_json
        if made is None:
            made = self._config_json = self.config.to_json()
        return {**made, "options": dict(made["options"])}

    def lobby_json(self) -> bytes:
        """The table's lobby entry (``Hub.local_lobby``'s: ``info_json`` and the free seats) as
        JSON, its settings serialised once: what a cluster's process publishes of each of its
        tables at every heartbeat (``Cluster._share_state``)."""
        config = self._config_bytes
        if config is None:
            config = self._config_bytes = orjson.dumps(self.config_json())
        seats = self.seats
        return orjson.dumps(
            {
                "id": self.id,
                "status": self.status,
                "config": orjson.Fragment(config),
                "seats": [s.json(i) for i, s in enumerate(seats)],
                "match_no": self.match_no,
                "created_by": self.created_by,
                "free_seats": [i for i, s in enumerate(seats) if s.free],
            }
        )

    @property
    def bot_account(self) -> str | None:
        """Whose bot budget this table's search bots use (``botrunner``: one account's bots
        share one worker): the tournament for its tables, else the person who created it."""
        if self.config.tournament is not None:
            return f"tournament:{self.config.tournament}"
        if self.created_by is not None:
            return f"user:{self.created_by}"
        return None

    def _seats_json(self) -> list[messages.SeatJson]:
        return [s.json(i) for i, s in enumerate(self.seats)]

    def _away_grace(self) -> float:
        seconds = self.config.absent_seconds
        return self.hub.config.disconnect_grace if seconds is None else seconds

    if TYPE_CHECKING:
        # actor.py
        def post(self, command: TableCommand) -> None: ...

        # history.py
        def _publish(
            self,
            body: messages.EventBody,
            private: Callable[[int], messages.ActionEvents] | None = None,
            *,
            views: bool = False,
        ) -> None: ...
        def _publish_numbered(
            self,
            seq: int,
            body: messages.EventBody,
            private: Callable[[int], messages.ActionEvents] | None = None,
            *,
            views: bool = False,
        ) -> None: ...
        def _extras(self, seat: int | None, now: float) -> messages.Live: ...
        def _catch_up(self, conn: Connection, seat: int | None, last_seq: int | None) -> None: ...

        # seats.py
        async def _start_if_full(self) -> None: ...
        def _arm_expiry(self) -> None: ...
        async def _expire_if_deserted(self) -> None: ...
        def _mark_away(self, seat: int, now: float) -> float: ...
        def _back_from_silence(self, seat: int) -> None: ...
        def _tell_presence(self, seat: int) -> None: ...
        def _clock_lines(self) -> tuple[int, ...]: ...
        def _empty_seats_gone(self) -> None: ...
        async def _withdraw(self, reason: Literal["creator", "abandoned", "moderator"]) -> None: ...

        # gone.py
        async def _settle_gone(self) -> None: ...

        # play.py
        async def _deal(self) -> None: ...
        async def _deal_next(self) -> None: ...
        async def _complete_deal(self) -> None: ...
        async def _seed_gone(self, seat: int) -> None: ...
        async def _reader_gone(self, seat: int) -> None: ...
        def _install_deal(self, committed: CommittedDeck, number: int, first: int) -> None: ...
        async def _commit(self, action: Action, *, auto: bool) -> int: ...
        def _advance_clock(
            self, state: Smazzata, events: list[Event], now: float
        ) -> dict[str, Any] | None: ...

        # bots.py
        def _maybe_bot(self) -> None: ...

        # timers.py
        def _set_timer(
            self, key: str, delay: float, purpose: TimerPurpose, seat: int | None = None
        ) -> None: ...
        def _cancel_timer(self, key: str) -> None: ...
        def _cancel_timers(self) -> None: ...
        def _after_change(self) -> None: ...
        def _arm_eviction(self) -> None: ...
        def _arm_unjoined(self) -> None: ...
        def _arm_deserted(self) -> None: ...
        def _nobody_waits(self, seat: int) -> bool: ...
        async def _away_expired(self, seat: int) -> None: ...
        async def _forfeit(self, seat: int, *, gone: bool = False) -> None: ...
        def _leave_memory(self) -> None: ...

        # rating.py
        def _note_abandoned(self, seat: int) -> None: ...
        async def _rate(self, result: messages.MatchResult) -> messages.RatingNews | None: ...
        async def _record_profiles(
            self, result: messages.MatchResult, names: list[str]
        ) -> None: ...

        # finish.py
        async def _finish(
            self,
            ended: str,
            *,
            timed_out_line: int | None = None,
            timed_out_seat: int | None = None,
        ) -> None: ...
        async def _conclude(self) -> None: ...
