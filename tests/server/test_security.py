"""Bad input and security on the WebSocket, against the server's app in process
(``inprocess.AppServer``); what is uvicorn's own (its frame size limit, its access log) against a
real server (``_live.Server``, uvicorn on loopback).

Each bad message (malformed, of an unknown type, out of turn, for another seat, at a table not
joined, with an event number from the future, too large, one too many) gets an ``error`` with its
code; the table does not change (same ``seq``, same snapshot, nothing sent to the others); and the
connection stays usable. Nobody acts for another seat or sees another seat's cards. Chat is text,
never markup. A socket without a valid session is closed with 4401. First, the token buckets
behind the rate limits, with explicit times.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from burraco.engine import Card, NotationError
from burraco.server.config import ServerConfig
from burraco.server.protocol import MAX_FRAME
from burraco.server.ratelimit import Bucket, RateLimiter

from ._live import live_server
from .harness import Closed, Peer, Server, closed_code
from .inprocess import app_server

# ----------------------------------------------------------------------------- token buckets


def test_bucket_allows_a_burst_then_the_rate() -> None:
    bucket = Bucket(rate=2.0, burst=3.0, tokens=3.0, stamp=100.0)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(100.4)  # 0.8 token so far
    assert bucket.take(100.5)  # 1 token after half a second at 2/s
    assert not bucket.take(100.5)
    assert bucket.take(101.0)


def test_bucket_refills_up_to_its_burst_only() -> None:
    bucket = Bucket(rate=10.0, burst=2.0, tokens=0.0, stamp=0.0)
    assert not bucket.take(0.0)
    assert [bucket.take(3600.0) for _ in range(3)] == [True, True, False]


def test_bucket_ignores_a_clock_that_goes_back() -> None:
    bucket = Bucket(rate=1.0, burst=1.0, tokens=1.0, stamp=50.0)
    assert bucket.take(50.0)
    assert not bucket.take(10.0)  # no token is created by going back in time...
    assert bucket.tokens == 0
    assert bucket.take(51.0)  # ...nor lost: a second after the last take, one more


def test_rate_limiter_keeps_one_bucket_per_key() -> None:
    limiter = RateLimiter(rate=1 / 60, burst=5)
    assert all(limiter.allow("ip:1.2.3.4", 0.0) for _ in range(5))
    assert not limiter.allow("ip:1.2.3.4", 1.0)
    assert limiter.allow("ip:5.6.7.8", 1.0)  # another address is not affected
    assert limiter.allow("ip:1.2.3.4", 61.0)  # one more attempt a minute later
    assert not limiter.allow("ip:1.2.3.4", 62.0)


def test_rate_limiter_forgets_full_buckets_when_it_grows() -> None:
    limiter = RateLimiter(rate=1.0, burst=2)
    for i in range(10_002):
        limiter.allow(f"k{i}", 0.0)
    assert len(limiter._buckets) == 10_002
    assert limiter.allow("late", 1000.0)  # all are full again: the old buckets are forgotten
    assert len(limiter._buckets) == 1


# ------------------------------------------------------------------------------- live server


SETTINGS: dict[str, Any] = {
    "bot_delay": 0.0,
    "login_attempts_per_minute": 60_000.0,
    # The chat limits per account and per table have their own tests (test_chat_limits): here
    # chat lines are the messages that test the per-connection limit.
    "chats_per_minute_per_account": 60_000.0,
    "chats_per_minute_per_table": 60_000.0,
    "joins_per_minute": 60_000.0,
    "joins_per_minute_per_account": 60_000.0,
    "disconnect_grace": 600.0,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(tmp_path_factory.mktemp("security"), **SETTINGS) as running:
        yield running


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server, for what uvicorn itself does (frame size limit, access log)."""
    with live_server(tmp_path_factory.mktemp("security-live"), **SETTINGS) as running:
        yield running


@dataclass
class Duel:
    """A 2-player untimed table in play between two connected guests, and a third guest."""

    server: Server
    id: str
    tokens: dict[int, str]
    players: dict[int, Peer]
    stranger_token: str
    stranger: Peer
    others: list[Peer] = field(default_factory=list)

    def snapshots(self) -> dict[int, dict[str, Any]]:
        """Each seat's snapshot, by joining again (which changes nothing)."""
        return {seat: peer.join(self.id) for seat, peer in self.players.items()}

    def current(self) -> tuple[int, int, dict[str, Any]]:
        """The seat to act, the other seat, and the snapshot of the seat to act."""
        shots = self.snapshots()
        current: int = shots[0]["view"]["current"]
        return current, 1 - current, shots[current]

    def peer(self, seat: int) -> Peer:
        return self.players[seat]

    def spectator(self) -> Peer:
        peer = self.server.peer(self.server.guest()[0])
        self.others.append(peer)
        return peer


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k != "server_time"}


@pytest.fixture
def duel(server: Server) -> Iterator[Duel]:
    yield from a_duel(server)


def a_duel(server: Server) -> Iterator[Duel]:
    tokens = {0: server.guest()[0], 1: server.guest()[0]}
    with server.client(tokens[0]) as client:
        created = client.post("/api/tables", json={"players": 2, "smazzate": 1})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
    with server.client(tokens[1]) as client:
        assert client.post(f"/api/tables/{table_id}/sit", json={"seat": 1}).status_code == 200
    players = {seat: server.peer(token) for seat, token in tokens.items()}
    for peer in players.values():
        peer.join(table_id)
    stranger_token = server.guest()[0]
    duel = Duel(server, table_id, tokens, players, stranger_token, server.peer(stranger_token))
    duel.snapshots()  # both joined: the events about it have been read
    yield duel
    for peer in [*players.values(), duel.stranger, *duel.others]:
        peer.close()
    assert server.traceback_free(), server.log()


def assert_unchanged(duel: Duel, before: dict[int, dict[str, Any]]) -> None:
    """Nobody heard of anything, and each seat's snapshot is what it was. (A join goes through
    the table's queue: whatever an earlier message caused would arrive before its snapshot.)"""
    after = duel.snapshots()
    for seat, snapshot in before.items():
        assert [m for m in duel.peer(seat).skipped if m["type"] == "event"] == []
        assert comparable(after[seat]) == comparable(snapshot)


# ------------------------------------------------------------------------- authentication


def test_websocket_without_a_session_is_closed_with_4401(server: Server) -> None:
    assert closed_code(server) == 4401
    assert closed_code(server, headers={"Authorization": "Bearer nonsense"}) == 4401
    assert closed_code(server, headers={"Authorization": "Basic dXNlcjpwdw=="}) == 4401
    assert closed_code(server, "/ws?token=nonsense") == 4401
    assert closed_code(server, headers={"Cookie": "burraco_session=nonsense"}) == 4401


def test_websocket_after_logout_or_expiry_is_closed_with_4401(server: Server) -> None:
    token, user = server.guest()
    assert closed_code(server, f"/ws?token={token}") == 0
    with server.client(token) as client:
        assert client.post("/api/logout").status_code == 204
    assert closed_code(server, f"/ws?token={token}") == 4401

    token, user = server.guest()
    with contextlib.closing(sqlite3.connect(server.db_path, timeout=10)) as db, db:
        db.execute(
            "UPDATE sessions SET expires_at = '2000-01-01 00:00:00.000000' WHERE user_id = ?",
            (user["id"],),
        )
    assert closed_code(server, f"/ws?token={token}") == 4401


def test_websocket_takes_a_header_a_query_token_or_the_cookie(server: Server) -> None:
    token, user = server.guest()
    ways: list[dict[str, str]] = [
        {"Authorization": f"Bearer {token}"},
        {"Cookie": f"burraco_session={token}"},
    ]
    for headers in ways:
        ws = server.connect(headers=headers)
        welcome = json.loads(ws.recv(10))
        ws.close()
        assert welcome["type"] == "welcome" and welcome["protocol"] == 1
        assert welcome["user"] == user
    ws = server.connect(f"/ws?token={token}")
    assert json.loads(ws.recv(10))["user"] == user
    ws.close()


def test_tokens_in_urls_stay_out_of_the_log(live: Server) -> None:
    """uvicorn's access log (a real server: in process there is none) never shows a token."""
    server = live
    token, _ = server.guest()
    ws = server.connect(f"/ws?token={token}&x=1")
    ws.recv(10)
    ws.close()
    with server.client() as client:
        client.get(f"/api/info?token={token}")
    expected = ("/ws?token=[redacted]&x=1", "/api/info?token=[redacted]")
    deadline = time.monotonic() + 5
    while not all(e in server.log() for e in expected) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(e in server.log() for e in expected)
    assert token not in server.log()


def test_a_page_of_another_origin_cannot_use_the_cookie(server: Server) -> None:
    """Cross-site WebSocket hijacking: the browser would send the cookie; the server checks
    the page's origin. A token is not sent by browsers on their own, so it needs no check."""
    token, _ = server.guest()
    cookie = {"Cookie": f"burraco_session={token}"}
    evil = "http://evil.example"
    assert closed_code(server, headers=cookie, origin=evil) == 4401
    assert closed_code(server, headers=cookie, origin=server.url) == 0
    assert closed_code(server, f"/ws?token={token}", origin=evil) == 0
    # A client-sent X-Forwarded-Host does not make the evil page the server's own (issue 19).
    forged = cookie | {"X-Forwarded-Host": "evil.example"}
    assert closed_code(server, headers=forged, origin=evil) == 4401


# ------------------------------------------------------------------------------ bad frames

BAD_FRAMES: list[tuple[str, Any, str]] = [
    ("not json", "hello", "bad_json"),
    ("truncated json", '{"type":"act"', "bad_json"),
    ("nested too deep", "[" * 12_000, "bad_json"),
    ("NaN", '{"type":"ping","t":NaN}', "bad_json"),
    ("binary garbage", b"\xff\x00\xfe", "bad_json"),
    ("array", [1, 2, 3], "bad_message"),
    ("string", '"ping"', "bad_message"),
    ("no type", {"table": "T"}, "bad_message"),
    ("unknown type", {"type": "cheat", "table": "T"}, "unknown_type"),
    ("server type", {"type": "snapshot", "table": "T"}, "unknown_type"),
    ("act without action", {"type": "act", "table": "T"}, "bad_message"),
    ("numeric action", {"type": "act", "table": "T", "action": 7}, "bad_message"),
    ("numeric table", {"type": "act", "table": 7, "action": "0 draw"}, "bad_message"),
    ("table id with a path", {"type": "join", "table": "../T"}, "bad_message"),
    ("table id too long", {"type": "join", "table": "T" * 17}, "bad_message"),
    ("negative last_seq", {"type": "join", "table": "T", "last_seq": -1}, "bad_message"),
    ("text last_seq", {"type": "join", "table": "T", "last_seq": "1"}, "bad_message"),
    ("numeric chat", {"type": "chat", "table": "T", "text": 1}, "bad_message"),
    ("empty chat", {"type": "chat", "table": "T", "text": " \u0000 "}, "chat_invalid"),
    ("long chat", {"type": "chat", "table": "T", "text": "x" * 301}, "chat_invalid"),
    ("unreadable action", {"type": "act", "table": "T", "action": "0 dance"}, "bad_action"),
    ("unknown card", {"type": "act", "table": "T", "action": "0 discard ZZ"}, "bad_action"),
    ("superscript seat", {"type": "act", "table": "T", "action": "² draw"}, "bad_action"),
    ("huge seat", {"type": "act", "table": "T", "action": "9" * 30 + " draw"}, "not_your_seat"),
    ("too large", {"type": "chat", "table": "T", "text": "x" * MAX_FRAME}, "too_large"),
]


def frame_for(duel: Duel, frame: Any) -> str | bytes:
    if isinstance(frame, bytes | str):
        return frame
    if isinstance(frame, dict) and frame.get("table") == "T":
        frame = frame | {"table": duel.id}
    if isinstance(frame, dict) and frame.get("table") == "../T":
        frame = frame | {"table": "../" + duel.id}
    return json.dumps(frame)


@pytest.mark.parametrize(
    ("frame", "code"), [(f, c) for _, f, c in BAD_FRAMES], ids=[b[0] for b in BAD_FRAMES]
)
def test_a_bad_frame_gets_its_error_and_changes_nothing(
    server: Server, duel: Duel, frame: Any, code: str
) -> None:
    before = duel.snapshots()
    for peer in (duel.peer(0), duel.peer(1)):
        peer.send(frame_for(duel, frame))
        error = peer.error()
        assert error["code"] == code, error
        assert isinstance(error["message"], str) and error["message"]
        peer.ping()
    assert_unchanged(duel, before)


def test_an_oversized_frame_is_refused(duel: Duel) -> None:
    before = duel.snapshots()
    peer = duel.peer(0)
    peer.send("x" * (MAX_FRAME + 1))
    assert peer.error()["code"] == "too_large"
    peer.ping()
    assert_unchanged(duel, before)


def test_a_huge_frame_closes_only_its_socket(live: Server) -> None:
    """Past uvicorn's limit (64 KiB, as `burraco serve`: a real server) the socket itself is
    closed (1009, message too big) before the frame is read; the server and the other
    connections go on. Between the protocol's limit and uvicorn's, ``too_large``."""
    for duel in a_duel(live):
        before = duel.snapshots()
        peer = duel.peer(0)
        peer.send("x" * (MAX_FRAME + 1))
        assert peer.error()["code"] == "too_large"
        peer.ping()
        with live.peer(duel.stranger_token) as flooder:
            flooder.send("x" * (100 << 10))  # 100 KiB: read in full and refused, before
            with pytest.raises(Closed) as closed:
                flooder.recv()
            assert closed.value.code == 1009
        assert_unchanged(duel, before)
        duel.stranger.ping()


# ------------------------------------------------------------------------- play out of bounds


def test_an_action_out_of_turn_is_illegal_and_changes_nothing(duel: Duel) -> None:
    current, other, shot = duel.current()
    before = duel.snapshots()
    assert before[other]["legal"] is None
    duel.peer(other).send(
        {"type": "act", "table": duel.id, "action": f"{other} draw", "ref": "early"}
    )
    error = duel.peer(other).error()
    assert error["code"] == "illegal_action" and error["ref"] == "early"
    assert error["table"] == duel.id and error["rule"] and error["message"]
    # The refusal as data (issue 15), for the client to word in the player's language (R5).
    assert error["detail"] == {
        "code": "not_your_turn",
        "rule": "R5",
        "params": {"seat": other, "current": current},
    }
    assert_unchanged(duel, before)
    # The connections are still usable: the player to act plays, everybody hears of it.
    action = shot["legal"][0]
    duel.peer(current).send({"type": "act", "table": duel.id, "action": action, "ref": "ok"})
    ack, _ = duel.peer(current).until(lambda m: m["type"] == "ack")
    assert ack == {"type": "ack", "table": duel.id, "ref": "ok", "seq": shot["seq"] + 1}
    event, _ = duel.peer(other).until(lambda m: m["type"] == "event")
    assert event["kind"] == "action" and event["seq"] == shot["seq"] + 1
    assert event["action"] == action and event["seat"] == current


def test_nobody_acts_for_another_seat(duel: Duel) -> None:
    current, other, shot = duel.current()
    before = duel.snapshots()
    # The other player sends the very action the player to act may play...
    for action in shot["legal"]:
        duel.peer(other).send({"type": "act", "table": duel.id, "action": action, "ref": "x"})
        error = duel.peer(other).error()
        assert error["code"] == "not_your_seat" and error["ref"] == "x"
    # ... and the player to act cannot play in the other's name either.
    duel.peer(current).send({"type": "act", "table": duel.id, "action": f"{other} draw"})
    assert duel.peer(current).error()["code"] == "not_your_seat"
    # A spectator and a stranger who never joined cannot play at all.
    spectator = duel.spectator()
    assert spectator.join(duel.id)["you"] is None
    spectator.send({"type": "act", "table": duel.id, "action": shot["legal"][0], "ref": "s"})
    assert spectator.error() == {
        "type": "error",
        "code": "not_seated",
        "message": "you have no seat at this table",
        "ref": "s",
        "table": duel.id,
    }
    assert_unchanged(duel, before)
    spectator.ping()


def test_messages_for_a_table_not_joined_are_refused(duel: Duel) -> None:
    current, _, shot = duel.current()
    before = duel.snapshots()
    stranger = duel.stranger
    for message in (
        {"type": "act", "table": duel.id, "action": shot["legal"][0], "ref": "r"},
        {"type": "chat", "table": duel.id, "text": "ciao"},
        {"type": "leave", "table": duel.id},
    ):
        stranger.send(message)
        error = stranger.error()
        assert error["code"] == "not_joined", error
        if message["type"] == "act":
            assert error["ref"] == "r"
    stranger.send({"type": "join", "table": "NoSuchTable"})
    assert stranger.error()["code"] == "no_such_table"
    player = duel.peer(current)
    player.send({"type": "act", "table": "NoSuchTable", "action": shot["legal"][0]})
    assert player.error()["code"] == "not_joined"
    assert_unchanged(duel, before)
    stranger.ping()
    # A player who left his table must join it again to play.
    player.send({"type": "leave", "table": duel.id})
    player.ping()
    player.send({"type": "act", "table": duel.id, "action": shot["legal"][0], "ref": "r"})
    assert player.error() == {
        "type": "error",
        "code": "not_joined",
        "message": "join the table first",
        "ref": "r",
        "table": duel.id,  # the refusal names the message it refuses (issue 27, H1)
    }
    # Back within the quiet time of presence news: the others were told nothing (test_presence).
    assert player.join(duel.id)["seq"] == shot["seq"]
    player.send({"type": "act", "table": duel.id, "action": shot["legal"][0], "ref": "r"})
    assert player.until(lambda m: m["type"] == "ack")[0]["seq"] == shot["seq"] + 1


def test_last_seq_from_the_future_is_stale_and_gets_a_snapshot(duel: Duel) -> None:
    before = duel.snapshots()
    peer = duel.peer(0)
    peer.send({"type": "join", "table": duel.id, "last_seq": before[0]["seq"] + 1000})
    error = peer.error()
    assert error["code"] == "stale" and error["table"] == duel.id
    snapshot, _ = peer.until(lambda m: m["type"] == "snapshot")
    assert comparable(snapshot) == comparable(before[0])
    # Up to date: only `synced`; one event behind: that event, then `synced`.
    peer.send({"type": "join", "table": duel.id, "last_seq": before[0]["seq"]})
    synced = peer.recv()
    assert (synced["type"], synced["table"], synced["seq"]) == ("synced", duel.id, before[0]["seq"])
    assert synced["view"] == before[0]["view"]
    assert_unchanged(duel, before)
    current, other, shot = duel.current()
    duel.peer(current).send({"type": "act", "table": duel.id, "action": shot["legal"][0]})
    duel.peer(current).until(lambda m: m["type"] == "ack")
    duel.peer(other).until(lambda m: m["type"] == "event")
    duel.peer(other).send({"type": "join", "table": duel.id, "last_seq": shot["seq"]})
    missed = duel.peer(other).recv()
    assert missed["type"] == "event" and missed["seq"] == shot["seq"] + 1
    synced = duel.peer(other).recv()
    assert (synced["type"], synced["seq"]) == ("synced", shot["seq"] + 1)


def test_flooding_is_rate_limited_and_the_connection_recovers(duel: Duel) -> None:
    """20 messages per second, bursts of 60 (docs/protocol.md): a flood of chat lines gets
    its first 60 or so through and `rate_limited` for the rest, which are not stored."""
    before = duel.snapshots()
    peer, other = duel.peer(0), duel.peer(1)
    sent = 150
    started = time.monotonic()
    for i in range(sent):
        peer.send({"type": "chat", "table": duel.id, "text": f"spam {i}"})
    answers = [peer.recv() for _ in range(sent)]
    elapsed = time.monotonic() - started
    limited = [m for m in answers if m["type"] == "error"]
    said = [m for m in answers if m["type"] == "event"]
    assert {m["code"] for m in limited} <= {"rate_limited"}
    assert {m["kind"] for m in said} == {"chat"}
    assert len(limited) == sent - len(said)
    # The burst (less the few joins made just before) and what trickled in meanwhile.
    assert 50 <= len(said) <= 62 + 20 * elapsed, elapsed
    assert limited or elapsed > 4
    heard = [m for m in other.quiet(0.5) if m["type"] == "event"]
    time.sleep(0.2)  # a few tokens back
    assert [m["text"] for m in heard] == [m["text"] for m in said]
    rows = duel.server.query("SELECT text FROM chat WHERE table_id = ? ORDER BY seq", duel.id)
    assert [text for (text,) in rows] == [m["text"] for m in said]
    seq_after = duel.snapshots()[0]["seq"]
    assert seq_after == before[0]["seq"] + len(said)
    peer.ping()


# ----------------------------------------------------------------------------- no leaked card

CARD_WORD = re.compile(r"^(?:10|[2-9AJQKT])[CDHS♣♦♥♠]$|^JK$", re.IGNORECASE)


def cards_in(message: Any) -> set[str]:
    """Every card named anywhere in a message (in any string, word by word)."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    elif isinstance(message, str):
        for word in message.split():
            if CARD_WORD.match(word):
                with contextlib.suppress(NotationError):
                    found.add(str(Card.parse(word)))
    return found


def test_nobody_reads_another_seats_cards(duel: Duel) -> None:
    shots = duel.snapshots()
    spectator = duel.spectator()
    public = spectator.join(duel.id)
    pile = set(public["view"]["discard_pile"])
    assert public["you"] is None and public["view"]["hand"] == [] and public["legal"] is None
    assert cards_in(public) == pile
    hands = {seat: set(shot["view"]["hand"]) for seat, shot in shots.items()}
    for seat, shot in shots.items():
        view = shot["view"]
        assert shot["you"] == seat and view["seat"] == seat
        assert len(view["hand"]) == view["hand_sizes"][seat] == 11
        assert cards_in(shot) == hands[seat] | pile
        assert hands[1 - seat] - hands[seat] - pile  # the other hand has cards of its own...
        assert not (cards_in(shot) & (hands[1 - seat] - hands[seat] - pile))  # ...unseen here
    # A draw: only the drawer learns the card.
    current, other, shot = duel.current()
    if f"{current} draw" not in shot["legal"]:
        pytest.skip("the first player cannot draw")  # never: drawing is always possible first
    duel.peer(current).send({"type": "act", "table": duel.id, "action": f"{current} draw"})
    mine, _ = duel.peer(current).until(lambda m: m["type"] == "event")
    theirs, _ = duel.peer(other).until(lambda m: m["type"] == "event")
    watched, _ = spectator.until(lambda m: m["type"] == "event")
    drawn = mine["view"]["drawn"]
    assert [e for e in mine["events"] if e["e"] == "drew"] == [
        {"e": "drew", "seat": current, "card": drawn}
    ]
    for message in (theirs, watched):
        assert [e for e in message["events"] if e["e"] == "drew"] == [
            {"e": "drew", "seat": current, "card": None}
        ]
        assert message["view"]["drawn"] is None
    assert theirs["view"]["hand"] == shots[other]["view"]["hand"]
    assert watched["view"]["hand"] == [] and watched["legal"] is None
    assert cards_in(watched) == pile
    assert cards_in(theirs) == hands[other] | pile


# ------------------------------------------------------------------------------------ chat


def test_chat_is_stored_and_sent_as_text(duel: Duel) -> None:
    markup = "<script>alert(1)</script> & <b>ciao</b>"
    peer, other = duel.peer(0), duel.peer(1)
    peer.send({"type": "chat", "table": duel.id, "text": markup})
    raw = other.recv_raw()
    assert json.dumps(markup, ensure_ascii=False) in raw  # a JSON string, not escaped as HTML
    event = json.loads(raw)
    assert event["kind"] == "chat" and event["text"] == markup and event["seat"] == 0
    mine, _ = peer.until(lambda m: m["type"] == "event")
    assert mine["text"] == markup
    # Control characters are dropped; the rest is kept as it was typed.
    peer.send({"type": "chat", "table": duel.id, "text": "a\u0000b\u001b[2J\nc\u202e"})
    assert peer.until(lambda m: m["type"] == "event")[0]["text"] == "ab[2Jc"
    rows = duel.server.query("SELECT text, name FROM chat WHERE table_id = ? ORDER BY seq", duel.id)
    assert [text for text, _ in rows] == [markup, "ab[2Jc"]
    # Spectators and late comers get the chat as text in their snapshot.
    spectator = duel.spectator()
    lines = spectator.join(duel.id)["chat"]
    assert [line["text"] for line in lines] == [markup, "ab[2Jc"]
    spectator.send({"type": "chat", "table": duel.id, "text": '"><img src=x onerror=alert(1)>'})
    said, _ = other.until(lambda m: m["type"] == "event" and m["text"].startswith('"><'))
    assert said["text"] == '"><img src=x onerror=alert(1)>' and said["seat"] is None


def test_http_still_answers(server: Server) -> None:
    """After all of the above the server is alive and its log is clean."""
    with server.client() as client:
        assert client.get("/api/info").status_code == 200
    assert server.traceback_free(), server.log()


def test_one_account_holds_at_most_max_sockets_per_user(server: Server) -> None:
    token, _user = server.guest()
    limit = ServerConfig().max_sockets_per_user
    with contextlib.ExitStack() as stack:
        for _ in range(limit):
            socket = server.connect(f"/ws?token={token}")
            stack.callback(socket.close)
            assert json.loads(socket.recv(10))["type"] == "welcome"
        assert closed_code(server, f"/ws?token={token}") == 4429
    # Closing them frees the places (the count goes down as each socket ends).
    deadline = time.monotonic() + 10
    while closed_code(server, f"/ws?token={token}") != 0:
        assert time.monotonic() < deadline, "the sockets' places were never given back"
        time.sleep(0.1)
