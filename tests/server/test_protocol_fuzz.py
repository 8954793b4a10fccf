"""The WebSocket protocol's input side: ``protocol.decode`` message by message, then fuzzing.

First the decoder alone: every client message type, and every way a frame can be malformed, each
with its error code (docs/protocol.md). Then hypothesis feeds the decoder arbitrary text, bytes
and JSON: it returns a well-formed message or raises ``ProtocolError``, nothing else. Last, the
same kinds of frames go to the server (its app in process, ``inprocess.AppServer``) over one
connection, interleaved with valid messages: every frame gets its answer, the connection stays
usable, and the server logs no traceback.
"""

from __future__ import annotations

import itertools
import json
import math
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.server.errors import ws_message
from burraco.server.protocol import (
    HEX64,
    MAX_CHAT,
    MAX_FRAME,
    TABLE_ID,
    Act,
    Chat,
    ClientMessage,
    ErrorCode,
    Join,
    Leave,
    Ping,
    ProtocolError,
    Ready,
    SeedCommit,
    SeedReveal,
    UnwatchTournament,
    WatchTournament,
    decode,
    encode,
)
from tests.depth import examples

from .harness import Server
from .inprocess import app_server

# --------------------------------------------------------------------------- decoding: valid


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        ('{"type":"join","table":"abc123"}', Join("abc123", None)),
        ('{"type":"join","table":"a-b_C9","last_seq":0}', Join("a-b_C9", 0)),
        ('{"type":"join","table":"abc","last_seq":42}', Join("abc", 42)),
        ('{"type":"join","table":"abc","last_seq":null}', Join("abc", None)),
        ('{"type":"join","table":"' + "x" * 16 + '"}', Join("x" * 16, None)),
        ('{"type":"leave","table":"abc"}', Leave("abc")),
        ('{"type":"act","table":"abc","action":"0 discard KC"}', Act("abc", "0 discard KC", None)),
        (
            '{"type":"act","table":"abc","action":"1 draw","ref":"r-17"}',
            Act("abc", "1 draw", "r-17"),
        ),
        (
            '{"type":"act","table":"abc","action":"1 open 7♥ 8♥ 9♥"}',
            Act("abc", "1 open 7♥ 8♥ 9♥", None),
        ),
        ('{"type":"chat","table":"abc","text":"ciao a tutti"}', Chat("abc", "ciao a tutti")),
        ('{"type":"chat","table":"abc","text":"  spazi  "}', Chat("abc", "spazi")),
        ('{"type":"ping"}', Ping(None)),
        ('{"type":"ping","t":7}', Ping(7.0)),
        ('{"type":"ping","t":1.5e3}', Ping(1500.0)),
        ('{"type":"ping","t":null,"extra":[1,{"x":2}]}', Ping(None)),
        (b'{"type":"ping","t":1}', Ping(1.0)),
        ('\n {"type" : "leave", "table" : "abc"} \t', Leave("abc")),
        (
            '{"type":"seed_commit","table":"abc","commitment":"' + "0a" * 32 + '"}',
            SeedCommit("abc", "0a" * 32),
        ),
        (
            '{"type":"seed_reveal","table":"abc","number":3,"seed":"' + "f" * 64 + '"}',
            SeedReveal("abc", 3, "f" * 64),
        ),
    ],
)
def test_decode_reads_every_message_type(frame: str | bytes, expected: ClientMessage) -> None:
    assert decode(frame) == expected


def test_ping_time_is_a_float() -> None:
    message = decode('{"type":"ping","t":7}')
    assert isinstance(message, Ping) and isinstance(message.t, float)


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "<b>grassetto</b> & <i>corsivo</i> &amp; &lt;",
        "\" ' ` ${x} {{y}} \\ /",
        "Burraco pulito! ♥♠ 🃏 àèìòù",
    ],
)
def test_chat_markup_is_kept_as_text(text: str) -> None:
    message = decode(json.dumps({"type": "chat", "table": "abc", "text": text}))
    assert message == Chat("abc", text)


def test_chat_control_characters_are_removed() -> None:
    text = "ciao\x00\x07\x1b[31m mondo\r\n\u202e\u2028!"
    message = decode(json.dumps({"type": "chat", "table": "abc", "text": text}))
    assert message == Chat("abc", "ciao[31m mondo!")


def test_chat_of_the_longest_length_is_accepted() -> None:
    message = decode(json.dumps({"type": "chat", "table": "abc", "text": "x" * MAX_CHAT}))
    assert message == Chat("abc", "x" * MAX_CHAT)


def test_a_frame_of_exactly_the_limit_is_read() -> None:
    head = '{"type":"ping","pad":"'
    frame = head + "x" * (MAX_FRAME - len(head) - 2) + '"}'
    assert len(frame.encode()) == MAX_FRAME
    assert decode(frame) == Ping(None)


# ------------------------------------------------------------------------- decoding: malformed

BAD_JSON = ErrorCode.BAD_JSON
BAD_MESSAGE = ErrorCode.BAD_MESSAGE
MALFORMED: list[tuple[str, str | bytes, str]] = [
    ("empty", "", BAD_JSON),
    ("blank", "  \n", BAD_JSON),
    ("truncated", '{"type":"ping"', BAD_JSON),
    ("not json", "hello", BAD_JSON),
    ("single quotes", "{'type':'ping'}", BAD_JSON),
    ("trailing comma", '{"type":"ping",}', BAD_JSON),
    ("two objects", '{"type":"ping"}{"type":"ping"}', BAD_JSON),
    ("NaN", '{"type":"ping","t":NaN}', BAD_JSON),
    ("Infinity", '{"type":"ping","t":Infinity}', BAD_JSON),
    ("-Infinity", '{"type":"ping","t":-Infinity}', BAD_JSON),
    ("float overflow", '{"type":"ping","t":1e999}', BAD_JSON),
    ("huge integer literal", '{"type":"ping","t":' + "9" * 5000 + "}", BAD_JSON),
    ("deep array", "[" * 10_000, BAD_JSON),
    ("deep closed array", "[" * 5000 + "]" * 5000, BAD_JSON),
    ("deep object", '{"a":' * 2500 + "1" + "}" * 2500, BAD_JSON),
    ("invalid utf-8 bytes", b'{"type":"ping","t":"\xff\xfe"}', BAD_JSON),
    ("binary garbage", bytes(range(256)), BAD_JSON),
    ("array", '[{"type":"ping"}]', BAD_MESSAGE),
    ("number", "1", BAD_MESSAGE),
    ("string", '"ping"', BAD_MESSAGE),
    ("null", "null", BAD_MESSAGE),
    ("true", "true", BAD_MESSAGE),
    ("no type", "{}", BAD_MESSAGE),
    ("null type", '{"type":null,"table":"abc"}', BAD_MESSAGE),
    ("unknown type", '{"type":"dance"}', ErrorCode.UNKNOWN_TYPE),
    ("type in capitals", '{"type":"JOIN","table":"abc"}', ErrorCode.UNKNOWN_TYPE),
    ("numeric type", '{"type":5}', ErrorCode.UNKNOWN_TYPE),
    ("list type", '{"type":["join"],"table":"abc"}', ErrorCode.UNKNOWN_TYPE),
    ("server message type", '{"type":"snapshot","table":"abc"}', ErrorCode.UNKNOWN_TYPE),
    # join
    ("join without table", '{"type":"join"}', BAD_MESSAGE),
    ("join with null table", '{"type":"join","table":null}', BAD_MESSAGE),
    ("join with numeric table", '{"type":"join","table":5}', BAD_MESSAGE),
    ("join with list table", '{"type":"join","table":["abc"]}', BAD_MESSAGE),
    ("join with empty table", '{"type":"join","table":""}', BAD_MESSAGE),
    ("join with long table", '{"type":"join","table":"' + "x" * 17 + '"}', BAD_MESSAGE),
    ("join with path table", '{"type":"join","table":"../../etc"}', BAD_MESSAGE),
    ("join with spaced table", '{"type":"join","table":"ab c"}', BAD_MESSAGE),
    ("join with newline table", '{"type":"join","table":"abc\\n"}', BAD_MESSAGE),
    ("join with accented table", '{"type":"join","table":"tàvolo"}', BAD_MESSAGE),
    ("join with sql table", '{"type":"join","table":"x\' OR 1=1"}', BAD_MESSAGE),
    ("negative last_seq", '{"type":"join","table":"abc","last_seq":-1}', BAD_MESSAGE),
    ("text last_seq", '{"type":"join","table":"abc","last_seq":"3"}', BAD_MESSAGE),
    ("float last_seq", '{"type":"join","table":"abc","last_seq":1.5}', BAD_MESSAGE),
    ("boolean last_seq", '{"type":"join","table":"abc","last_seq":true}', BAD_MESSAGE),
    # leave
    ("leave without table", '{"type":"leave"}', BAD_MESSAGE),
    ("leave with object table", '{"type":"leave","table":{}}', BAD_MESSAGE),
    # act
    ("act without action", '{"type":"act","table":"abc"}', BAD_MESSAGE),
    ("act without table", '{"type":"act","action":"0 draw"}', BAD_MESSAGE),
    ("numeric action", '{"type":"act","table":"abc","action":0}', BAD_MESSAGE),
    ("list action", '{"type":"act","table":"abc","action":["0","draw"]}', BAD_MESSAGE),
    ("long action", '{"type":"act","table":"abc","action":"' + "0" * 201 + '"}', "bad_action"),
    ("empty action", '{"type":"act","table":"abc","action":"  "}', "bad_action"),
    ("action with NUL", '{"type":"act","table":"abc","action":"0 draw\\u0000"}', "bad_action"),
    ("action with newline", '{"type":"act","table":"abc","action":"0\\ndraw"}', "bad_action"),
    ("superscript seat", '{"type":"act","table":"abc","action":"² draw"}', "bad_action"),
    ("arabic seat", '{"type":"act","table":"abc","action":"٠ draw"}', "bad_action"),
    ("numeric ref", '{"type":"act","table":"abc","action":"0 draw","ref":5}', BAD_MESSAGE),
    (
        "long ref",
        '{"type":"act","table":"abc","action":"0 draw","ref":"' + "r" * 65 + '"}',
        BAD_MESSAGE,
    ),
    (
        "lone surrogate ref",
        '{"type":"act","table":"abc","action":"0 draw","ref":"\\ud800"}',
        BAD_MESSAGE,
    ),
    # chat
    ("chat without text", '{"type":"chat","table":"abc"}', BAD_MESSAGE),
    ("chat without table", '{"type":"chat","text":"ciao"}', BAD_MESSAGE),
    ("numeric chat", '{"type":"chat","table":"abc","text":5}', BAD_MESSAGE),
    ("empty chat", '{"type":"chat","table":"abc","text":""}', "chat_invalid"),
    ("blank chat", '{"type":"chat","table":"abc","text":"   "}', "chat_invalid"),
    (
        "control-only chat",
        '{"type":"chat","table":"abc","text":"\\u0000\\u0007\\n"}',
        "chat_invalid",
    ),
    (
        "long chat",
        '{"type":"chat","table":"abc","text":"' + "x" * (MAX_CHAT + 1) + '"}',
        "chat_invalid",
    ),
    # ping
    ("text ping time", '{"type":"ping","t":"now"}', BAD_MESSAGE),
    ("boolean ping time", '{"type":"ping","t":false}', BAD_MESSAGE),
    ("list ping time", '{"type":"ping","t":[1]}', BAD_MESSAGE),
    ("ping time out of float range", '{"type":"ping","t":' + "9" * 400 + "}", BAD_MESSAGE),
    # size
    ("oversized", '{"type":"chat","table":"abc","text":"' + "x" * MAX_FRAME + '"}', "too_large"),
    ("oversized bytes", b'{"type":"ping","pad":"' + b"x" * MAX_FRAME + b'"}', "too_large"),
    (
        "oversized in UTF-8 only",
        '{"type":"chat","table":"abc","text":"' + "é" * (MAX_FRAME // 2) + '"}',
        "too_large",
    ),
    ("oversized garbage", "\x00" * (MAX_FRAME + 1), "too_large"),
]


@pytest.mark.parametrize(
    ("frame", "code"),
    [(frame, code) for _, frame, code in MALFORMED],
    ids=[m[0] for m in MALFORMED],
)
def test_decode_refuses_malformed_frames(frame: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(frame)
    error = refused.value
    assert error.code == code
    answer = json.loads(encode(ws_message(error)))
    assert answer["type"] == "error" and answer["code"] == code
    assert isinstance(answer["message"], str) and answer["message"]


@pytest.mark.parametrize(
    ("frame", "said"),
    [
        (
            '{"type":"act","table":"abc","action":"DRAW","lag_ms":"1"}',
            "'lag_ms' must be an integer",
        ),
        ('{"type":"join","table":7}', "'table' must be a string"),
    ],
)
def test_a_field_of_the_wrong_type_is_named_in_plain_words(frame: str, said: str) -> None:
    """The refusal reads as English ("must be an integer", not "must be a int")."""
    with pytest.raises(ProtocolError) as refused:
        decode(frame)
    assert refused.value.message == said


def test_errors_echo_the_ref_of_the_refused_action() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode('{"type":"act","table":"abc","action":"x\\u0000","ref":"mine-1"}')
    assert ws_message(refused.value) == {
        "type": "error",
        "code": "bad_action",
        "message": refused.value.message,
        "ref": "mine-1",
    }


def test_error_json_has_only_documented_fields() -> None:
    error = ProtocolError(ErrorCode.ILLEGAL_ACTION, "no", ref="r", rule="R17")
    assert ws_message(error) == {
        "type": "error",
        "code": "illegal_action",
        "message": "no",
        "ref": "r",
        "rule": "R17",
    }
    assert ws_message(ProtocolError(ErrorCode.STALE, "x")) == {
        "type": "error",
        "code": "stale",
        "message": "x",
    }


def test_error_codes_are_the_documented_ones() -> None:
    documented = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    section = documented.split("### Error codes", 1)[1].split("##", 1)[0]
    for code in ErrorCode:
        assert f"`{code}`" in section, code


# ----------------------------------------------------------------- decoding: property (fuzzing)

KEYS = ("type", "table", "last_seq", "action", "text", "t", "ref", "commitment", "seed", "number")
TYPES = (
    "join",
    "leave",
    "act",
    "chat",
    "ping",
    "watch_tournament",
    "unwatch_tournament",
    "seed_commit",
    "seed_reveal",
    "ready",
    "welcome",
    "error",
    "",
    "JOIN",
    "act ",
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
plausible = {
    "type": st.sampled_from(TYPES) | json_values,
    "table": st.sampled_from(("abc", "x" * 16, "x" * 17, "", "a b", "../x")) | json_values,
    "tournament": st.sampled_from(("abc", "x" * 17, "", "a b")) | json_values,
    "last_seq": st.integers(min_value=-5, max_value=10**20) | json_values,
    "action": st.sampled_from(("0 draw", "1 discard KC", "0 open 5H 6H 7H", "²", "draw"))
    | st.text(max_size=40)
    | json_values,
    "text": st.text(max_size=60) | json_values,
    "t": st.floats(allow_nan=False, allow_infinity=False) | json_values,
    "ref": st.text(max_size=70) | json_values,
    "commitment": st.sampled_from(("a" * 64, "A" * 64, "a" * 63, "")) | json_values,
    "seed": st.sampled_from(("b" * 64, "g" * 64, "b" * 65)) | json_values,
    "number": st.integers(min_value=-2, max_value=1002) | json_values,
}
messages = st.fixed_dictionaries(
    {"type": plausible["type"]}, optional={k: plausible[k] for k in KEYS if k != "type"}
)


def check_decoded(message: ClientMessage) -> None:
    """What ``decode`` lets through is well formed."""
    if isinstance(message, Join | Leave | Act | Chat | Ready | SeedCommit | SeedReveal):
        assert TABLE_ID.fullmatch(message.table)
    if isinstance(message, Join):
        assert message.last_seq is None or (type(message.last_seq) is int and message.last_seq >= 0)
    elif isinstance(message, Act):
        assert 1 <= len(message.action) <= 200 and message.action.isprintable()
        assert message.ref is None or (len(message.ref) <= 64 and message.ref.isprintable())
    elif isinstance(message, Chat):
        assert 1 <= len(message.text) <= MAX_CHAT
        assert message.text.isprintable() and message.text == message.text.strip()
    elif isinstance(message, Ping):
        assert message.t is None or (type(message.t) is float and math.isfinite(message.t))
    elif isinstance(message, WatchTournament | UnwatchTournament):
        assert TABLE_ID.fullmatch(message.tournament)
    elif isinstance(message, SeedCommit):
        assert HEX64.fullmatch(message.commitment)
    elif isinstance(message, SeedReveal):
        assert 1 <= message.number <= 1000 and HEX64.fullmatch(message.seed)
    else:
        assert isinstance(message, Leave | Ready)


def decode_or_error(frame: str | bytes) -> ClientMessage | ProtocolError:
    try:
        message = decode(frame)
    except ProtocolError as error:
        # The error itself must be sendable: JSON, and encodable as UTF-8.
        json.loads(encode(ws_message(error)).encode("utf-8"))
        return error
    check_decoded(message)
    return message


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=200))
def test_decode_any_text(frame: str) -> None:
    decode_or_error(frame)


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=200))
def test_decode_any_bytes(frame: bytes) -> None:
    decode_or_error(frame)


@settings(max_examples=examples(200), deadline=None)
@given(json_values)
def test_decode_any_json_value(value: Any) -> None:
    decode_or_error(json.dumps(value))


@settings(max_examples=examples(300), deadline=None)
@given(messages)
def test_decode_messages_with_the_right_keys_and_any_values(data: dict[str, Any]) -> None:
    decode_or_error(json.dumps(data))
    decode_or_error(json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass"))


# ------------------------------------------------------------------ the server (in process)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(
        tmp_path_factory.mktemp("fuzz"),
        bot_delay=0.0,
        messages_per_second=100_000.0,  # the fuzzer sends fast; flooding is tested elsewhere
        login_attempts_per_minute=60_000.0,
        chats_per_minute_per_account=6_000_000.0,  # so are the chat and join limits
        chats_per_minute_per_table=6_000_000.0,
        joins_per_minute=6_000_000.0,
        joins_per_minute_per_account=6_000_000.0,
        disconnect_grace=600.0,
    ) as running:
        yield running


class Table:
    """A 2-player table in play: the fuzzer's connection holds seat 0 (the other seat is a
    second player whose page is open and never plays, so nothing moves unless the fuzzer
    plays: a seat nobody opens would be away from the start and get a bot)."""

    def __init__(self, server: Server) -> None:
        token, _ = server.guest()
        other, _ = server.guest()
        with server.client(token) as client:
            created = client.post("/api/tables", json={"players": 2, "smazzate": 1})
            assert created.status_code == 201, created.text
            self.id: str = created.json()["id"]
        with server.client(other) as client:
            seated = client.post(f"/api/tables/{self.id}/sit", json={"seat": 1})
            assert seated.status_code == 200, seated.text
            assert seated.json()["status"] == "playing"
        self.opponent = server.peer(other)
        self.opponent.join(self.id)
        self.peer = server.peer(token)
        self.snapshot = self.peer.join(self.id)
        self.counter = itertools.count()


@pytest.fixture(scope="module")
def table(server: Server) -> Iterator[Table]:
    table = Table(server)
    yield table
    table.peer.close()
    table.opponent.close()


def tables_of(table: Table) -> st.SearchStrategy[Any]:
    return st.sampled_from((table.id, "nosuchtable1", table.id[:-1])) | plausible["table"]


def frames_for(table: Table) -> st.SearchStrategy[str | bytes]:
    """Frames of every kind: valid ones, right keys with wrong values, JSON that is not a
    message, text that is not JSON, bytes, and now and then an oversized frame."""
    keyed = st.fixed_dictionaries(
        {"type": plausible["type"]},
        optional={"table": tables_of(table)} | {k: plausible[k] for k in KEYS[2:]},
    )
    valid = st.sampled_from(
        [
            {"type": "ping", "t": 1.25},
            {"type": "ping"},
            {"type": "join", "table": table.id},
            {"type": "join", "table": table.id, "last_seq": 0},
            {"type": "join", "table": table.id, "last_seq": 10**9},
            {"type": "chat", "table": table.id, "text": "<i>fuzz</i> \u0000 ok"},
            {"type": "act", "table": table.id, "action": "0 discard KC", "ref": "v"},
            {"type": "act", "table": table.id, "action": "1 draw", "ref": "w"},
            {"type": "leave", "table": table.id},
        ]
    )
    printable = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
    return st.one_of(
        valid.map(json.dumps),
        keyed.map(json.dumps),
        keyed.map(lambda d: json.dumps(d, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        json_values.map(json.dumps),
        printable,
        st.binary(max_size=300),
        st.sampled_from(
            [
                "[" * 3000,
                '{"type":"ping","pad":"' + "x" * MAX_FRAME + '"}',
                '{"type":"ping","t":NaN}',
                '{"type":"act","table":"' + table.id + '","action":"\u00b2 draw"}',
            ]
        ),
    )


def exchange(table: Table, frame: str | bytes) -> list[dict[str, Any]]:
    """Send one frame and then a sentinel that goes through the same table actor (an action
    that cannot be read, with its own ref): everything the frame caused arrives before the
    sentinel's answer. Returns what arrived in between."""
    ref = f"sentinel-{next(table.counter)}"
    table.peer.send(frame)
    table.peer.send({"type": "act", "table": table.id, "action": "?", "ref": ref})
    _, before = table.peer.until(lambda m: m["type"] == "error" and m.get("ref") == ref)
    return before


def check_answers(table: Table, frame: str | bytes, answers: list[dict[str, Any]]) -> None:
    """The frame got the answer ``decode`` (and the table) calls for."""
    assert all(m["type"] != "error" or m["code"] != "server_error" for m in answers), answers
    errors = [m["code"] for m in answers if m["type"] == "error"]
    expected = decode_or_error(frame)
    if isinstance(expected, ProtocolError):
        assert errors == [expected.code], (frame, answers)
    elif isinstance(expected, Ping):
        assert any(m["type"] == "pong" and m["t"] == expected.t for m in answers), answers
    elif isinstance(expected, WatchTournament):
        assert errors == ["no_such_tournament"], (frame, answers)
    elif isinstance(expected, UnwatchTournament):
        assert errors == [], (frame, answers)
    elif expected.table != table.id:
        assert errors == ["no_such_table" if isinstance(expected, Join) else "not_joined"]
    elif isinstance(expected, Join):
        assert any(m["type"] in ("snapshot", "synced") for m in answers), answers
    elif isinstance(expected, Act):
        assert any(
            m["type"] in ("ack", "error") and m.get("ref") == expected.ref for m in answers
        ), answers
    elif isinstance(expected, Chat):
        assert any(
            m["type"] == "event" and m["kind"] == "chat" and m["text"] == expected.text
            for m in answers
        ), answers
    elif isinstance(expected, SeedCommit | SeedReveal | Ready):
        # Taken without an answer (a commitment for the next deal; a reveal for no deal in
        # progress changes nothing; no score sheet is open): the player at seat 0 may send them.
        assert errors == [], (frame, answers)
    else:  # leave: no answer; follow the table again for the next frames
        assert isinstance(expected, Leave) and answers == []
        table.peer.join(table.id)


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_the_server_answers_every_frame(server: Server, table: Table, data: st.DataObject) -> None:
    frames = data.draw(st.lists(frames_for(table), min_size=1, max_size=5), label="frames")
    for frame in frames:
        check_answers(table, frame, exchange(table, frame))
    table.peer.ping()
    assert server.alive()


def test_the_server_survives_random_frames_without_a_traceback(
    server: Server, table: Table
) -> None:
    """Raw frames, no hypothesis shrinking: many at once on the same connection, then the
    connection still plays its part (a snapshot, a ping) and the log is clean."""
    frames: list[str | bytes] = [
        "[" * 15_000,
        '{"a":' * 4000,
        b"\x00" * 100,
        "\u0000",
        '{"type":"ping","t":' + "9" * 400 + "}",
        '{"type":"act","table":"' + table.id + '","action":"0 draw","ref":"\\udfff"}',
        '{"type":"act","table":"' + table.id + '","action":"9999999999999999999999 draw"}',
        '{"type":"act","table":"' + table.id + '","action":"0 attach 99999999999999 KC"}',
        '{"type":"join","table":"' + table.id + '","last_seq":' + "9" * 300 + "}",
        *(json.dumps({"type": t, "table": table.id}) for t in TYPES),
        *(string.printable[i : i + 7] for i in range(0, len(string.printable), 7)),
    ]
    for frame in frames:
        check_answers(table, frame, exchange(table, frame))
    snapshot = table.peer.join(table.id)
    assert snapshot["you"] == 0 and snapshot["info"]["status"] == "playing"
    table.peer.ping()
    assert server.alive()
    assert server.traceback_free(), server.log()


def test_the_server_log_has_no_traceback(server: Server, table: Table) -> None:
    table.peer.ping()
    assert server.traceback_free(), server.log()
