"""The server's outgoing messages (server/messages.py): each builder's JSON text, pinned key by
key as docs/protocol.md documents it, and the one shape of a meld on the wire."""

from __future__ import annotations

import random

from burraco.engine import find_rules
from burraco.engine.events import Attached, Opened
from burraco.engine.match import Match
from burraco.errors import ErrorCode
from burraco.server import messages
from burraco.server.fairness import fresh_deck
from burraco.server.protocol import ProtocolError, encode
from burraco.server.wire import event_json
from burraco.store import UserInfo


def test_connection_messages() -> None:
    user = UserInfo(id=3, name="Giulia", is_guest=False)
    assert encode(messages.welcome(user, 1.5)) == (
        '{"type":"welcome","protocol":1,"user":{"id":3,"name":"Giulia","guest":false,"bot":false},'
        '"server_time":1.5}'
    )
    assert encode(messages.pong(None, 2.0)) == '{"type":"pong","t":null,"server_time":2.0}'
    refused = ProtocolError(ErrorCode.NOT_SEATED, "no seat", ref="r1")
    assert encode(messages.error(refused, table="t")) == (
        '{"type":"error","code":"not_seated","message":"no seat","ref":"r1","table":"t"}'
    )


def test_table_messages() -> None:
    seat = messages.seat(0, name="A", bot=None, connected=True, away=False, substitute=None)
    assert encode(seat) == (
        '{"seat":0,"name":"A","bot":null,"connected":true,"away":false,"substitute":null,'
        '"bot_account":false}'
    )
    clock = messages.clock([10.0, 9.5], 1, None, 3.0)
    live = messages.live(None, ["0 draw"], clock)
    assert encode(messages.synced("t", 7, live)) == (
        '{"type":"synced","table":"t","seq":7,"view":null,"legal":["0 draw"],'
        '"clock":{"banks":[10.0,9.5],"running":1,"turn_left":null,"server_time":3.0}}'
    )
    assert encode(messages.ack("t", None, 8)) == '{"type":"ack","table":"t","ref":null,"seq":8}'
    info = messages.table_info(
        "t", status="open", config={}, seats=[seat], match_no=1, created_by=None
    )
    snapshot = messages.snapshot(
        "t",
        0,
        you=None,
        info=info,
        match=None,
        extras=messages.live(None, None, None),
        commitment=None,
        chat=[messages.stored_chat_line("A", "ciao", 1.0, 3)],
        server_time=4.0,
    )
    assert list(snapshot) == [
        "type", "table", "seq", "you", "info", "match", "view", "legal", "clock",
        "commitment", "chat", "server_time",
    ]  # fmt: skip
    assert (
        encode({"chat": snapshot["chat"]})
        == '{"chat":[{"name":"A","text":"ciao","at":1.0,"seq":3}]}'
    )
    assert list(info) == ["id", "status", "config", "seats", "match_no", "created_by"]


def test_events() -> None:
    seats = [messages.seat(0, name=None, bot="random", connected=True, away=False, substitute=None)]
    away = messages.event("t", 5, messages.away(0, 60.0, "bot", seats))
    assert list(away) == ["type", "table", "seq", "kind", "seat", "deadline", "then", "seats"]
    assert encode(messages.event("t", 6, messages.forfeit(1, None))) == (
        '{"type":"event","table":"t","seq":6,"kind":"forfeit","seat":1,"line":null}'
    )
    line = messages.chat_line("A", "ciao", 1.0, seat=None, seq=4)
    assert encode(messages.event("t", 7, messages.chat(line))) == (
        '{"type":"event","table":"t","seq":7,"kind":"chat","name":"A","text":"ciao","at":1.0,'
        '"seat":null}'
    )
    ended = messages.smazzata_end(
        {}, [1, 2], deck="AS", salt="s", commitment="c", hands=[["AS"], []], next_deal_at=9.5
    )
    assert encode(messages.event("t", 8, ended)) == (
        '{"type":"event","table":"t","seq":8,"kind":"smazzata_end","score":{},"totals":[1,2],'
        '"reveal":{"deck":"AS","salt":"s","commitment":"c"},"hands":[["AS"],[]],'
        '"next_deal_at":9.5}'
    )
    last = messages.smazzata_end({}, [1, 2], deck="AS", salt="s", commitment="c", hands=[])
    assert "next_deal_at" not in last


def test_match_results_keep_their_key_order() -> None:
    plain = messages.match_result([1, 2], 1, "complete")
    assert encode(messages.match_end(plain)) == (
        '{"kind":"match_end","totals":[1,2],"winner":1,"ended":"complete"}'
    )
    technical = messages.match_result([1, 2], 0, "timeout", mp=[3, -3], vp=[18, 2], technical=True)
    assert list(technical) == ["totals", "winner", "ended", "mp", "vp", "technical"]
    scored = messages.match_result([1, 2], 1, "complete", mp=[-3, 3], vp=[8, 12])
    assert list(scored) == ["totals", "winner", "ended", "mp", "vp"]


def test_a_meld_has_one_shape_in_events_and_views() -> None:
    """``opened`` and ``attached`` carry the meld as the view's ``lines`` do (8 keys)."""
    rules = find_rules("italian", players=2, smazzate=1)
    rng = random.Random(7)
    seen = 0
    for _ in range(20):
        state = Match(rules, first=0).deal(deck=fresh_deck(rules).deck, first=0)
        while not state.is_over and seen < 5:
            events = state.apply(rng.choice(state.legal_actions()))
            for event in events:
                if isinstance(event, Opened | Attached):
                    sent = event_json(event, rules)["meld"]
                    lines = state.view(event.seat).to_json()["lines"]
                    melds = next(ln["melds"] for ln in lines if ln["line"] == event.line)
                    assert sent == melds[event.number - 1]
                    assert list(sent) == [
                        "number", "kind", "cards", "notation", "wild", "length", "points",
                        "burraco",
                    ]  # fmt: skip
                    seen += 1
        if seen >= 5:
            break
    assert seen >= 5


def test_review_news() -> None:
    """A review the user asked for has ended (server/reviews.py; docs/protocol.md)."""
    assert encode(messages.review_news("t", 2, 1, "done")) == (
        '{"type":"review","table":"t","match":2,"seat":1,"status":"done"}'
    )
