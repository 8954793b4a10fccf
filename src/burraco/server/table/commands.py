"""The commands a table's actor takes from its queue: one frozen value per kind of command.

Commands from a connection (``Join``, ``Leave``, ``Disconnect``, ``Act``, ``Chat``) carry it;
their refusals are answered on it. Lobby commands carry the user asking and are answered with
the table's info. The rest the table posts to itself (timers, bot moves, deals) or the hub sends
(``Resume``, ``Start``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from burraco.engine import Action
from burraco.store import UserInfo

from ..connection import Connection

# ----------------------------------------------------------------------- from a connection


@dataclass(frozen=True, slots=True)
class Join:
    """Watch the table (as its seated player when the user holds a seat); ``last_seq``: the
    last event the client saw, to resend what it missed (else a snapshot)."""

    conn: Connection
    last_seq: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The connection closed: unwatch, but keep it in ``conn.tables`` (it is gone anyway)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Act:
    conn: Connection
    action: str
    """In the record notation, read by the table (``bad_action`` when it cannot be)."""
    ref: str | None = None
    lag_ms: int = 0


@dataclass(frozen=True, slots=True)
class Chat:
    conn: Connection
    text: str


@dataclass(frozen=True, slots=True)
class Ready:
    """The connection's seated player closed the score sheet (play.py, ``_ready``)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class SeedCommit:
    """The connection's seated player commits to his seed for the next deal (play.py)."""

    conn: Connection
    commitment: str


@dataclass(frozen=True, slots=True)
class SeedReveal:
    """The connection's seated player reveals his seed for deal ``number`` (play.py)."""

    conn: Connection
    number: int
    seed: str


FromConnection: TypeAlias = Join | Leave | Disconnect | Act | Chat | Ready | SeedCommit | SeedReveal
"""Commands whose refusals go back to their connection as ``error`` messages."""

# --------------------------------------------------------------------------- from the lobby


@dataclass(frozen=True, slots=True)
class Sit:
    user: UserInfo
    seat: int


@dataclass(frozen=True, slots=True)
class Stand:
    user: UserInfo


@dataclass(frozen=True, slots=True)
class Cancel:
    user: UserInfo


@dataclass(frozen=True, slots=True)
class SeatBot:
    """Seat a bot of ``level`` at ``seat``; ``level`` None removes the seat's bot."""

    user: UserInfo
    seat: int
    level: str | None


@dataclass(frozen=True, slots=True)
class Rematch:
    user: UserInfo


@dataclass(frozen=True, slots=True)
class Close:
    """A moderator closes the table (docs/moderation.md): an open one is withdrawn, a match
    in play ends with no winner (``closed``)."""

    moderator: UserInfo


# ------------------------------------------------------------------ from the hub and itself


@dataclass(frozen=True, slots=True)
class Start:
    """Start a table whose seats were all filled in the store (tournament tables)."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Rebuild the table from the store after a restart."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next smazzata if the last one is over."""


@dataclass(frozen=True, slots=True)
class AccountGone:
    """The account ``user_id`` is being deleted (docs/accounts.md): his seats and the tables he
    created are settled before it goes; ``name`` replaces his name where it stays."""

    user_id: int
    name: str


class TimerPurpose(Enum):
    DEAL = "deal"
    REVEAL = "reveal"
    AWAY = "away"
    CLOCK = "clock"
    EVICT = "evict"
    EXPIRE = "expire"
    UNJOINED = "unjoined"
    DESERTED = "deserted"
    """A casual match nobody seated is at: it ends if still so (timers.py)."""
    PRESENCE = "presence"
    CONCLUDE = "conclude"
    """Try again to store a finished match (finish.py)."""
    SILENCE = "silence"
    """A bot account has not played at its turn at an untimed table (timers.py)."""


@dataclass(frozen=True, slots=True)
class Timer:
    """A timer the table set ran out; ``key`` names it (one timer per key), ``seat`` is the
    away player's for ``AWAY``."""

    key: str
    purpose: TimerPurpose
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's choice for ``seat``, thought while the table stood at event ``token``."""

    token: int
    seat: int
    action: Action


LobbyCommand: TypeAlias = Sit | Stand | Cancel | SeatBot | Rematch | Close
"""Commands answered with the table's info (``TableActor.info_json``)."""
TableCommand: TypeAlias = (
    FromConnection | LobbyCommand | Start | Resume | Deal | AccountGone | Timer | BotMove
)
