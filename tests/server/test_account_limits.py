"""What one account may start and hold (issue 19, M1): tables waiting or in play, tables where
only bots play, bots in a tournament; and a started table nobody seated ever opens ends."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from .inprocess import InProcess, running_app

BOT_TABLE = {"players": 2, "smazzate": 1, "seat": None, "bots": {"0": "greedy", "1": "greedy"}}
ME_AND_A_BOT = {"players": 2, "smazzate": 1, "seat": 0, "bots": {"1": "greedy"}}


def _refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == code, body
    message: str = body["message"]
    return message


SIT_AND_GO = {
    "name": "Bots",
    "start": "sitgo",
    "size": 8,
    "system": "danish",
    "rounds": 1,
    "smazzate": 1,
    "between_smazzate": 0,
}


async def _registered(app: InProcess, name: str) -> dict[str, str]:
    """A registered person's bearer header (tournaments and bot accounts are not for guests)."""
    response = await app.http.post(
        "/api/register", json={"name": name, "password": "a good password"}
    )
    assert response.status_code == 201, response.text
    app.http.cookies.clear()
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def _tables(app: InProcess) -> int:
    return len(app.hub.tables)


def test_bot_only_tables_are_bounded_per_account(tmp_path: Path) -> None:
    async def scenario() -> None:
        # Slow bots: the tables are still in play when the next one is asked for.
        async with running_app(tmp_path, bot_delay=30.0, max_bot_tables_per_user=2) as app:
            user = await app.guest()
            for _ in range(2):
                created = await app.http.post("/api/tables", json=BOT_TABLE, headers=user)
                assert created.status_code == 201, created.text
            before = await _tables(app)
            message = _refused(
                await app.http.post("/api/tables", json=BOT_TABLE, headers=user),
                429,
                "too_many_bots",
            )
            assert "at most 2" in message
            assert await _tables(app) == before, "the refused table was not created"
            # Filling the last seat of an open table with a bot is the same request.
            open_table = await app.http.post(
                "/api/tables", json=BOT_TABLE | {"bots": {"0": "greedy"}}, headers=user
            )
            assert open_table.status_code == 201, open_table.text
            table = open_table.json()["id"]
            _refused(
                await app.http.post(
                    f"/api/tables/{table}/bots", json={"seat": 1, "level": "greedy"}, headers=user
                ),
                429,
                "too_many_bots",
            )
            # Another account is not held by the first one's tables.
            other = await app.guest()
            created = await app.http.post("/api/tables", json=BOT_TABLE, headers=other)
            assert created.status_code == 201, created.text

    asyncio.run(scenario())


def test_tables_in_play_are_bounded_per_account(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path, bot_delay=30.0, max_live_tables_per_user=3) as app:
            user = await app.guest()
            for _ in range(3):  # each starts at once: the creator sits, a bot takes seat 1
                created = await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=user)
                assert created.status_code == 201, created.text
                assert created.json()["status"] == "playing"
            message = _refused(
                await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=user),
                429,
                "too_many_tables",
            )
            assert "waiting or in play (at most 3)" in message

    asyncio.run(scenario())


def test_sitting_at_others_tables_counts_against_the_same_bound(tmp_path: Path) -> None:
    """One account sat at 25 other people's tables, each then started (a black-box test):
    taking a seat is one more live table like creating one, refused past the bound and with
    nothing changed; one's own table, stood up from and sat at again, is not counted twice."""

    async def scenario() -> None:
        async with running_app(tmp_path, bot_delay=30.0, max_live_tables_per_user=2) as app:
            sitter, owners = await app.guest(), [await app.guest() for _ in range(3)]
            waiting = {"players": 2, "smazzate": 1, "seat": 0}
            ids = []
            for owner in owners:
                created = await app.http.post("/api/tables", json=waiting, headers=owner)
                assert created.status_code == 201, created.text
                ids.append(created.json()["id"])
            for table in ids[:2]:
                sat = await app.http.post(
                    f"/api/tables/{table}/sit", json={"seat": 1}, headers=sitter
                )
                assert sat.status_code == 200 and sat.json()["status"] == "playing", sat.text
            message = _refused(
                await app.http.post(f"/api/tables/{ids[2]}/sit", json={"seat": 1}, headers=sitter),
                429,
                "too_many_tables",
            )
            assert "at most 2" in message
            info = (await app.http.get(f"/api/tables/{ids[2]}")).json()
            assert info["status"] == "open" and info["seats"][1]["name"] is None
            # An owner at his limit stands up from his own open table and sits again.
            mine = await app.http.post("/api/tables", json=waiting, headers=owners[2])
            assert mine.status_code == 201, mine.text
            table = mine.json()["id"]
            stood = await app.http.post(f"/api/tables/{table}/stand", headers=owners[2])
            assert stood.status_code == 200, stood.text
            again = await app.http.post(
                f"/api/tables/{table}/sit", json={"seat": 0}, headers=owners[2]
            )
            assert again.status_code == 200, again.text

    asyncio.run(scenario())


def test_a_table_nobody_seated_ever_opens_ends_with_no_winner(tmp_path: Path) -> None:
    async def scenario() -> list[dict[str, Any]]:
        async with running_app(tmp_path, bot_delay=30.0, unjoined_table_seconds=0.3) as app:
            user = await app.guest()
            created = await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=user)
            table = created.json()["id"]

            async def ended() -> bool:
                stored = await app.hub.store.table(table)
                return stored is not None and stored.status == "finished"

            await app.until(ended, timeout=20)
            matches: list[dict[str, Any]] = (await app.http.get("/api/matches")).json()
            return matches

    (match,) = asyncio.run(scenario())
    assert match["ended"] == "forfeit" and match["winner"] is None


def test_bots_in_a_tournament_are_bounded(tmp_path: Path) -> None:

    async def scenario() -> None:
        async with running_app(tmp_path, max_tournament_bots=4) as app:
            user = await _registered(app, "organiser")
            created = await app.http.post("/api/tournaments", json=SIT_AND_GO, headers=user)
            assert created.status_code == 201, created.text
            path = f"/api/tournaments/{created.json()['id']}/bots"
            added = await app.http.post(path, json={"level": "greedy", "count": 3}, headers=user)
            assert added.status_code == 200, added.text
            message = _refused(
                await app.http.post(path, json={"level": "greedy", "count": 2}, headers=user),
                429,
                "too_many_bots",
            )
            assert "at most 4 bots (3 entered already)" in message

    asyncio.run(scenario())


def test_an_organiser_cannot_add_up_many_tournaments_of_bots(tmp_path: Path) -> None:
    """Bots are bounded over all of an organiser's tournaments not finished, and so is the
    number of such tournaments (issue 19, M1: 16 bots per tournament times any number of
    Sit&Gos was hundreds of bot tables for one account)."""

    async def scenario() -> None:
        async with running_app(
            tmp_path, max_tournament_bots=4, max_organiser_bots=6, max_tournaments_per_user=3
        ) as app:
            user = await _registered(app, "organiser")
            paths = []
            for _ in range(3):
                created = await app.http.post("/api/tournaments", json=SIT_AND_GO, headers=user)
                assert created.status_code == 201, created.text
                paths.append(f"/api/tournaments/{created.json()['id']}/bots")
            refused = await app.http.post("/api/tournaments", json=SIT_AND_GO, headers=user)
            assert "3 tournaments not finished" in _refused(refused, 429, "too_many_tables")
            assert refused.json()["detail"] == {"code": "tournaments", "params": {"limit": 3}}
            bots = {"level": "greedy", "count": 3}
            for path in paths[:2]:
                added = await app.http.post(path, json=bots, headers=user)
                assert added.status_code == 200, added.text
            message = _refused(
                await app.http.post(paths[2], json={"level": "greedy", "count": 1}, headers=user),
                429,
                "too_many_bots",
            )
            assert "already have 6 bots (at most 6)" in message
            view = (await app.http.get(paths[2].removesuffix("/bots"))).json()
            assert not [e for e in view["entrants"] if e.get("bot")], "nothing was entered"

    asyncio.run(scenario())


def test_quick_play_and_rematches_keep_within_the_live_limit(tmp_path: Path) -> None:
    """Quick play and a rematch start live tables too (issue 19, M1, the black-box re-test:
    eight quick-play calls past the limit gave 29 live tables, and rematches as many)."""

    async def scenario() -> None:
        async with running_app(
            tmp_path, bot_delay=30.0, unjoined_table_seconds=0.3, max_live_tables_per_user=2
        ) as app:
            user = await app.guest()
            created = await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=user)
            finished = created.json()["id"]

            async def ended() -> bool:
                stored = await app.hub.store.table(finished)
                return stored is not None and stored.status == "finished"

            await app.until(ended, timeout=20)  # never opened: it ends (forfeit)
            for _ in range(2):
                created = await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=user)
                assert created.status_code == 201, created.text
            quick = {"players": 2, "clock": "none", "rated": False, "bots_after": 0}
            message = _refused(
                await app.http.post("/api/quickplay", json=quick, headers=user),
                429,
                "too_many_tables",
            )
            assert "waiting or in play (at most 2)" in message
            _refused(
                await app.http.post(f"/api/tables/{finished}/rematch", headers=user),
                429,
                "too_many_tables",
            )
            assert (await app.hub.store.table(finished)).status == "finished"  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_a_bot_account_sits_at_the_tables_it_creates(tmp_path: Path) -> None:
    """Its limits count the tables it sits at; one it would not sit at is refused (issue 19,
    M1: three bot accounts gave their owner four times his own limits)."""

    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            owner = await _registered(app, "owner")
            bot = await app.http.post("/api/account/bots", json={"name": "robo"}, headers=owner)
            assert bot.status_code in (200, 201), bot.text
            robo = {"Authorization": f"Bearer {bot.json()['token']}"}
            answer = await app.http.post("/api/tables", json=BOT_TABLE, headers=robo)
            _refused(answer, 403, "forbidden")
            assert answer.json()["detail"]["code"] == "bot_must_sit"
            sits = await app.http.post("/api/tables", json=ME_AND_A_BOT, headers=robo)
            assert sits.status_code == 201, sits.text

    asyncio.run(scenario())
