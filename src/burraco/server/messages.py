"""Every message the server sends on the WebSocket (docs/protocol.md, "From the server").

Each message is a ``TypedDict`` tagged by a ``Literal`` (``type``, and ``kind`` for a table's
events) and built by the function of the same name, which writes its keys in the documented
order: the JSON text is what ``protocol.encode`` makes of the dict. TypedDicts are plain dicts
at run time, so typing the messages costs the server nothing per event. The table, the hub,
``wire``, the WebSocket endpoint and the tournaments build their messages here and nowhere
else; the values inside them (views, events, score sheets) come from ``wire``.

Sections: the connection, a table's messages, the values inside them, a table's events, and
at the end the tournaments' pushes (to watchers and to players). It stays one module of about
700 lines on purpose (DESIGN.md: every message on the wire is a typed value from one module):
it is declarations only, and docs/protocol.md is checked against it as a whole.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, cast

from burraco.errors import ServiceError
from burraco.store import UserInfo

from .errors import ws_message
from .protocol import PROTOCOL_VERSION

# ------------------------------------------------------------------------- the connection


class UserJson(TypedDict):
    id: int
    name: str
    guest: bool
    bot: bool


class Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: int
    user: UserJson
    server_time: float


def welcome(user: UserInfo, server_time: float) -> Welcome:
    """The first message after connecting."""
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "user": {"id": user.id, "name": user.name, "guest": user.is_guest, "bot": user.is_bot},
        "server_time": server_time,
    }


class Pong(TypedDict):
    type: Literal["pong"]
    t: float | None
    server_time: float


def pong(t: float | None, server_time: float) -> Pong:
    return {"type": "pong", "t": t, "server_time": server_time}


class RefusalDetail(TypedDict):
    """A refusal's precise cause as data, for a client to word in its language: an illegal
    action's is the engine's stable code, the RULES.md id and the parameters (cards in
    notation, ranks, numbers); another refusal's has no rule (``muted_until {until}``)."""

    code: str
    rule: NotRequired[str]
    params: dict[str, str | int | bool]


class Error(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: NotRequired[str]
    rule: NotRequired[str]
    detail: NotRequired[RefusalDetail]
    table: NotRequired[str]


def error(refusal: ServiceError, *, table: str | None = None) -> dict[str, Any]:
    """A refused message (shape ``Error``); built by server/errors.py, the one mapping from a
    code to its HTTP status, WebSocket message and close code."""
    return ws_message(refusal, table=table)


# ------------------------------------------------------------------ values inside messages


class SeatJson(TypedDict):
    seat: int
    name: str | None
    bot: str | None
    connected: bool
    away: bool
    substitute: str | None
    bot_account: bool


def seat(
    seat: int, *, name: str | None, bot: str | None, connected: bool, away: bool,
    substitute: str | None, bot_account: bool = False,
) -> SeatJson:  # fmt: skip
    return {
        "seat": seat,
        "name": name,
        "bot": bot,
        "connected": connected,
        "away": away,
        "substitute": substitute,
        "bot_account": bot_account,
    }


class TableInfoJson(TypedDict):
    """A table as the lobby shows it (also ``GET /api/tables/{id}``)."""

    id: str
    status: str
    config: dict[str, Any]
    seats: list[SeatJson]
    match_no: int
    created_by: int | None


def table_info(
    table_id: str,
    *,
    status: str,
    config: dict[str, Any],
    seats: list[SeatJson],
    match_no: int,
    created_by: int | None,
) -> TableInfoJson:
    return {
        "id": table_id,
        "status": status,
        "config": config,
        "seats": seats,
        "match_no": match_no,
        "created_by": created_by,
    }


class ClockJson(TypedDict):
    banks: list[float]
    running: int | None
    turn_left: float | None
    server_time: float


def clock(
    banks: list[float], running: int | None, turn_left: float | None, server_time: float
) -> ClockJson:
    return {"banks": banks, "running": running, "turn_left": turn_left, "server_time": server_time}


class MatchJson(TypedDict):
    match_no: int
    number: int
    totals: list[int]
    scores: list[dict[str, Any]]
    target: int | None
    smazzate: int | None
    ended: str | None
    winner: int | None


def match(
    match_no: int,
    *,
    number: int,
    totals: list[int],
    scores: list[dict[str, Any]],
    target: int | None,
    smazzate: int | None,
    ended: str | None,
    winner: int | None,
) -> MatchJson:
    return {
        "match_no": match_no,
        "number": number,
        "totals": totals,
        "scores": scores,
        "target": target,
        "smazzate": smazzate,
        "ended": ended,
        "winner": winner,
    }


class ChatLine(TypedDict):
    """A chat line; ``seat`` is absent from lines read back from the store after a restart."""

    name: str
    text: str
    at: float
    seat: NotRequired[int | None]
    seq: NotRequired[int]
    """The table event that carried it: how a report names the message (docs/moderation.md)."""


def chat_line(name: str, text: str, at: float, *, seat: int | None, seq: int) -> ChatLine:
    return {"name": name, "text": text, "at": at, "seat": seat, "seq": seq}


def stored_chat_line(name: str, text: str, at: float, seq: int) -> ChatLine:
    """A chat line read back from the store after a restart (without its seat)."""
    return {"name": name, "text": text, "at": at, "seq": seq}


class Live(TypedDict):
    """What a live event (and ``synced``) adds for one watcher."""

    view: dict[str, Any] | None
    legal: list[str] | None
    clock: ClockJson | None


def live(view: dict[str, Any] | None, legal: list[str] | None, clock: ClockJson | None) -> Live:
    return {"view": view, "legal": legal, "clock": clock}


# --------------------------------------------------------------------- a table's messages


class Snapshot(TypedDict):
    type: Literal["snapshot"]
    table: str
    seq: int
    you: int | None
    info: TableInfoJson
    match: MatchJson | None
    view: dict[str, Any] | None
    legal: list[str] | None
    clock: ClockJson | None
    commitment: str | None
    chat: list[ChatLine]
    server_time: float


def snapshot(
    table: str,
    seq: int,
    *,
    you: int | None,
    info: TableInfoJson,
    match: MatchJson | None,
    extras: Live,
    commitment: str | None,
    chat: list[ChatLine],
    server_time: float,
) -> Snapshot:
    """The whole table as one connection may see it."""
    return {
        "type": "snapshot",
        "table": table,
        "seq": seq,
        "you": you,
        "info": info,
        "match": match,
        "view": extras["view"],
        "legal": extras["legal"],
        "clock": extras["clock"],
        "commitment": commitment,
        "chat": chat,
        "server_time": server_time,
    }


class Synced(Live):
    type: Literal["synced"]
    table: str
    seq: int


def synced(table: str, seq: int, extras: Live) -> Synced:
    """The end of a resend of missed events, with the current view."""
    return {"type": "synced", "table": table, "seq": seq, **extras}


class Ack(TypedDict):
    type: Literal["ack"]
    table: str
    ref: str | None
    seq: int


def ack(table: str, ref: str | None, seq: int) -> Ack:
    """The action ``ref`` was accepted and is event ``seq``."""
    return {"type": "ack", "table": table, "ref": ref, "seq": seq}


def event(table: str, seq: int, body: EventBody) -> dict[str, Any]:
    """A table's numbered event: ``{type: "event", table, seq, kind, ...}`` (the ``kind`` and
    the fields come from ``body``, one of the event bodies below)."""
    return {"type": "event", "table": table, "seq": seq} | body


# ----------------------------------------------------------------------- a table's events


class Seats(TypedDict):
    kind: Literal["seats"]
    seats: list[SeatJson]


def seats(seats: list[SeatJson]) -> Seats:
    return {"kind": "seats", "seats": seats}


class Started(TypedDict):
    kind: Literal["started"]
    match_no: int
    seats: list[SeatJson]


def started(match_no: int, seats: list[SeatJson]) -> Started:
    return {"kind": "started", "match_no": match_no, "seats": seats}


class Dealt(TypedDict):
    """Live, it also carries the watcher's ``Live`` fields."""

    kind: Literal["dealt"]
    number: int
    first: int
    commitment: str


def dealt(number: int, first: int, commitment: str) -> Dealt:
    return {"kind": "dealt", "number": number, "first": first, "commitment": commitment}


class Shuffle(TypedDict):
    """Before a deal: the server's commitment to its secret and every seat's to its seed,
    fixed before any seed is revealed (docs/protocol.md, "Fair deals")."""

    kind: Literal["shuffle"]
    number: int
    secret_commitment: str
    seed_commitments: list[str | None]
    reveal_by: float
    """Server time until which the deal waits for the seeds (it may come sooner)."""


def shuffle(
    number: int, secret_commitment: str, seed_commitments: list[str | None], reveal_by: float
) -> Shuffle:
    return {
        "kind": "shuffle",
        "number": number,
        "secret_commitment": secret_commitment,
        "seed_commitments": seed_commitments,
        "reveal_by": reveal_by,
    }


class ActionPlayed(TypedDict):
    """Each seat (and the spectators) also gets ``ActionEvents``, live its ``Live`` fields."""

    kind: Literal["action"]
    seat: int
    action: str
    auto: bool


def action(seat: int, action: str, *, auto: bool) -> ActionPlayed:
    return {"kind": "action", "seat": seat, "action": action, "auto": auto}


class ActionEvents(TypedDict):
    events: list[dict[str, Any]]
    """Engine events as one seat may see them (``wire.events_for``)."""


def action_events(events: list[dict[str, Any]]) -> ActionEvents:
    return {"events": events}


class Reveal(TypedDict):
    deck: str | None
    """None at a same-cards table: the tournament reveals the round's decks after it."""
    salt: str | None
    """With the players' seeds, the server's secret S (None at a same-cards table)."""
    commitment: str
    secret_commitment: NotRequired[str]
    seed_commitments: NotRequired[list[str | None]]
    seeds: NotRequired[list[str | None]]
    """The seeds that went into the deck, by seat; null for a missing one."""
    derived: NotRequired[bool]
    """Whether S and the seeds decided the deck (false on a test server)."""


class SmazzataEnd(TypedDict):
    kind: Literal["smazzata_end"]
    score: dict[str, Any]
    totals: list[int]
    reveal: Reveal
    hands: list[list[str]]
    """The cards each seat was left holding (counted against its line, R60); the revealed
    deck tells as much, so nothing is given away."""
    next_deal_at: NotRequired[float]
    """Server time of the next deal at the latest (not when the match is over)."""


def smazzata_end(
    score: dict[str, Any],
    totals: list[int],
    *,
    deck: str | None,
    salt: str | None,
    commitment: str,
    hands: list[list[str]],
    next_deal_at: float | None = None,
    seeding: dict[str, Any] | None = None,
) -> SmazzataEnd:
    reveal: Reveal = {"deck": deck, "salt": salt, "commitment": commitment}
    if seeding is not None:
        reveal["secret_commitment"] = seeding["secret_commitment"]
        reveal["seed_commitments"] = seeding["seed_commitments"]
        reveal["seeds"] = seeding["seeds"]
        reveal["derived"] = seeding["derived"]
    body: SmazzataEnd = {
        "kind": "smazzata_end",
        "score": score,
        "totals": totals,
        "reveal": reveal,
        "hands": hands,
    }
    if next_deal_at is not None:
        body["next_deal_at"] = next_deal_at
    return body


class MatchResult(TypedDict):
    """A finished match's result; also what ``Hub.finish_listeners`` are told."""

    totals: list[int]
    winner: int | None
    ended: str
    mp: NotRequired[list[int]]
    vp: NotRequired[list[int]]
    technical: NotRequired[bool]


def match_result(
    totals: list[int],
    winner: int | None,
    ended: str,
    *,
    mp: list[int] | None = None,
    vp: list[int] | None = None,
    technical: bool = False,
) -> MatchResult:
    """``mp`` and ``vp`` when they apply; ``technical`` for T14's technical score."""
    result: MatchResult = {"totals": totals, "winner": winner, "ended": ended}
    if mp is not None and vp is not None:
        result["mp"], result["vp"] = mp, vp
    if technical:
        result["technical"] = True
    return result


class RatingChangeJson(TypedDict):
    seat: int
    before: int
    after: int
    delta: int
    sigma: int
    result: str
    """``win``, ``loss``, ``draw``, ``abandoned`` or ``held`` (the partner of a leaver)."""


class RatingNews(TypedDict):
    """What a rated match did to the ratings: ``changes`` per seat (bots' stay fixed),
    ``unrated`` naming why it could not be rated, or ``pending`` why it is rated later
    (``same_cards_round``: once every table of its same-cards round has ended)."""

    changes: NotRequired[list[RatingChangeJson]]
    unrated: NotRequired[str]
    pending: NotRequired[str]


def rating_change(
    seat: int, before: float, after: float, sigma: float, result: str
) -> RatingChangeJson:
    return {
        "seat": seat,
        "before": round(before),
        "after": round(after),
        "delta": round(after) - round(before),
        "sigma": round(sigma),
        "result": result,
    }


def rating_news(
    changes: list[RatingChangeJson] | None,
    *,
    unrated: str | None = None,
    pending: str | None = None,
) -> RatingNews:
    news: RatingNews = {}
    if changes is not None:
        news["changes"] = changes
    if unrated is not None:
        news["unrated"] = unrated
    if pending is not None:
        news["pending"] = pending
    return news


class MatchEnd(MatchResult):
    kind: Literal["match_end"]
    rating: NotRequired[RatingNews]
    """At a rated table (issue 16)."""


def match_end(result: MatchResult, rating: RatingNews | None = None) -> MatchEnd:
    body = cast(MatchEnd, {"kind": "match_end", **result})
    if rating is not None:
        body["rating"] = rating
    return body


class Timeout(TypedDict):
    kind: Literal["timeout"]
    seat: int
    line: int


def timeout(seat: int, line: int) -> Timeout:
    return {"kind": "timeout", "seat": seat, "line": line}


class Forfeit(TypedDict):
    kind: Literal["forfeit"]
    seat: int
    line: int | None


def forfeit(seat: int, line: int | None) -> Forfeit:
    return {"kind": "forfeit", "seat": seat, "line": line}


AwayThen = Literal["bot", "forfeit", "wait"]
"""What happens at an away player's deadline: a bot plays his seat, his line forfeits (T14),
or nothing (a casual table where nobody else is there: it waits for him)."""


class Away(TypedDict):
    kind: Literal["away"]
    seat: int
    deadline: float
    then: AwayThen
    seats: list[SeatJson]


def away(seat: int, deadline: float, then: AwayThen, seats: list[SeatJson]) -> Away:
    return {"kind": "away", "seat": seat, "deadline": deadline, "then": then, "seats": seats}


class Substitute(TypedDict):
    kind: Literal["substitute"]
    seat: int
    seats: list[SeatJson]


def substitute(seat: int, seats: list[SeatJson]) -> Substitute:
    return {"kind": "substitute", "seat": seat, "seats": seats}


class Back(TypedDict):
    kind: Literal["back"]
    seat: int
    seats: list[SeatJson]


def back(seat: int, seats: list[SeatJson]) -> Back:
    return {"kind": "back", "seat": seat, "seats": seats}


class ChatEvent(ChatLine):
    kind: Literal["chat"]


def chat(line: ChatLine) -> ChatEvent:
    """The line as an event: its ``seq`` is the event's own, so it is not repeated."""
    body: ChatEvent = {"kind": "chat", **line}
    body.pop("seq", None)
    return body


class Rematch(TypedDict):
    kind: Literal["rematch"]
    match_no: int


def rematch(match_no: int) -> Rematch:
    return {"kind": "rematch", "match_no": match_no}


class Cancelled(TypedDict):
    kind: Literal["cancelled"]
    reason: Literal["creator", "abandoned", "moderator"]


def cancelled(reason: Literal["creator", "abandoned", "moderator"]) -> Cancelled:
    return {"kind": "cancelled", "reason": reason}


class Resumed(TypedDict):
    """Live, it also carries the watcher's ``Live`` fields."""

    kind: Literal["resumed"]
    number: int


def resumed(number: int) -> Resumed:
    return {"kind": "resumed", "number": number}


EventBody: TypeAlias = (
    Seats
    | Started
    | Shuffle
    | Dealt
    | ActionPlayed
    | SmazzataEnd
    | MatchEnd
    | Timeout
    | Forfeit
    | Away
    | Substitute
    | Back
    | ChatEvent
    | Rematch
    | Cancelled
    | Resumed
)
"""The body of a table's event: its ``kind`` and its fields."""

# ------------------------------------------------------------------- tournaments' pushes


class Tournament(TypedDict):
    type: Literal["tournament"]
    reason: str
    tournament: dict[str, Any]
    """The tournament as ``GET /api/tournaments/{id}`` answers it."""


def tournament(reason: str, view: dict[str, Any]) -> Tournament:
    """The tournament as it now stands, to its watchers (``reason``: what changed)."""
    return {"type": "tournament", "reason": reason, "tournament": view}


class TournamentNotice(TypedDict):
    type: Literal["tournament_notice"]
    tournament: str
    notice: str
    by: NotRequired[str]
    """The partner a pair notice names."""
    round: NotRequired[int]
    table: NotRequired[str]
    """Where the player plays (``notice: table``)."""


def tournament_notice(tournament_id: str, notice: str) -> TournamentNotice:
    return {"type": "tournament_notice", "tournament": tournament_id, "notice": notice}


def partner_notice(tournament_id: str, notice: str, by: str) -> TournamentNotice:
    return {"type": "tournament_notice", "tournament": tournament_id, "notice": notice, "by": by}


def table_notice(tournament_id: str, round_number: int, table_id: str) -> TournamentNotice:
    return {
        "type": "tournament_notice",
        "tournament": tournament_id,
        "notice": "table",
        "round": round_number,
        "table": table_id,
    }


class QuickPlayFound(TypedDict):
    """Quick play found a table for the user (quickplay.py): he plays at ``table``."""

    type: Literal["quickplay"]
    status: Literal["seated"]
    table: str


def quickplay_found(table_id: str) -> QuickPlayFound:
    return {"type": "quickplay", "status": "seated", "table": table_id}


class Announcement(TypedDict):
    """An administrator's announcement to every connected page (docs/moderation.md)."""

    type: Literal["announcement"]
    text: str
    at: float


def announcement(text: str, at: float) -> Announcement:
    return {"type": "announcement", "text": text, "at": at}


class ReviewNews(TypedDict):
    """A review the user asked for has ended (reviews.py): ``GET /api/tables/{table}/review``
    answers it."""

    type: Literal["review"]
    table: str
    match: int
    seat: int
    status: Literal["done", "failed"]


def review_news(
    table_id: str, match_no: int, seat: int, status: Literal["done", "failed"]
) -> ReviewNews:
    return {"type": "review", "table": table_id, "match": match_no, "seat": seat, "status": status}
