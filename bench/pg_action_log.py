"""The action log on PostgreSQL: SQLAlchemy's path against the writer's (issue 17). One command:
``.venv/bin/python bench/pg_action_log.py`` (about a minute, on the local PostgreSQL of the
tests: ``BURRACO_TEST_POSTGRES_URL``, tests/store/postgres.py; a temporary database, dropped).

Two parts, in one process, on the event loop uvicorn would use (uvloop when installed; ``--loop
asyncio`` for the standard one):

- **Statements**: one asyncpg connection writes batches of 1, 10 and 50 rows with the three
  ways asyncpg offers (a prepared ``INSERT ... SELECT * FROM unnest(...)``, ``executemany``,
  ``copy_records_to_table``), each batch one atomic statement and one await: the event loop's
  CPU (``time.thread_time`` of its thread) and the wall time per batch.
- **Store, full speed**: N tables (1, 16, 256) each appending actions as fast as its commits
  come back, as a table's actor does (``Store.log_action``, group commit), for ``--seconds`` a
  round, through four writers: ``none`` (a writer that writes nothing: the store's own
  overhead), ``sqlalchemy`` (``action_writer=False``), ``writer`` (pg_action_writer.py on the
  loop) and ``thread`` (the same on a thread of its own, with its own loop). Actions per
  second, the loop thread's CPU per action (``time.thread_time``) and the whole process's
  (``time.process_time``: the writer's thread included).
- **Store, busy loop**: the same with 1 and 16 tables while a ballast task keeps the loop busy
  with slices of pure-Python work (``await asyncio.sleep(0)`` between them, as the engine's
  work would be): how fast commits come back when the loop has other work, the GIL's
  hand-overs with a writer thread included (which CPU time does not show), and the ballast
  slices done. The loop thread's share of a core is printed: on a loaded machine it is below
  100% and these figures are rough.

Figures are medians over ``--rounds`` rounds (the writers interleaved within each round, in a
rotating order), after a warm-up round. Raw results go to ``bench/out/pg_action_log.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # type: ignore[import-untyped]
import sqlalchemy
from tests.store import postgres

from burraco.store import ActionRecord, Store
from burraco.store.action_writer import COLUMNS
from burraco.store.pg_action_writer import INSERT, PostgresActionWriter, columns

OUT = Path(__file__).with_name("out") / "pg_action_log.json"
SIZES = (1, 10, 50)
TABLES = (1, 16, 256)
BUSY_TABLES = (1, 16)
WRITERS = ("none", "sqlalchemy", "writer", "thread")


def record(seq: int) -> ActionRecord:
    """An action as a 4-player table with a chess clock logs it."""
    return ActionRecord(
        seq=seq,
        match_no=1,
        number=1 + seq // 200,
        seat=seq % 4,
        action=f"{seq % 4} discard {seq % 13 + 1}H",
        at=time.time(),
        auto=False,
        clock={
            "banks": [300.0 - seq / 7, 299.25, 301.5, 287.125],
            "credited": [2.0, 4.0, 0.0, 6.0],
            "auto_plays": [0, 1, 0, 0],
        },
    )


def row(table_id: str, seq: int) -> dict[str, Any]:
    r = record(seq)
    return {"table_id": table_id, **{k: getattr(r, k) for k in ActionRecord.__slots__}}


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


# ------------------------------------------------------------------------------- statements

_VALUES = (
    f"INSERT INTO actions ({', '.join(COLUMNS)})"
    f" VALUES ({', '.join(f'${i}' for i in range(1, len(COLUMNS)))}, ${len(COLUMNS)}::json)"
)


async def statements(dsn: str, rounds: int, batches: int) -> dict[str, dict[int, Any]]:
    """Loop CPU and wall time per batch of each way of writing, by batch size."""
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(
            "INSERT INTO game_tables (id, created_at, status, config, public, match_no)"
            " VALUES ('stmt', now(), 'open', '{}', true, 1)"
        )
        unnest = await connection.prepare(INSERT)
        values = await connection.prepare(_VALUES)
        seq = 0

        def make(size: int) -> list[dict[str, Any]]:
            nonlocal seq
            seq += size
            return [row("stmt", s) for s in range(seq - size + 1, seq + 1)]

        def tuples(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
            return list(zip(*columns(rows), strict=True))

        async def by_unnest(rows: list[dict[str, Any]]) -> None:
            await unnest.fetch(*columns(rows))

        async def by_executemany(rows: list[dict[str, Any]]) -> None:
            await values.executemany(tuples(rows))

        async def by_copy(rows: list[dict[str, Any]]) -> None:
            await connection.copy_records_to_table("actions", records=tuples(rows), columns=COLUMNS)

        ways: dict[str, Callable[[list[dict[str, Any]]], Awaitable[None]]] = {
            "unnest": by_unnest,
            "executemany": by_executemany,
            "copy_records_to_table": by_copy,
        }
        samples: dict[str, dict[int, dict[str, list[float]]]] = {
            way: {size: {"cpu": [], "wall": []} for size in SIZES} for way in ways
        }
        for round_no in range(rounds + 1):  # round 0 warms up
            for size in SIZES:
                for way, write in ways.items():
                    batches_rows = [make(size) for _ in range(batches)]
                    cpu, wall = time.thread_time(), time.perf_counter()
                    for rows in batches_rows:
                        await write(rows)
                    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
                    if round_no:
                        samples[way][size]["cpu"].append(cpu / batches)
                        samples[way][size]["wall"].append(wall / batches)
        return {
            way: {size: {k: median(v) * 1e6 for k, v in by_size[size].items()} for size in SIZES}
            for way, by_size in samples.items()
        }
    finally:
        await connection.close()


# ------------------------------------------------------------------------------------ store


class _NoWriter(PostgresActionWriter):
    """Writes nothing: what the store itself costs per action (queue, futures, group commit)."""

    def __init__(self) -> None:
        super().__init__({})

    async def write(
        self,
        rows: Sequence[Mapping[str, Any]],
        fences: Mapping[str, int] | None = None,
        *,
        in_doubt: bool = False,
    ) -> set[str]:
        await asyncio.sleep(0)
        return set()

    async def close(self) -> None:
        pass


async def open_store(url: str, writer: str) -> Store:
    store = await Store.open(url, migrate=False, action_writer=writer != "sqlalchemy")
    if writer in ("none", "thread"):
        assert store._action_writer is not None
        await store._action_writer.close()
        store._action_writer = (
            _NoWriter()
            if writer == "none"
            else PostgresActionWriter.for_engine(store.engine, thread=True)
        )
    return store


async def full_speed(
    store: Store, tables: list[str], seqs: dict[str, int], seconds: float, *, busy: bool = False
) -> dict[str, float]:
    """Every table appends as fast as its commits come back, for ``seconds``; ``busy``: while
    a ballast task keeps the loop busy with slices of pure-Python work."""
    stop = False
    count = ballast = 0

    async def play(table: str) -> None:
        nonlocal count
        while not stop:
            seqs[table] += 1
            await store.log_action(table, record(seqs[table]))
            count += 1

    async def spin() -> None:
        nonlocal ballast
        while not stop:
            _chunk()
            ballast += 1
            await asyncio.sleep(0)

    commits = store.action_commits
    wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
    tasks = [asyncio.ensure_future(play(t)) for t in tables]
    if busy:
        tasks.append(asyncio.ensure_future(spin()))
    await asyncio.sleep(seconds)
    stop = True
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall
    cpu, process = time.thread_time() - cpu, time.process_time() - process
    return {
        "actions_per_s": count / wall,
        "loop_us": cpu / count * 1e6,
        "process_us": process / count * 1e6,
        "rows_per_commit": count / max(1, store.action_commits - commits),
        "ballast_per_s": ballast / wall,
        "loop_share": cpu / wall,
    }


def _chunk() -> int:
    """Ballast: a slice of pure-Python work, as the engine's (about 0.1 ms)."""
    total = 0
    for i in range(2_000):
        total += i * i % 7
    return total


SCENARIOS = (
    *((f"full speed, {n} tables", n, False) for n in TABLES),
    *((f"busy loop, {n} tables", n, True) for n in BUSY_TABLES),
)


async def store_rounds(url: str, rounds: int, seconds: float) -> dict[str, Any]:
    names = [f"t{i:03d}" for i in range(max(TABLES))]
    setup = await Store.open(url, migrate=False)
    for name in names:
        await setup.create_table(
            name, created_by=None, config={}, public=True, invite_code=None, players=4
        )
    await setup.close()
    stores = {writer: await open_store(url, writer) for writer in WRITERS}
    # Each writer its own range of event numbers, so that none collides with another's.
    seqs = {w: dict.fromkeys(names, i * 10_000_000) for i, w in enumerate(WRITERS)}
    samples: dict[str, dict[str, list[dict[str, float]]]] = {
        scenario: {w: [] for w in WRITERS} for scenario, _, _ in SCENARIOS
    }
    try:
        for round_no in range(rounds + 1):  # round 0 warms up
            for scenario, n, busy in SCENARIOS:
                shift = round_no % len(WRITERS)
                for writer in WRITERS[shift:] + WRITERS[:shift]:
                    result = await full_speed(
                        stores[writer],
                        names[:n],
                        seqs[writer],
                        seconds if round_no else 0.3,
                        busy=busy,
                    )
                    if round_no:
                        samples[scenario][writer].append(result)
    finally:
        for store in stores.values():
            await store.close()
    return {
        scenario: {
            writer: {key: median([s[key] for s in runs]) for key in runs[0]}
            for writer, runs in by_writer.items()
        }
        for scenario, by_writer in samples.items()
    }


# ------------------------------------------------------------------------------------- main


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical cores"


async def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    dsn = postgres._dsn(url)
    await (await Store.open(url)).close()  # the schema
    server = await asyncpg.connect(dsn)
    try:
        version = await server.fetchval("SHOW server_version")
    finally:
        await server.close()
    load = os.getloadavg()
    started = time.perf_counter()
    stmt = await statements(dsn, args.rounds, args.batches)
    store = await store_rounds(url, args.rounds, args.seconds)
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "software": (
            f"CPython {platform.python_version()}, PostgreSQL {version}, asyncpg"
            f" {asyncpg.__version__}, SQLAlchemy {sqlalchemy.__version__}, loop {args.loop}"
        ),
        "load": load,
        "seconds": time.perf_counter() - started,
        "statements": stmt,
        "store": store,
    }


def report(result: dict[str, Any]) -> None:
    print(f"{result['date']}; {result['machine']}; {result['software']}")
    load = " / ".join(f"{x:.2f}" for x in result["load"])
    print(f"load average before: {load}; {result['seconds']:.0f} s")
    print("\nStatements: event-loop CPU / wall per batch (µs)")
    print(f"{'way':<24}" + "".join(f"{f'{s} rows':>18}" for s in SIZES))
    for way, by_size in result["statements"].items():
        cells = "".join(f"{by_size[s]['cpu']:>9.0f} / {by_size[s]['wall']:<6.0f}" for s in SIZES)
        print(f"{way:<24}{cells}")
    for scenario, by_writer in result["store"].items():
        print(f"\nStore, {scenario}")
        busy = scenario.startswith("busy")
        if busy:
            print(
                f"    {'writer':<11}{'actions/s':>10}{'rows':>6}{'ballast/s':>11}{'loop share':>12}"
            )
            for writer, m in by_writer.items():
                print(
                    f"    {writer:<11}{m['actions_per_s']:>10,.0f}{m['rows_per_commit']:>6.1f}"
                    f"{m['ballast_per_s']:>11,.0f}{m['loop_share']:>12.0%}"
                )
            continue
        print(f"    {'writer':<11}{'actions/s':>10}{'loop µs':>9}{'process µs':>12}{'rows':>6}")
        for writer, m in by_writer.items():
            print(
                f"    {writer:<11}{m['actions_per_s']:>10,.0f}{m['loop_us']:>9.1f}"
                f"{m['process_us']:>12.1f}{m['rows_per_commit']:>6.1f}"
            )
        slow, fast = by_writer["sqlalchemy"], by_writer["writer"]
        print(
            f"    writer / sqlalchemy: {fast['actions_per_s'] / slow['actions_per_s']:.2f}x"
            f" the actions/s, {slow['loop_us'] / fast['loop_us']:.2f}x less loop CPU an action"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=0.7, help="per writer and round")
    parser.add_argument("--batches", type=int, default=40, help="per way, size and round")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default=None)
    args = parser.parse_args()
    if args.loop is None:
        try:
            import uvloop  # noqa: F401

            args.loop = "uvloop"
        except ImportError:
            args.loop = "asyncio"
    with postgres.temporary_database("burraco_bench") as url:
        result = _run(args, url)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2))
    report(result)


def _run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    if args.loop == "uvloop":
        import uvloop

        return uvloop.run(run(args, url))
    return asyncio.run(run(args, url))


if __name__ == "__main__":
    main()
