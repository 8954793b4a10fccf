"""The store on both backends: accounts, sessions, tables and seats, the gameplay log with group
commit, chat, finished matches, and what a restarted server reads back to resume its tables."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from burraco.store import (
    ActionRecord,
    ChatRecord,
    NameTaken,
    SmazzataRecord,
    Store,
)
from burraco.store.models import Session as SessionRow

APPEND_FOREVER = Path(__file__).with_name("_append_forever.py")


@asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    store = await Store.open(url)
    try:
        yield store
    finally:
        await store.close()


async def new_table(store: Store, table_id: str, *, players: int = 2, **kw: Any) -> None:
    await store.create_table(
        table_id,
        created_by=kw.get("created_by"),
        config=kw.get("config", {"rules": "italian", "players": players}),
        public=kw.get("public", True),
        invite_code=kw.get("invite_code"),
        players=players,
    )


def action(seq: int, *, match_no: int = 1, number: int = 1, seat: int = 0) -> ActionRecord:
    """An action row with awkward values: a precise timestamp and a clock of floats."""
    return ActionRecord(
        seq=seq,
        match_no=match_no,
        number=number,
        seat=seat,
        action=f"{seat} discard {seq % 13 + 1}H",
        at=1_764_000_000.123456 + seq / 7,
        auto=seq % 5 == 0,
        clock={"banks": [300.0 - seq / 3, 299.5], "credited": [2.0, 4.0], "auto_plays": [0, 1]},
    )


def smazzata(number: int, seq: int, *, match_no: int = 1) -> SmazzataRecord:
    return SmazzataRecord(
        match_no=match_no,
        number=number,
        seq=seq,
        first=number % 2,
        late=False,
        deck=" ".join(["AH", "2C", "JK"] * 36),
        salt="ab" * 16,
        commitment="cd" * 32,
        dealt_at=1_764_000_000.5 + number,
        result=None,
        ended=None,
    )


# ------------------------------------------------------------------------------------- users


def test_user_names_are_unique_regardless_of_case(db_url: str) -> None:
    async def main() -> None:
        async with opened(db_url) as store:
            alice = await store.create_user("Alice", "hash-a")
            assert (alice.name, alice.is_guest, alice.password_hash) == ("Alice", False, "hash-a")
            for other in ("alice", "ALICE", "aLiCe"):
                with pytest.raises(NameTaken):
                    await store.create_user(other, "hash-b")
            found = await store.user_by_name("aLIce")
            assert found is not None and found.id == alice.id and found.name == "Alice"
            assert await store.user(alice.id) == found
            assert await store.user_by_name("bob") is None
            guest = await store.create_user("Ospite-12345", None, guest=True)
            assert guest.is_guest and guest.password_hash is None and guest.id != alice.id
            # Two registrations racing for one name in different cases: exactly one wins.
            results = await asyncio.gather(
                store.create_user("Carol", "h1"),
                store.create_user("CAROL", "h2"),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NameTaken", "UserInfo"]

    asyncio.run(main())


def test_sessions_expire_and_only_their_hash_is_stored(db_url: str) -> None:
    async def main() -> None:
        async with opened(db_url) as store:
            user = await store.create_user("Dario", "hash")
            token = await store.create_session(user.id)
            expired = await store.create_session(user.id, days=-1)
            found = await store.session_user(token)
            assert found is not None and (found.id, found.name) == (user.id, "Dario")
            assert await store.session_user(expired) is None
            assert await store.session_user("not-a-token") is None
            async with store.sessions() as session:
                stored = set((await session.scalars(select(SessionRow.token_hash))).all())
                expiries = (await session.scalars(select(SessionRow.expires_at))).all()
            assert token not in stored and expired not in stored and len(stored) == 2
            now = datetime.now(UTC)
            assert any(e.replace(tzinfo=e.tzinfo or UTC) > now for e in expiries)
            await store.delete_session(token)
            assert await store.session_user(token) is None

    asyncio.run(main())


# ------------------------------------------------------------------------------------ tables


def test_tables_and_seats(db_url: str) -> None:
    async def main() -> None:
        async with opened(db_url) as store:
            owner = await store.create_user("Elena", "hash")
            config = {"rules": "italian", "players": 4, "target": 2005, "options": {"x": 1.5}}
            await new_table(store, "pub", players=4, created_by=owner.id, config=config)
            await new_table(store, "priv", public=False, invite_code="secret-code")
            info = await store.table("pub")
            assert info is not None
            assert (info.status, info.match_no, info.public, info.created_by) == (
                "open",
                1,
                True,
                owner.id,
            )
            assert info.config == config and info.created_at.tzinfo is not None
            assert [(s.seat, s.user_id, s.bot) for s in info.seats] == [
                (i, None, None) for i in range(4)
            ]
            await store.set_seat("pub", 0, user_id=owner.id, bot=None)
            await store.set_seat("pub", 2, user_id=None, bot="greedy")
            await store.set_status("pub", "playing", match_no=1, owner="host:1")
            info = await store.table("pub")
            assert info is not None and info.status == "playing"
            assert [(s.user_name, s.bot) for s in info.seats] == [
                ("Elena", None),
                (None, None),
                (None, "greedy"),
                (None, None),
            ]
            assert [t.id for t in await store.tables(["open", "playing"])] == ["pub"]
            listed = await store.tables(["open", "playing"], public_only=False)
            assert sorted(t.id for t in listed) == ["priv", "pub"]
            assert [t.id for t in await store.tables(["finished"])] == []
            by_invite = await store.table_by_invite("secret-code")
            assert by_invite is not None and by_invite.id == "priv"
            assert await store.table("nope") is None
            await store.set_status("pub", "open", match_no=2)
            info = await store.table("pub")
            assert info is not None and (info.status, info.match_no) == ("open", 2)

    asyncio.run(main())


# ---------------------------------------------------------------------------- gameplay log


def test_smazzata_log_and_recovery_reads(db_url: str) -> None:
    """What a restarted server reads: the match's smazzate and actions in order, the chat, and
    the highest event number of the table (over actions, deals and chat, every match)."""

    async def main() -> None:
        async with opened(db_url) as store:
            await new_table(store, "T1")
            await new_table(store, "T2")
            assert await store.last_seq("T1") == 0
            assert await store.load_log("T1", 1) == ([], [], [])
            await store.log_smazzata("T1", smazzata(1, 1))
            for seq in range(2, 12):
                await store.log_action("T1", action(seq, seat=seq % 2))
            await store.log_chat("T1", ChatRecord(12, None, "Ospite-1", "<b>ciao</b> & 'a'", 5.5))
            await store.end_smazzata("T1", 1, 1, result=[120, -35], ended="stock")
            await store.log_smazzata("T1", smazzata(2, 13))
            await store.log_action("T1", action(14, number=2))
            # A rematch: match 2 starts after the events of match 1.
            await store.log_smazzata("T1", smazzata(1, 15, match_no=2))
            await store.log_action("T1", action(16, match_no=2))
            await store.log_action("T2", action(1))
            assert await store.last_seq("T1") == 16
            assert await store.last_seq("T2") == 1

        async with opened(db_url) as store:
            smazzate, actions, chats = await store.load_log("T1", 1)
            assert [(s.number, s.seq, s.result, s.ended) for s in smazzate] == [
                (1, 1, [120, -35], "stock"),
                (2, 13, None, None),
            ]
            assert smazzate[1] == smazzata(2, 13)
            assert actions == [action(seq, seat=seq % 2) for seq in range(2, 12)] + [
                action(14, number=2)
            ]
            assert [(c.seq, c.name, c.text, c.at) for c in chats] == [
                (12, "Ospite-1", "<b>ciao</b> & 'a'", 5.5)
            ]
            smazzate2, actions2, _ = await store.load_log("T1", 2)
            assert [s.seq for s in smazzate2] == [15] and actions2 == [action(16, match_no=2)]

    asyncio.run(main())


def test_group_commit_many_tables_in_order_and_durable(db_url: str) -> None:
    """Many tables append at once: the appends share transactions, each table's actions land
    in order, and every awaited append is there when the store is opened again."""
    tables, per_table = 24, 30

    async def main() -> None:
        ids = [f"g{i:02d}" for i in range(tables)]
        async with opened(db_url) as store:
            for table_id in ids:
                await new_table(store, table_id)

            async def play(table_id: str, index: int) -> None:
                for seq in range(1, per_table + 1):
                    await store.log_action(table_id, action(seq, seat=index % 2))
                    if (seq + index) % 3 == 0:
                        await asyncio.sleep(0)  # tables out of step with one another

            started = time.perf_counter()
            await asyncio.gather(*(play(t, i) for i, t in enumerate(ids)))
            elapsed = time.perf_counter() - started
            assert store.actions_written == tables * per_table
            # Group commit: far fewer transactions than actions.
            assert store.action_commits <= store.actions_written // 4, (
                store.action_commits,
                elapsed,
            )
        async with opened(db_url) as store:
            for index, table_id in enumerate(ids):
                _, actions, _ = await store.load_log(table_id, 1)
                assert actions == [action(s, seat=index % 2) for s in range(1, per_table + 1)]
                assert await store.last_seq(table_id) == per_table

    asyncio.run(main())


def test_a_bad_row_fails_only_its_own_append(db_url: str) -> None:
    """A duplicate event number (or an unknown table) in a shared transaction fails only the
    caller that sent it; the other tables' appends in the same batch are written."""

    async def main() -> None:
        async with opened(db_url) as store:
            for table_id in ("A", "B", "C"):
                await new_table(store, table_id)
            await store.log_action("A", action(1))
            results = await asyncio.gather(
                store.log_action("B", action(1)),
                store.log_action("A", action(1)),  # duplicate
                store.log_action("C", action(1)),
                store.log_action("ghost", action(1)),  # no such table
                store.log_action("A", action(2)),
                return_exceptions=True,
            )
            assert results[0] is None and results[2] is None and results[4] is None
            assert isinstance(results[1], IntegrityError)
            assert isinstance(results[3], IntegrityError)
            await store.log_action("B", action(2))  # the writer carries on
        async with opened(db_url) as store:
            for table_id, seqs in (("A", [1, 2]), ("B", [1, 2]), ("C", [1])):
                _, actions, _ = await store.load_log(table_id, 1)
                assert [a.seq for a in actions] == seqs
            assert await store.last_seq("ghost") == 0

    asyncio.run(main())


def test_close_writes_the_appends_already_handed_over(db_url: str) -> None:
    async def main() -> None:
        store = await Store.open(db_url)
        await new_table(store, "T")
        pending = [asyncio.create_task(store.log_action("T", action(s))) for s in range(1, 61)]
        await asyncio.sleep(0)  # every append is queued
        await store.close()
        assert await asyncio.gather(*pending, return_exceptions=True) == [None] * 60
        with pytest.raises(RuntimeError, match="closed"):
            await store.log_action("T", action(61))
        async with opened(db_url) as again:
            _, actions, _ = await again.load_log("T", 1)
            assert [a.seq for a in actions] == list(range(1, 61))

    asyncio.run(main())


def test_acknowledged_appends_survive_sigkill(db_url: str, tmp_path: Path) -> None:
    """A process appends to several tables as fast as it can and prints each append once it
    returned; it is killed with SIGKILL mid-stream. Every printed append is in the database,
    and each table's rows are a gapless prefix of what was sent."""
    tables = ["k0", "k1", "k2", "k3", "k4", "k5"]

    async def setup() -> None:
        async with opened(db_url) as store:
            for table_id in tables:
                await new_table(store, table_id)

    asyncio.run(setup())
    child = subprocess.Popen(
        [sys.executable, str(APPEND_FOREVER), db_url, *tables],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acked: dict[str, int] = dict.fromkeys(tables, 0)
    lines = 0
    try:
        deadline = time.monotonic() + 30
        while lines < 300:
            line = child.stdout.readline()
            assert line, f"the writer stopped: {child.stderr.read() if child.stderr else ''}"
            table_id, seq = line.split()
            acked[table_id] = max(acked[table_id], int(seq))
            lines += 1
            assert time.monotonic() < deadline
    finally:
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    # Acknowledged before it died; a line the kill cut short (no newline) acknowledged nothing.
    for line in rest.split("\n")[:-1]:
        table_id, seq = line.split()
        acked[table_id] = max(acked[table_id], int(seq))

    async def check() -> None:
        async with opened(db_url) as store:
            for table_id in tables:
                _, actions, _ = await store.load_log(table_id, 1)
                seqs = [a.seq for a in actions]
                assert seqs == list(range(1, len(seqs) + 1)), table_id
                assert len(seqs) >= acked[table_id] > 0, (table_id, len(seqs), acked[table_id])

    asyncio.run(check())


# -------------------------------------------------------------------------- chat and matches


def test_chat_is_kept_as_text(db_url: str) -> None:
    async def main() -> None:
        async with opened(db_url) as store:
            user = await store.create_user("Franca", "hash")
            await new_table(store, "T")
            texts = ["<script>alert(1)</script>", "ciao a tutti", "è l'ora 🂡", "a" * 300]
            for seq, text in enumerate(texts, start=1):
                await store.log_chat("T", ChatRecord(seq, user.id, user.name, text, 10.0 + seq))
            with pytest.raises(IntegrityError):  # one event number, one event
                await store.log_chat("T", ChatRecord(2, None, "x", "again", 1.0))
            _, _, chats = await store.load_log("T", 1)
            assert [c.text for c in chats] == texts
            assert (chats[0].seq, chats[0].user_id, chats[0].name) == (1, user.id, "Franca")
            assert await store.last_seq("T") == len(texts)

    asyncio.run(main())


def test_match_records(db_url: str) -> None:
    async def main() -> None:
        async with opened(db_url) as store:
            await new_table(store, "T")
            await new_table(store, "U")
            record = 'format = "burraco-record/1"\nrules = "italian"\n' + "# è\n" * 2000
            await store.log_match(
                "T",
                1,
                players=["Gino", "bot greedy"],
                totals=[2105, 1380],
                winner=0,
                ended="complete",
                record=record,
            )
            await store.log_match(
                "U", 1, players=["Ugo", "Gino"], totals=[0, 0], winner=None, ended="x", record="r"
            )
            # Finishing the same match again (a resumed table) replaces the row.
            await store.log_match(
                "U",
                1,
                players=["Ugo", "Gino"],
                totals=[900, 2010],
                winner=1,
                ended="timeout",
                record="r2",
            )
            assert await store.match_record("T", 1) == record
            assert await store.match_record("U", 1) == "r2"
            assert await store.match_record("T", 2) is None
            every = await store.matches()
            assert [(m.table_id, m.totals, m.winner, m.ended) for m in every] == [
                ("U", [900, 2010], 1, "timeout"),
                ("T", [2105, 1380], 0, "complete"),
            ]
            assert every[0].finished_at.tzinfo is not None
            assert [m.table_id for m in await store.matches(user_name="Ugo")] == ["U"]
            assert len(await store.matches(user_name="Gino")) == 2
            assert await store.matches(user_name="nobody") == []
            assert len(await store.matches(limit=1)) == 1

    asyncio.run(main())


def test_matches_count_the_smazzate_finished_in_each_match(db_url: str) -> None:
    """``smazzate``: the match's smazzate that ended (scored), from the smazzate log; the one a
    timeout cut (dealt, never ended) is not counted (T14), nor those of another match."""

    async def main() -> None:
        async with opened(db_url) as store:
            await new_table(store, "T")
            await new_table(store, "U")
            for number in (1, 2, 3):  # match 1 of T: two smazzate scored, the third cut
                await store.log_smazzata("T", smazzata(number, number * 10))
            for number in (1, 2):
                await store.end_smazzata("T", 1, number, result=[100, -20], ended="closing")
            await store.log_match(
                "T",
                1,
                players=["Gino", "bot greedy"],
                totals=[200, -40],
                winner=1,
                ended="timeout",
                record="r",
                mp=[-355, 355],
                vp=[6, 14],
            )
            # Match 2 of the same table: one smazzata, ended by the stock.
            await store.log_smazzata("T", smazzata(1, 50, match_no=2))
            await store.end_smazzata("T", 2, 1, result=[0, 0], ended="stock")
            await store.log_match(
                "T",
                2,
                players=["Gino", "bot greedy"],
                totals=[0, 0],
                winner=None,
                ended="complete",
                record="r",
            )
            # U's match was cut in its first smazzata: nothing scored.
            await store.log_smazzata("U", smazzata(1, 1))
            await store.log_match(
                "U",
                1,
                players=["Ugo", "Gino"],
                totals=[0, 0],
                winner=0,
                ended="timeout",
                record="r",
                mp=[355, -355],
                vp=[14, 6],
            )
            found = {(m.table_id, m.match_no): m for m in await store.matches()}
            assert {key: m.smazzate for key, m in found.items()} == {
                ("T", 1): 2,
                ("T", 2): 1,
                ("U", 1): 0,
            }
            assert (found["T", 1].mp, found["T", 1].vp) == ([-355, 355], [6, 14])
            mine = await store.matches(user_name="Ugo", public_only=False)
            assert [(m.table_id, m.smazzate) for m in mine] == [("U", 0)]

    asyncio.run(main())


def test_many_concurrent_writes_never_fail_with_a_locked_database(db_url: str) -> None:
    """Hundreds of players arriving in the same second (guest accounts, sessions, tables and seats
    written concurrently, while a table appends actions): every write succeeds and lands."""
    guests = 120

    async def main() -> None:
        async with opened(db_url) as store:
            await new_table(store, "busy")

            async def arrive(i: int) -> None:
                user = await store.create_user(f"guest-{i}", None, guest=True)
                token = await store.create_session(user.id)
                assert (await store.session_user(token)) == user
                await new_table(store, f"t{i}", created_by=user.id)
                await store.set_seat(f"t{i}", 0, user_id=user.id, bot=None)
                await store.log_action("busy", action(i + 1))

            await asyncio.gather(*(arrive(i) for i in range(guests)))
            _, actions, _ = await store.load_log("busy", 1)
            assert len(actions) == guests
            assert len(await store.tables(["open"])) == guests + 1

    asyncio.run(main())


def test_the_action_log_has_its_own_writer(db_url: str) -> None:
    """On a SQLite file the action log has its own connection and thread (action_writer.py),
    on PostgreSQL its own asyncpg connection (pg_action_writer.py); what they write reads back
    through SQLAlchemy exactly, and a duplicate is refused as on SQLAlchemy's path."""

    async def main() -> None:
        async with opened(db_url) as store:
            assert store._action_writer is not None
            await new_table(store, "W")
            await store.log_smazzata("W", smazzata(1, 1))
            for seq in range(2, 7):
                await store.log_action("W", action(seq, seat=seq % 2))
            with pytest.raises(IntegrityError):
                await store.log_action("W", action(4))
            assert store.actions_written == 5
            _, actions, _ = await store.load_log("W", 1)
            assert actions == [action(seq, seat=seq % 2) for seq in range(2, 7)]

    asyncio.run(main())
