"""A same-cards ("carte uguali") Sit&Go through the ASGI app in process (docs/tournaments.md,
"Same cards"): six bots and one person (whose seat a bot takes when he does not come) play two
rounds on three tables; while a round is played its finished tables show no result and their
records are refused; at the end every table of a round played the same decks in the same seats
(read from the stored records), the revealed decks match the commitments published at the
round's start, and the standings are the documented comparison recomputed from the records."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from burraco.engine.record import read_record
from burraco.engine.vp import vp_table
from burraco.server.tournament.records import deals_of
from burraco.server.tournament.samecards import hidden_among
from burraco.tournament import PlayedTable, compare

from ._live import live_server
from .inprocess import InProcess, app_server, running_app

SETTINGS: dict[str, Any] = {
    "start": "sitgo",
    "size": 6,
    "system": "danish",
    "rounds": 2,
    "smazzate": 2,
    "between_smazzate": 0,
    "same_cards": True,
    "absent": "bot",
    "absent_seconds": 4,
}


async def view(app: InProcess, tid: str) -> dict[str, Any]:
    answer = await app.http.get(f"/api/tournaments/{tid}")
    assert answer.status_code == 200, answer.text
    shown: dict[str, Any] = answer.json()
    return shown


def test_a_same_cards_sit_and_go_runs_to_its_standings(tmp_path: Path) -> None:
    asyncio.run(_sit_and_go(tmp_path))


async def _carla(app: InProcess) -> dict[str, str]:
    """carla registers: her bearer header."""
    signed = await app.http.post(
        "/api/register", json={"name": "carla", "password": "a good password"}
    )
    assert signed.status_code == 201, signed.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {signed.json()['token']}"}


async def _sit_and_go(tmp_path: Path) -> None:
    async with running_app(tmp_path, substitute_bot="greedy", disconnect_grace=4.0) as app:
        organiser = await app.guest()
        person = await _carla(app)
        made = await app.http.post("/api/tournaments", json=SETTINGS, headers=organiser)
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        assert made.json()["settings"]["same_cards"] is True
        joined = await app.http.post(f"/api/tournaments/{tid}/register", headers=person)
        assert joined.status_code == 200, joined.text
        added = await app.http.post(
            f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 5}, headers=organiser
        )
        assert added.status_code == 200, added.text

        # Round 1 is being played: the person's table waits for him (a bot comes after 4 s);
        # the bots' tables finish first and show nothing but that they have finished.
        async def one_finished() -> bool:
            shown = await view(app, tid)
            tables = shown["rounds"][0]["tables"] if shown["rounds"] else []
            return any(t.get("finished", False) for t in tables)

        await app.until(one_finished, timeout=60)
        shown = await view(app, tid)
        first = shown["rounds"][0]
        assert first["status"] == "playing"  # the person's table waits 4 s for him
        assert all(t["result"] is None for t in first["tables"])
        assert all("deck" not in d for d in first["same_cards"]["deals"])
        assert len(first["same_cards"]["deals"]) == 2
        done = next(t for t in first["tables"] if t["finished"])
        for what in ("record", "replay"):
            hidden = await app.http.get(f"/api/tables/{done['table_id']}/{what}")
            assert hidden.status_code == 403, hidden.text
            assert hidden.json()["error"] == "same_cards_hidden"
        # Nor its reviews, which show its actions (issue 19: they were asked for and read).
        table = done["table_id"]
        for hidden in (
            await app.http.post(f"/api/tables/{table}/review", json={"seat": 0}, headers=person),
            await app.http.get(f"/api/tables/{table}/review?seat=0"),
            await app.http.get(f"/api/tables/{table}/reviews"),
        ):
            assert hidden.status_code == 403, hidden.text
            assert hidden.json()["error"] == "same_cards_hidden"
        assert shown["standings"] and all(r["vp"] == 0 for r in shown["standings"])
        round_tables = [t["table_id"] for t in first["tables"]]
        assert await hidden_among(app.hub.store, round_tables) == set(round_tables)

        async def finished() -> bool:
            status: str = (await view(app, tid))["status"]
            return status == "finished"

        await app.until(finished, timeout=240)
        final = await view(app, tid)
        await check_against_the_records(app, final)
        every = [t["table_id"] for r in final["rounds"] for t in r["tables"]]
        assert await hidden_among(app.hub.store, every) == set()
        profile = await app.http.get("/api/players/carla")
        assert profile.status_code == 200, profile.text
        assert {m["table"] for m in profile.json()["recent"]} <= set(every)
        assert len(profile.json()["recent"]) == 2  # both rounds, now that they are over


def test_a_same_cards_pairs_sit_and_go_compares_the_partnerships(tmp_path: Path) -> None:
    """4-player tables: the lines are the partnerships (seats 0 and 2, 1 and 3)."""

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            organiser = await app.guest()
            body = SETTINGS | {"kind": "pairs", "size": 4}
            made = await app.http.post("/api/tournaments", json=body, headers=organiser)
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            added = await app.http.post(
                f"/api/tournaments/{tid}/bots",
                json={"level": "greedy", "count": 4},
                headers=organiser,
            )
            assert added.status_code == 200, added.text

            async def finished() -> bool:
                status: str = (await view(app, tid))["status"]
                return status == "finished"

            await app.until(finished, timeout=240)
            await check_against_the_records(app, await view(app, tid), tables=2, entrants=4)

    asyncio.run(scenario())


async def check_against_the_records(
    app: InProcess | httpx.AsyncClient,
    final: dict[str, Any],
    *,
    tables: int = 3,
    entrants: int = 6,
) -> None:
    http = app.http if isinstance(app, InProcess) else app
    table = vp_table(final["vp_table"])
    smazzate = final["settings"]["smazzate"]
    assert final["vp_table"] == f"VP-{smazzate}"  # auto
    vp: dict[str, int] = defaultdict(int)
    mp: dict[str, int] = defaultdict(int)
    assert len(final["rounds"]) == 2
    for rnd in final["rounds"]:
        assert rnd["status"] == "finished" and len(rnd["tables"]) == tables
        revealed = rnd["same_cards"]["deals"]
        for deal in revealed:  # the decks revealed match the commitments published at the start
            text = f"{deal['deck']} {deal['salt']}"
            assert hashlib.sha256(text.encode()).hexdigest() == deal["commitment"]
        played = []
        decks = set()
        for t in rnd["tables"]:
            answer = await http.get(f"/api/tables/{t['table_id']}/record")
            assert answer.status_code == 200, answer.text
            record = read_record(answer.text)
            hands = [(h.first, " ".join(str(c) for c in h.deck or ())) for h in record.hands]
            decks.add(tuple(hands))
            assert [deck for _, deck in hands] == [d["deck"] for d in revealed]
            assert hands[0][0] == rnd["same_cards"]["first"]
            fairness = [(f["commitment"], f["salt"]) for f in record.meta["fairness"]]
            assert fairness == [(d["commitment"], d["salt"]) for d in revealed]
            assert t["result"]["ended"] == "complete"
            deals = deals_of(answer.text)
            assert [list(d) for d in deals] == t["result"]["deals"]
            played.append(PlayedTable(t["number"], deals))
        assert len(decks) == 1  # every table: the same decks, in order, the same first seats
        compared = compare(played, table)
        for t in rnd["tables"]:
            c = compared[t["number"]]
            assert t["result"]["mp"] == list(c.mp) and t["result"]["vp"] == list(c.vp)
            assert [d["deal"] for d in t["result"]["comparison"]] == list(range(1, smazzate + 1))
            for i, line in enumerate(t["lines"]):
                for entrant in line:
                    vp[entrant["id"]] += c.vp[i]
                    mp[entrant["id"]] += c.mp[i]
    standings = final["standings"]
    assert len(standings) == entrants
    assert {r["entrant"]: (r["vp"], r["mp"]) for r in standings} == {e: (vp[e], mp[e]) for e in vp}
    keys = [(r["vp"], r["mp"]) for r in standings]
    assert keys == sorted(keys, reverse=True)  # T17
    assert sum(r["vp"] for r in standings) == 2 * tables * 20  # 2 rounds, 20 VP a table


def test_nobody_watches_a_table_of_a_same_cards_round_until_it_is_over(tmp_path: Path) -> None:
    """The reveal policy: a player of the round and an outsider are both refused a table of the
    round while any table plays it (the player stays away from his own: a bot plays it after 3
    s); after the round anyone may watch."""
    options = {"bot_delay": 0.0, "substitute_bot": "greedy", "disconnect_grace": 3.0}
    with app_server(tmp_path, **options) as server:
        organiser, _ = server.guest()
        player, _ = server.guest()
        outsider, _ = server.guest()
        body = SETTINGS | {"size": 4, "rounds": 1, "absent_seconds": 3}
        with server.client(organiser) as client, server.peer(player) as me:
            tid = client.post("/api/tournaments", json=body).json()["id"]
            with server.client(player) as mine:
                assert mine.post(f"/api/tournaments/{tid}/register").status_code == 200
            client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3})
            notice, _ = me.until(lambda m: m["type"] == "tournament_notice", timeout=20)
            shown = client.get(f"/api/tournaments/{tid}").json()
            tables = [t["table_id"] for t in shown["rounds"][0]["tables"]]
            other = next(t for t in tables if t != notice["table"])
            me.send({"type": "join", "table": other})
            refused = me.error()
            assert refused["code"] == "same_cards_hidden", refused
            with server.peer(outsider) as watcher:
                watcher.send({"type": "join", "table": notice["table"]})
                assert watcher.error()["code"] == "same_cards_hidden"
                me.send({"type": "watch_tournament", "tournament": tid})

                def over(m: dict[str, Any]) -> bool:
                    return m["type"] == "tournament" and bool(
                        m["tournament"]["status"] == "finished"
                    )

                me.until(over, timeout=120)
                snapshot = watcher.join(other)  # the round is over: anyone may watch
                assert snapshot["table"] == other


def test_a_same_cards_round_goes_on_with_its_decks_after_a_kill(tmp_path: Path) -> None:
    """The server is killed while round 2 is played; started again on the same database, its
    tables deal the rest of the round's decks (derived again from the stored seed) and the
    tournament ends with every table of each round on the same cards."""
    data = tmp_path / "restart"
    options = {"bot_delay": 0.0, "substitute_bot": "greedy", "messages_per_second": 1000.0}
    body = SETTINGS | {"size": 4, "smazzate": 3, "between_smazzate": 1}
    with live_server(data, **options) as first:
        token, _ = first.guest()
        with first.client(token) as client:
            tid = client.post("/api/tournaments", json=body).json()["id"]
            client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 4})
            deadline = time.monotonic() + 60
            while True:
                shown = client.get(f"/api/tournaments/{tid}").json()
                if len(shown["rounds"]) >= 2 and all(
                    t["table_id"] for t in shown["rounds"][1]["tables"]
                ):
                    break
                assert time.monotonic() < deadline
                time.sleep(0.05)
        process = first._process
        assert process is not None
        process.kill()
        process.wait()
    with live_server(data, **options) as second:

        async def after() -> None:
            async with httpx.AsyncClient(base_url=second.url, trust_env=False) as http:
                deadline = time.monotonic() + 120
                while (final := (await http.get(f"/api/tournaments/{tid}")).json())[
                    "status"
                ] != "finished":
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.1)
                await check_against_the_records(http, final, tables=2, entrants=4)

        asyncio.run(after())
        resumed = re.search(r"ready \((\d+) tables resumed\)", second.log())
        assert resumed is not None and int(resumed.group(1)) >= 1  # round 2 was being played
        assert second.traceback_free(), second.log()


def test_a_finished_table_of_a_round_still_played_stays_out_of_exports_and_lists(
    tmp_path: Path,
) -> None:
    """A player whose table of a same-cards round is over must not read its deck while the
    round's other tables still play it (a black-box test read the deal of the table next door
    through GET /api/account/export): his export withholds that record and his list of matches
    leaves it out until the round is over (its totals tell of the cards); then both show it."""
    asyncio.run(_exported(tmp_path))


async def _exported(tmp_path: Path) -> None:
    # Bots think 0.2 s a move: the bots' table plays on for a while after carla's has ended.
    async with running_app(tmp_path, bot_delay=0.2) as app:
        organiser = await app.guest()
        carla = await _carla(app)
        body = SETTINGS | {"size": 4, "rounds": 1, "smazzate": 1}
        body |= {"absent": "forfeit", "absent_seconds": 1}
        tid = (await app.http.post("/api/tournaments", json=body, headers=organiser)).json()["id"]
        joined = await app.http.post(f"/api/tournaments/{tid}/register", headers=carla)
        assert joined.status_code == 200, joined.text
        added = await app.http.post(
            f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 3}, headers=organiser
        )
        assert added.status_code == 200, added.text

        async def exported() -> list[dict[str, Any]]:
            answer = await app.http.get("/api/account/export", headers=carla)
            assert answer.status_code == 200, answer.text
            matches: list[dict[str, Any]] = answer.json()["matches"]
            return matches

        async def carla_lost() -> bool:  # by forfeit: she never came (T14)
            return bool(await exported())

        await app.until(carla_lost, timeout=60)
        assert (await view(app, tid))["rounds"][0]["status"] == "playing"
        (mine,) = await exported()
        assert mine["record"] is None and mine["withheld"] == "same_cards_hidden", mine
        listed = (await app.http.get("/api/matches?mine=true", headers=carla)).json()
        assert all(m["table"] != mine["table"] for m in listed), listed

        async def finished() -> bool:
            return bool((await view(app, tid))["status"] == "finished")

        await app.until(finished, timeout=240)
        (mine,) = await exported()
        assert "deck" in mine["record"] and "withheld" not in mine
        listed = (await app.http.get("/api/matches?mine=true", headers=carla)).json()
        assert any(m["table"] == mine["table"] for m in listed), listed
