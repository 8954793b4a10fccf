"""Online tournaments through the real server (uvicorn on loopback, its own SQLite database).

An 8-bot Sit&Go plays all its rounds on server tables to a final ranking while a watcher
receives the standings over the WebSocket as they change (never asking for them); the HTTP API
(create, list, register, unregister, bots) with its refusals; and a restart in the middle of a
tournament, after which the tournament goes on to its end.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ._live import LiveServer, Peer, live_server

SETTINGS: dict[str, Any] = {
    "start": "sitgo",
    "size": 8,
    "system": "danish",
    "rounds": 3,
    "smazzate": 1,
    "between_smazzate": 0,
}
SERVER_OPTIONS: dict[str, Any] = {
    "bot_delay": 0.0,
    "disconnect_grace": 0.5,
    "substitute_bot": "greedy",
    "login_attempts_per_minute": 60_000.0,
    "messages_per_second": 1000.0,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("tournaments"), **SERVER_OPTIONS) as running:
        yield running
        assert running.traceback_free(), running.log()


def organiser(server: LiveServer) -> tuple[str, dict[str, Any], httpx.Client]:
    token, user = server.guest()
    return token, user, server.client(token)


def create(client: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tournaments", json=SETTINGS | body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code, answer.text


def follow(peer: Peer, tournament: str, timeout: float) -> list[dict[str, Any]]:
    """Every ``tournament`` message until the tournament is over."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while not seen or seen[-1]["tournament"]["status"] not in ("finished", "cancelled"):
        left = deadline - time.monotonic()
        assert left > 0, [m["reason"] for m in seen]
        message, _ = peer.until(
            lambda m: m["type"] == "tournament" and m["tournament"]["id"] == tournament, left
        )
        seen.append(message)
    return seen


def check_final(view: dict[str, Any], entrants: int, rounds: int) -> None:
    assert view["status"] == "finished" and view["finished_at"]
    assert view["rounds_total"] == rounds and len(view["rounds"]) == rounds
    for rnd in view["rounds"]:
        assert rnd["status"] == "finished"
        seated = [e["id"] for t in rnd["tables"] for line in t["lines"] for e in line]
        assert sorted(seated + [b["id"] for b in rnd["byes"]]) == sorted(
            e["id"] for e in view["entrants"]
        )
        for table in rnd["tables"]:
            result = table["result"]
            assert table["table_id"] and result is not None
            assert sum(result["vp"]) == 20 and result["mp"][0] == -result["mp"][1]
            if result["timed_out"] is None:
                assert result["mp"][0] == result["totals"][0] - result["totals"][1]
    standings = view["standings"]
    assert len(standings) == entrants
    assert standings[0]["place"] == 1
    keys = [(row["vp"], row["mp"]) for row in standings]
    assert keys == sorted(keys, reverse=True)
    assert sum(row["vp"] for row in standings) == 10 * entrants * rounds  # 20 VP per table
    assert all(row["played"] == rounds for row in standings)


def test_an_eight_bot_sit_and_go_runs_to_a_final_ranking(server: LiveServer) -> None:
    token, _user, client = organiser(server)
    with client, server.peer(token) as watcher:
        tournament = create(client, name="Sit&Go of bots", round_seconds=600, hand_seconds=60)
        tid = tournament["id"]
        assert tournament["status"] == "registering" and tournament["registration_open"]
        watcher.send({"type": "watch_tournament", "tournament": tid})
        first, _ = watcher.until(lambda m: m["type"] == "tournament")
        assert first["reason"] == "watch" and first["tournament"]["entrant_count"] == 0
        answer = client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 8})
        assert answer.status_code == 200, answer.text
        names = [e["name"] for e in answer.json()["entrants"]]
        assert names and all(n.startswith("Bot Easy ") and "greedy" not in n for n in names)
        started = time.monotonic()
        messages = follow(watcher, tid, timeout=120)
        elapsed = time.monotonic() - started
        final = messages[-1]["tournament"]
        check_final(final, entrants=8, rounds=3)
        assert final == client.get(f"/api/tournaments/{tid}").json() | {"registration_open": False}
        # Pushed as it changed: every round paired and every table's result, in order.
        reasons = [m["reason"] for m in messages]
        assert reasons.count("round") == 3
        assert reasons.count("result") + reasons.count("round") + 1 >= 3 * 4
        results_seen = [
            sum(t["result"] is not None for r in m["tournament"]["rounds"] for t in r["tables"])
            for m in messages
        ]
        assert results_seen == sorted(results_seen) and results_seen[-1] == 12
        # Each round's tables were real server tables that played one smazzata.
        for rnd in final["rounds"]:
            for table in rnd["tables"]:
                info = client.get(f"/api/tables/{table['table_id']}").json()
                assert info["status"] == "finished"
                config = info["config"]
                assert config["tournament"] == tid and config["smazzate"] == 1
                assert (config["round_seconds"], config["hand_seconds"]) == (600, 60)  # T5, T11
                assert client.get(f"/api/tables/{table['table_id']}/record").status_code == 200
        # Round 2 and 3 were paired by the standings (no rematch of the previous round).
        for before, after in zip(final["rounds"], final["rounds"][1:], strict=False):
            met = {
                frozenset(e["id"] for line in t["lines"] for e in line) for t in before["tables"]
            }
            now = {frozenset(e["id"] for line in t["lines"] for e in line) for t in after["tables"]}
            if after["number"] < 3:
                assert not met & now
        assert elapsed < 60, elapsed
        listed = {t["id"]: t for t in client.get("/api/tournaments").json()}
        assert listed[tid]["status"] == "finished" and listed[tid]["entrant_count"] == 8


def test_registration_over_http(server: LiveServer) -> None:
    _token, user, client = organiser(server)
    others = [server.guest() for _ in range(3)]
    with client:
        created = create(client, size=4, rounds=1, smazzate=2)
        # T16: the VP table is part of the tournament, shown before the start (VP-2 for rounds
        # of 2 smazzate).
        assert created["vp_table"] == "VP-2" and created["vp_rows"][0] == ["0 – 40", 10, 10]
        assert created["vp_rows"][-1] == ["≥ 1005", 20, 0]
        tid = created["id"]
        path = f"/api/tournaments/{tid}"
        with server.client() as anonymous:
            refused(anonymous.post(f"{path}/register"), 401, "not_authenticated")
            assert anonymous.get(path).status_code == 200  # anyone may look
        assert client.post(f"{path}/register").status_code == 200
        refused(client.post(f"{path}/register"), 409, "already_registered")
        view = client.post(f"{path}/unregister").json()
        assert view["entrants"] == []
        refused(client.post(f"{path}/unregister"), 409, "not_registered")
        with server.client(others[0][0]) as other:
            refused(other.post(f"{path}/bots", json={"level": "greedy"}), 403, "forbidden")
            assert other.post(f"{path}/register").status_code == 200
        refused(client.post(f"{path}/bots", json={"level": "cmd"}), 422, "no_such_bot")
        refused(client.post(f"{path}/bots", json={"level": "nobody"}), 422, "no_such_bot")
        refused(client.get("/api/tournaments/nope"), 404, "no_such_tournament")
        view = client.post(f"{path}/bots", json={"level": "greedy", "count": 5}).json()
        # Only 3 places were left: the Sit&Go is full and starts.
        assert view["status"] == "running" and view["entrant_count"] == 4
        assert [e["status"] for e in view["entrants"]] == ["playing"] * 4
        refused(client.post(f"{path}/register"), 409, "not_registering")
        with server.client(others[1][0]) as late:
            refused(late.post(f"{path}/register"), 409, "not_registering")
        # The human entrant has a seat at a server table of round 1.
        human = f"u{others[0][1]['id']}"
        tables = view["rounds"][0]["tables"]
        mine = [t for t in tables for line in t["lines"] for e in line if e["id"] == human]
        assert len(mine) == 1 and mine[0]["table_id"]
        seats = client.get(f"/api/tables/{mine[0]['table_id']}").json()["seats"]
        assert others[0][1]["name"] in [s["name"] for s in seats]
        assert user["id"] not in [e["user_id"] for e in view["entrants"]]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"size": 5}, "bad_tournament"),  # not a multiple of 2
        ({"size": 2}, "bad_request"),
        ({"start": "sitgo", "size": None}, "bad_tournament"),
        ({"start": "scheduled"}, "bad_tournament"),  # no starts_at
        ({"start": "scheduled", "starts_at": "2020-01-01T00:00:00Z"}, "bad_tournament"),
        ({"kind": "individual_four", "system": "knockout"}, "bad_tournament"),
        ({"rules": "nope"}, "bad_rules"),
        ({"system": "swiss"}, "bad_request"),
        ({"round_seconds": 10}, "bad_rules"),
        ({"options": {"smazzate": 20}}, "bad_rules"),  # the tournament's smazzate decide
    ],
)
def test_bad_tournaments_are_refused(server: LiveServer, body: dict[str, Any], code: str) -> None:
    _token, _user, client = organiser(server)
    with client:
        refused(client.post("/api/tournaments", json=SETTINGS | body), 422, code)


def test_a_human_entrant_is_told_his_table_and_a_bot_plays_for_him(server: LiveServer) -> None:
    token, user, client = organiser(server)
    with client, server.peer(token) as peer:
        tid = create(client, size=4, rounds=1, absent="bot", absent_seconds=1)["id"]
        assert client.post(f"/api/tournaments/{tid}/register").status_code == 200
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3})
        notice, _ = peer.until(lambda m: m["type"] == "tournament_notice", timeout=10)
        assert notice["notice"] == "table" and notice["round"] == 1
        # He never comes to the table: a bot takes his seat and the round ends.
        peer.send({"type": "watch_tournament", "tournament": tid})
        final = follow(peer, tid, timeout=60)[-1]["tournament"]
        check_final(final, entrants=4, rounds=1)
        info = client.get(f"/api/tables/{notice['table']}").json()
        assert [s["name"] for s in info["seats"] if s["name"]] == [user["name"]]


def test_an_absent_player_forfeits_when_the_tournament_says_so(server: LiveServer) -> None:
    token, _user, client = organiser(server)
    with client, server.peer(token) as peer:
        tid = create(client, size=4, rounds=1, absent="forfeit", absent_seconds=1)["id"]
        assert client.post(f"/api/tournaments/{tid}/register").status_code == 200
        peer.send({"type": "watch_tournament", "tournament": tid})
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3})
        final = follow(peer, tid, timeout=60)[-1]["tournament"]
        me = f"u{_user['id']}"
        table = next(
            t
            for t in final["rounds"][0]["tables"]
            if me in [e["id"] for line in t["lines"] for e in line]
        )
        line = 0 if me in [e["id"] for e in table["lines"][0]] else 1
        result = table["result"]
        assert result["ended"] == "forfeit" and result["timed_out"] == line
        assert result["mp"][line] <= -355 and result["vp"][line] <= 6  # T14
        row = next(r for r in final["standings"] if r["entrant"] == me)
        assert row["vp"] == result["vp"][line] and row["mp"] == result["mp"][line]


@pytest.mark.parametrize("stop", ["terminate", "kill"])
def test_a_restart_resumes_a_running_tournament(tmp_path: Path, stop: str) -> None:
    """The server stops (cleanly, or killed at once) while round 2 is played; started again on
    the same database, its tables resume and the tournament goes on to its final ranking."""
    data = tmp_path / "restart"
    with live_server(data, **SERVER_OPTIONS) as first:
        token, _user, client = organiser(first)
        with client:
            tid = create(client, rounds=3, smazzate=2, between_smazzate=1)["id"]
            client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 8})
            deadline = time.monotonic() + 60
            while True:  # stop the server while round 2 is being played on its tables
                view = client.get(f"/api/tournaments/{tid}").json()
                if len(view["rounds"]) >= 2 and all(
                    t["table_id"] for t in view["rounds"][1]["tables"]
                ):
                    break
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert view["status"] == "running"
        process = first._process
        assert process is not None
        if stop == "kill":
            process.kill()
            process.wait()
    with live_server(data, **SERVER_OPTIONS) as second, second.peer(token) as watcher:
        watcher.send({"type": "watch_tournament", "tournament": tid})
        final = follow(watcher, tid, timeout=120)[-1]["tournament"]
        check_final(final, entrants=8, rounds=3)
        resumed = re.search(r"ready \((\d+) tables resumed\)", second.log())
        assert resumed is not None and int(resumed.group(1)) >= 1  # round 2 or 3 was playing
        assert second.traceback_free(), second.log()


@pytest.mark.parametrize(
    ("system", "kind", "entrants", "rounds"),
    [
        ("round_robin", "individual", 4, 3),
        ("mitchell", "individual", 6, 3),
        ("knockout", "individual", 6, 3),
        ("round_robin", "individual", 6, 5),
        ("round_robin", "pairs", 4, 3),
        ("danish", "individual_four", 8, 2),
    ],
)
def test_other_systems_run_to_a_final_ranking(
    server: LiveServer, system: str, kind: str, entrants: int, rounds: int
) -> None:
    token, _user, client = organiser(server)
    with client, server.peer(token) as watcher:
        size = entrants
        rounds_asked = rounds if system == "danish" else None
        tid = create(client, system=system, kind=kind, size=size, rounds=rounds_asked)["id"]
        watcher.send({"type": "watch_tournament", "tournament": tid})
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": size})
        final = follow(watcher, tid, timeout=120)[-1]["tournament"]
    assert final["status"] == "finished" and len(final["rounds"]) == rounds
    ids = {e["id"] for e in final["entrants"]}
    pairs = [
        frozenset(e["id"] for line in t["lines"] for e in line)
        for r in final["rounds"]
        for t in r["tables"]
    ]
    standings = final["standings"]
    assert {row["entrant"] for row in standings} == ids
    seats = 2 if kind == "individual" else 4
    for table in (t for r in final["rounds"] for t in r["tables"]):
        info = httpx.get(f"{server.url}/api/tables/{table['table_id']}", trust_env=False).json()
        assert len(info["seats"]) == seats and all(s["bot"] == "greedy" for s in info["seats"])
    if kind == "individual_four":  # a new partner each round
        partners = [
            frozenset(e["id"] for e in line)
            for r in final["rounds"]
            for t in r["tables"]
            for line in t["lines"]
        ]
        assert all(len(p) == 2 for p in partners) and len(set(partners)) == len(partners)
    if system in ("round_robin", "mitchell"):
        assert len(set(pairs)) == len(pairs)  # nobody meets twice
    if system == "round_robin":
        assert len(pairs) == size * (size - 1) // 2
    if system == "knockout":
        # 6 entrants -> a bracket of 8 with 2 byes in round 1; then 2 and 1 matches.
        assert [len(r["tables"]) for r in final["rounds"]] == [2, 2, 1]
        assert [len(r["byes"]) for r in final["rounds"]] == [2, 0, 0]
        places = [row["place"] for row in standings]
        assert places == [1, 2, 3, 3, 5, 5]  # T25: ex aequo by the round of elimination
        (last,) = final["rounds"][-1]["tables"]
        winner_line = last["result"]["winner"]
        assert standings[0]["entrant"] == last["lines"][winner_line][0]["id"]
    else:
        keys = [(row["vp"], row["mp"]) for row in standings]
        assert keys == sorted(keys, reverse=True)


def test_watching_an_unknown_tournament_is_an_error(server: LiveServer) -> None:
    token, _user, _client = organiser(server)
    with server.peer(token) as peer:
        peer.send({"type": "watch_tournament", "tournament": "nope"})
        assert peer.error()["code"] == "no_such_tournament"
        peer.send({"type": "watch_tournament", "tournament": "not an id!"})
        assert peer.error()["code"] == "bad_message"
        peer.send({"type": "unwatch_tournament", "tournament": "nope"})
        peer.ping()  # the connection is still usable


def test_the_tournament_routes_are_in_the_openapi_description(server: LiveServer) -> None:
    with server.client() as client:
        spec = client.get("/api/openapi.json").json()
    paths = spec["paths"]
    assert set(paths["/api/tournaments"]) == {"get", "post"}
    for action in ("register", "unregister", "bots"):
        assert "post" in paths[f"/api/tournaments/{{tournament_id}}/{action}"], action
    schemas = spec["components"]["schemas"]
    assert {"NewTournament", "TournamentOut", "TournamentErrorOut"} <= set(schemas)
    new = schemas["NewTournament"]["properties"]
    assert {"start", "size", "starts_at", "kind", "system", "smazzate", "absent"} <= set(new)
    created = paths["/api/tournaments"]["post"]["responses"]["201"]
    assert created["content"]["application/json"]["schema"]["$ref"].endswith("TournamentOut")


def test_a_pair_plays_only_once_the_partner_confirms_over_http(server: LiveServer) -> None:
    _token, _user, client = organiser(server)
    (mate_token, mate), (stranger_token, _stranger) = server.guest(), server.guest()
    with client:
        tid = create(client, size=4, kind="pairs", rounds=1, smazzate=2)["id"]
        path = f"/api/tournaments/{tid}"
        view = client.post(f"{path}/register", json={"partner": mate["name"]}).json()
        assert [e["status"] for e in view["entrants"]] == ["invited"]
        assert view["entrant_count"] == 0
        refused(client.post(f"{path}/confirm"), 409, "no_invitation")  # the registrant cannot
        with server.client(stranger_token) as stranger:
            refused(stranger.post(f"{path}/confirm"), 409, "no_invitation")
            assert stranger.get("/api/tournaments/invitations").json() == []
        with server.client() as anonymous:
            refused(anonymous.get("/api/tournaments/invitations"), 401, "not_authenticated")
            refused(anonymous.post(f"{path}/confirm"), 401, "not_authenticated")
        with server.client(mate_token) as partner:
            (invitation,) = partner.get("/api/tournaments/invitations").json()
            assert invitation["tournament"] == tid
            assert invitation["pair"] == view["entrants"][0]["name"]
            view = partner.post(f"{path}/confirm").json()
            assert [e["status"] for e in view["entrants"]] == ["registered"]
            assert view["entrant_count"] == 1
            assert partner.get("/api/tournaments/invitations").json() == []


def test_partial_elimination_t21_leaves_the_losers_of_round_one_out(server: LiveServer) -> None:
    token, _user, client = organiser(server)
    with client, server.peer(token) as watcher:
        refused(
            client.post("/api/tournaments", json=SETTINGS | {"elimination": {"3": 10}}),
            422,
            "bad_tournament",  # T21: after round 3 of 3 nobody is left to play
        )
        refused(
            client.post(
                "/api/tournaments",
                json=SETTINGS | {"system": "round_robin", "elimination": {"1": 10}},
            ),
            422,
            "bad_tournament",  # T21 is a Danish variant
        )
        # 8 bots, 3 rounds; after round 1 whoever has less than 10 VP (lost the table) is out.
        tid = create(client, name="T21", elimination={"1": 10})["id"]
        watcher.send({"type": "watch_tournament", "tournament": tid})
        watcher.until(lambda m: m["type"] == "tournament")
        answer = client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 8})
        assert answer.status_code == 200, answer.text
        final = follow(watcher, tid, timeout=120)[-1]["tournament"]
        assert final["status"] == "finished" and final["settings"]["elimination"] == {"1": 10}
        first, *later = final["rounds"]
        vp_after_first = {
            e["id"]: vp
            for t in first["tables"]
            for line, vp in zip(t["lines"], t["result"]["vp"], strict=True)
            for e in line
        }
        out = {e for e, vp in vp_after_first.items() if vp < 10}
        assert final["eliminated"] == dict.fromkeys(out, 1)
        assert out  # 4 tables: a 10-10 tie everywhere is not what greedy bots play
        for rnd in later:  # the eliminated sit out every following round, without a bye
            present = {e["id"] for t in rnd["tables"] for line in t["lines"] for e in line}
            present |= {b["id"] for b in rnd["byes"]}
            assert present == set(vp_after_first) - out
        # They keep their place in the ranking with the VP they had (T21).
        rows = {row["entrant"]: row for row in final["standings"]}
        assert len(rows) == 8
        assert all(rows[e]["vp"] == vp_after_first[e] and rows[e]["played"] == 1 for e in out)
