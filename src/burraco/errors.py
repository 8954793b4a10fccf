"""The service layer's one vocabulary of refusals: a named code and a message in words.

Every refusal of the store, the club manager and the server is a :class:`ServiceError` (or one
of its per-area subclasses) carrying an :class:`ErrorCode`. What a code becomes on the wire (an
HTTP status, a WebSocket ``error`` message, a close code) is decided in one place only,
``burraco.server.errors``; nothing else maps codes to numbers.

The engine's own errors (``burraco.engine.errors``: illegal actions, bad rules, bad records)
stay the engine's: the server turns them into codes at its edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every code a client can receive (docs/protocol.md lists them with their meaning)."""

    # A message or request that cannot be read.
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    BAD_REQUEST = "bad_request"
    UNKNOWN_TYPE = "unknown_type"
    TOO_LARGE = "too_large"
    TOO_SLOW = "too_slow"
    HEADERS_TOO_LARGE = "headers_too_large"
    RATE_LIMITED = "rate_limited"
    # Accounts.
    NOT_AUTHENTICATED = "not_authenticated"
    BAD_LOGIN = "bad_login"
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    NAME_TAKEN = "name_taken"
    BUSY = "busy"
    FORBIDDEN = "forbidden"
    # Tables and play.
    NO_SUCH_TABLE = "no_such_table"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    ALREADY_SEATED = "already_seated"
    NOT_OPEN = "not_open"
    NOT_FINISHED = "not_finished"
    NO_BOT = "no_bot"
    NO_SUCH_BOT = "no_such_bot"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_BOTS = "too_many_bots"
    TOO_MANY_SOCKETS = "too_many_sockets"
    NOT_JOINED = "not_joined"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_PLAYING = "not_playing"
    BAD_ACTION = "bad_action"
    ILLEGAL_ACTION = "illegal_action"
    STALE = "stale"
    CHAT_INVALID = "chat_invalid"
    BAD_RULES = "bad_rules"
    NO_RECORD = "no_record"
    BAD_RECORD = "bad_record"
    # Tournaments.
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    BAD_TOURNAMENT = "bad_tournament"
    PARTNER_NEEDED = "partner_needed"
    NO_SUCH_PARTNER = "no_such_partner"
    NO_PAIRS = "no_pairs"
    NO_INVITATION = "no_invitation"
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    NOT_REGISTERING = "not_registering"
    REGISTRATION_CLOSED = "registration_closed"
    FULL = "full"
    UNAVAILABLE = "unavailable"
    SAME_CARDS_HIDDEN = "same_cards_hidden"
    # The club manager.
    NOT_FOUND = "not_found"
    BAD_INPUT = "bad_input"
    CONFLICT = "conflict"
    LATE = "late"
    MAIL_FAILED = "mail_failed"

    NO_SUCH_PLAYER = "no_such_player"
    GUEST_NOT_RATED = "guest_not_rated"
    BAD_TOKEN = "bad_token"
    MAIL_UNAVAILABLE = "mail_unavailable"
    BAD_EMAIL = "bad_email"
    MUTED = "muted"
    SUSPENDED = "suspended"
    # Reviews by the bot (server/reviews.py).
    NOT_A_PLAYER = "not_a_player"
    NO_REVIEW = "no_review"
    TOO_MANY_REVIEWS = "too_many_reviews"
    REVIEW_QUEUE_FULL = "review_queue_full"
    # The server itself.
    TABLE_MOVED = "table_moved"
    RECONNECT = "reconnect"
    NO_SUCH_ROUTE = "no_such_route"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    SERVER_ERROR = "server_error"


class ServiceError(Exception):
    """A refusal: nothing was changed. ``code`` says what kind, ``message`` says it in words.

    ``ref`` echoes a client message's reference and ``rule`` names the rule (RULES.md id) an
    illegal action broke; both only travel on the WebSocket.

    ``detail`` names the precise cause (``date_outside_season``; for an illegal action the
    engine's code, ``close_needs_burraco``) and ``params`` fills it (``{date, start, end}``): a
    page renders them in its own language from its catalogs, while ``message`` stays the English
    sentence for programs and logs (docs/protocol.md)."""

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        *,
        ref: str | None = None,
        rule: str | None = None,
        detail: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.ref = ref
        self.rule = rule
        self.detail = detail
        self.params: dict[str, Any] = dict(params or {})

    def detail_body(self) -> dict[str, Any] | None:
        """The wire form of the precise cause: ``{code, params}``, or None without one."""
        if self.detail is None:
            return None
        return {"code": self.detail, "params": self.params}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.code)!r}, {self.message!r})"
