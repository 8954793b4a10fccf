"""The WebSocket protocol: client messages decoded once at the edge, error codes, encoding.

Every message is one JSON object with a ``type``. ``docs/protocol.md`` documents them all; this
module is the single place that reads client input, so a malformed message can never reach a
table: it becomes a ``ProtocolError`` with a code, answered with an ``error`` message, and the
connection stays usable.
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from burraco.engine.cards import SUIT_SYMBOLS
from burraco.errors import ErrorCode, ServiceError

__all__ = ["ErrorCode", "ProtocolError"]

PROTOCOL_VERSION: Final = 1
MAX_FRAME: Final = 16 * 1024
"""Bytes: larger client frames are refused (``too_large``)."""
MAX_CHAT: Final = 300
"""Characters in one chat message."""
MAX_ACTION: Final = 200
"""Characters in one action (the record notation is short)."""
ACTION_CHARACTERS: Final = frozenset(string.printable.strip() + " " + SUIT_SYMBOLS)
"""What the record notation is written with (``0 discard KC``, ``1 open 7♥ 8♥ 9♥``): printable
ASCII and the suit symbols. Anything else is refused here, before the engine reads it."""
PEEK_BYTES: Final = 4 * 1024
"""Bytes: a frame refused before it is decoded (``rate_limited``) is looked into for its
``table`` and ``ref`` only up to this size (every message that has them is far smaller)."""
MAX_REF: Final = 64
"""Characters in an action's ``ref`` (echoed in its ``ack`` or ``error``)."""
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")
HEX64: Final = re.compile(r"[0-9a-f]{64}")
"""A seed or its commitment: 32 bytes in lowercase hex."""


class ProtocolError(ServiceError):
    """A client message refused at the edge or by a table (answered with an ``error``
    message: ``server/errors.py``)."""


# ------------------------------------------------------------------------------ client messages


@dataclass(frozen=True, slots=True)
class Join:
    """Follow a table: as its seated player when the user holds a seat, else as a spectator.
    ``last_seq``: the last event number the client saw (to receive only what it missed)."""

    table: str
    last_seq: int | None


@dataclass(frozen=True, slots=True)
class Leave:
    table: str


@dataclass(frozen=True, slots=True)
class Act:
    table: str
    action: str
    ref: str | None
    lag_ms: int = 0
    """The client's estimate of its one-way network lag (half its ping round trip)."""


@dataclass(frozen=True, slots=True)
class Chat:
    table: str
    text: str


@dataclass(frozen=True, slots=True)
class Ready:
    """The seated player has read the score sheet: the next smazzata may be dealt."""

    table: str


@dataclass(frozen=True, slots=True)
class SeedCommit:
    """The seated player's commitment to his seed for the next deal: sha256 of its hex."""

    table: str
    commitment: str


@dataclass(frozen=True, slots=True)
class SeedReveal:
    """The seed behind the commitment, for deal ``number``, after its ``shuffle`` event."""

    table: str
    number: int
    seed: str


@dataclass(frozen=True, slots=True)
class Ping:
    t: float | None


@dataclass(frozen=True, slots=True)
class WatchTournament:
    """Receive the tournament now and every time it changes (``tournament`` messages)."""

    tournament: str


@dataclass(frozen=True, slots=True)
class UnwatchTournament:
    tournament: str


ClientMessage = (
    Join
    | Leave
    | Act
    | Chat
    | Ready
    | SeedCommit
    | SeedReveal
    | Ping
    | WatchTournament
    | UnwatchTournament
)


_KINDS: dict[type, str] = {
    int: "an integer",
    float: "a number",
    str: "a string",
    bool: "true or false",
    dict: "an object",
    list: "a list",
}
"""A JSON type as a refusal names it."""


def _field(data: dict[str, Any], name: str, kind: type, *, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None:
        if optional:
            return None
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"'{name}' is missing", ref=_ref(data))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"'{name}' is out of range", ref=_ref(data)
            ) from None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"'{name}' must be {_KINDS[kind]}", ref=_ref(data)
        )
    return value


def _ref(data: dict[str, Any]) -> str | None:
    """The message's ``ref`` when it is a usable one (it is echoed in the answer)."""
    ref = data.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= MAX_REF and ref.isprintable() else None


def decode(frame: str | bytes) -> ClientMessage:
    """Read one client frame. Raises ProtocolError (with a code) on anything malformed."""
    if _size(frame) > MAX_FRAME:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"frames are limited to {MAX_FRAME} bytes")
    try:
        data = json.loads(frame, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise ProtocolError(ErrorCode.BAD_JSON, "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be a JSON object")
    kind = data.get("type")
    if kind == "join":
        last = _field(data, "last_seq", int, optional=True)
        if last is not None and last < 0:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "'last_seq' must not be negative")
        return Join(_table(data), last)
    if kind == "leave":
        return Leave(_table(data))
    if kind == "act":
        action = _field(data, "action", str)
        if len(action) > MAX_ACTION:
            raise ProtocolError(ErrorCode.BAD_ACTION, "the action is too long", ref=_ref(data))
        if not action.strip() or not action.isprintable() or not set(action) <= ACTION_CHARACTERS:
            raise ProtocolError(
                ErrorCode.BAD_ACTION,
                'an action is written in the record notation, e.g. "0 discard KC"',
                ref=_ref(data),
            )
        ref = _ref(data)
        if ref is None and data.get("ref") is not None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"'ref' must be a printable string of at most {MAX_REF} characters",
            )
        lag = _field(data, "lag_ms", int, optional=True)
        if lag is not None and not 0 <= lag <= 10_000:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "'lag_ms' must be 0 to 10000", ref=ref)
        return Act(_table(data), action, ref, lag or 0)
    if kind == "chat":
        text = _field(data, "text", str)
        cleaned = "".join(ch for ch in text if ch.isprintable()).strip()
        if not cleaned or len(cleaned) > MAX_CHAT:
            raise ProtocolError(
                ErrorCode.CHAT_INVALID,
                f"a chat message has 1 to {MAX_CHAT} printable characters",
                ref=_ref(data),
            )
        return Chat(_table(data), cleaned)
    if kind == "ready":
        return Ready(_table(data))
    if kind == "seed_commit":
        return SeedCommit(_table(data), _hex64(data, "commitment"))
    if kind == "seed_reveal":
        number = _field(data, "number", int)
        if not 1 <= number <= 1000:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "'number' must be a smazzata's number")
        return SeedReveal(_table(data), number, _hex64(data, "seed"))
    if kind == "ping":
        return Ping(_field(data, "t", float, optional=True))
    if kind in ("watch_tournament", "unwatch_tournament"):
        tournament: str = _field(data, "tournament", str)
        if not TABLE_ID.fullmatch(tournament):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "'tournament' is not a tournament id")
        if kind == "watch_tournament":
            return WatchTournament(tournament)
        return UnwatchTournament(tournament)
    if kind is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "'type' is missing", ref=_ref(data))
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {str(kind)[:40]!r}")


@dataclass(frozen=True, slots=True)
class Named:
    """What a refusal can name of a frame it refuses without decoding it (``peek``)."""

    table: str | None = None
    ref: str | None = None


def peek(frame: str | bytes) -> Named:
    """The ``table`` and ``ref`` of a frame that is refused before it is decoded (over the
    message limit), so that the refusal says which message it refuses: a client resends the
    move it names. Cheap and bounded, since it runs for every refused frame of a flood: a frame
    over ``PEEK_BYTES`` is not looked into, and a small one is read by orjson (in C, its depth
    bounded), not ``decode``'s checks. Anything that is not an object with a usable ``table``
    or ``ref`` names nothing."""
    if len(frame) > PEEK_BYTES:  # (a character is one byte or more: no need to encode it)
        return Named()
    try:
        data = orjson.loads(frame)
    except orjson.JSONDecodeError:  # (its ValueError: bad UTF-8 and too deep included)
        return Named()
    if not isinstance(data, dict):
        return Named()
    table = data.get("table")
    usable = isinstance(table, str) and TABLE_ID.fullmatch(table) is not None
    return Named(table if usable else None, _ref(data))


def _hex64(data: dict[str, Any], name: str) -> str:
    value: str = _field(data, name, str)
    if not HEX64.fullmatch(value):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"'{name}' must be 64 lowercase hex digits")
    return value


def _table(data: dict[str, Any]) -> str:
    table: str = _field(data, "table", str)
    if not TABLE_ID.fullmatch(table):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "'table' is not a table id", ref=_ref(data))
    return table


def _size(frame: str | bytes) -> int:
    """The frame's length in bytes (a text frame arrives as UTF-8)."""
    if isinstance(frame, bytes) or len(frame) > MAX_FRAME:  # a character takes 1 byte or more
        return len(frame)
    return len(frame.encode("utf-8", "surrogatepass"))


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def encode(message: Mapping[str, Any]) -> str:
    """One server message as compact JSON text (UTF-8, no spaces), the same text as
    ``json.dumps(message, separators=(",", ":"), ensure_ascii=False)`` writes, about ten
    times faster (orjson): the server encodes several views per action (bench/README.md)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # a key that is not a string (json.dumps writes it as one)
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
