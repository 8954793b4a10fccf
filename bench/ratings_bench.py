"""Leaderboards and profiles from indexed queries (issue 16: "p99 <= 50 ms with 100,000 players
and 1,000,000 rated matches in PostgreSQL"). One command:
``.venv/bin/python bench/ratings_bench.py`` (a few minutes; needs the local PostgreSQL).

A temporary database gets the schema (the migrations), then a generator fills it with COPY:
100,000 players with a 2-player rating each, and 1,000,000 rated matches spread over twelve
months as two history rows each (2,000,000 rows; the ``ratings`` and ``rating_months`` rows
agree with the history, as ``rate_match`` keeps them). Then each question the pages ask is
timed through ``RatingStore`` (its real queries, over SQLAlchemy and asyncpg) ``--requests``
times with random parameters: the overall board (a random page among the first 200), the provisional
board, a month's board, and a profile (ratings and history). Reported: p50 and p99 in ms; the
baseline in the same run is the cheapest possible query (``SELECT 1``) over the same
connection pool, so that the figures show what the queries themselves cost."""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.store import postgres

from burraco.ratings import Mode
from burraco.store import RatingStore, Store

PLAYERS = 100_000
MATCHES = 1_000_000
START = datetime(2026, 1, 1, tzinfo=UTC)


async def fill(url: str, rng: random.Random) -> None:
    conn = await asyncpg.connect(url)
    try:
        now = datetime(2026, 12, 1, tzinfo=UTC)
        await conn.copy_records_to_table(
            "users",
            records=[(i, f"p{i}", f"p{i}", None, False, now) for i in range(1, PLAYERS + 1)],
            columns=["id", "name", "name_key", "password_hash", "is_guest", "created_at"],
        )
        await conn.execute(f"SELECT setval('users_id_seq', {PLAYERS})")
        mu = dict.fromkeys(range(1, PLAYERS + 1), 1500.0)
        sigma = dict.fromkeys(range(1, PLAYERS + 1), 350.0)
        played = dict.fromkeys(mu, 0)
        history = []
        months: dict[tuple[int, str], list[float]] = {}  # (user, month) -> [mu, sigma, delta, n]
        span = (datetime(2026, 12, 31, tzinfo=UTC) - START).total_seconds()
        moments = sorted(rng.random() * span for _ in range(MATCHES))
        for number, offset in enumerate(moments):
            at = START + timedelta(seconds=offset)
            a, b = rng.randrange(1, PLAYERS + 1), rng.randrange(1, PLAYERS + 1)
            if a == b:
                b = a % PLAYERS + 1
            step = rng.gauss(0, 15)
            for who, delta in ((a, step), (b, -step)):
                mu[who] += delta
                sigma[who] = max(60.0, sigma[who] * 0.97)
                played[who] += 1
                month = months.setdefault((who, at.strftime("%Y-%m")), [0.0, 0.0, 0.0, 0])
                month[0], month[1] = mu[who], sigma[who]
                month[2] += delta
                month[3] += 1
                history.append(
                    (
                        who,
                        "2p",
                        f"t{number}",
                        1,
                        at,
                        mu[who],
                        sigma[who],
                        delta,
                        "win" if delta > 0 else "loss",
                    )
                )
        await conn.copy_records_to_table(
            "rating_history",
            records=history,
            columns=[
                "user_id",
                "mode",
                "table_id",
                "match_no",
                "at",
                "mu",
                "sigma",
                "delta",
                "result",
            ],
        )
        await conn.copy_records_to_table(
            "ratings",
            records=[
                (i, "2p", mu[i], sigma[i], played[i], played[i] // 2, 0, 0, now)
                for i in mu
                if played[i]
            ],
            columns=[
                "user_id",
                "mode",
                "mu",
                "sigma",
                "matches",
                "wins",
                "draws",
                "abandoned",
                "updated_at",
            ],
        )
        await conn.copy_records_to_table(
            "rating_months",
            records=[
                (who, "2p", month, mu_, sigma_, delta, int(n))
                for (who, month), (mu_, sigma_, delta, n) in months.items()
            ],
            columns=["user_id", "mode", "month", "mu", "sigma", "delta", "matches"],
        )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def timed(work: Callable[[], Awaitable[None]], count: int) -> tuple[float, float]:
    times: list[float] = []
    for _ in range(count):
        start = time.perf_counter()
        await work()
        times.append((time.perf_counter() - start) * 1000)
    q = statistics.quantiles(times, n=100)
    return statistics.median(times), q[98]


async def run(url: str, requests: int, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(url)  # the schema, by the migrations
    try:
        started = time.perf_counter()
        await fill(postgres._dsn(url), rng)
        filled = time.perf_counter() - started
        ratings = RatingStore(store)

        async def select_one() -> None:
            async with store.sessions() as session:
                await session.execute(text("SELECT 1"))

        async def board() -> None:
            await ratings.leaderboard(Mode.TWO, offset=50 * rng.randrange(200))

        async def provisional() -> None:
            await ratings.leaderboard(Mode.TWO, provisional=True)

        async def month() -> None:
            await ratings.leaderboard(Mode.TWO, month=(2026, rng.randrange(1, 13)))

        async def profile() -> None:
            user = rng.randrange(1, PLAYERS + 1)
            rows = await ratings.ratings_of(user)
            for row in rows:
                await ratings.history(user, row.mode)

        for work in (select_one, board, provisional, month, profile):  # warm the caches
            await work()
        print(
            f"# {PLAYERS:,} players, {MATCHES:,} rated matches ({2 * MATCHES:,} history"
            f" rows), filled in {filled:.0f} s; {requests} requests each;"
            f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        )
        print("| question | p50 | p99 |")
        print("| --- | --- | --- |")
        for name, work in (
            ("baseline: SELECT 1", select_one),
            ("overall board, a page of 50", board),
            ("provisional board", provisional),
            ("a month's board", month),
            ("a profile (ratings and history)", profile),
        ):
            p50, p99 = await timed(work, requests)
            print(f"| {name} | {p50:.1f} ms | {p99:.1f} ms |")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with postgres.temporary_database("burraco_bench") as url:  # dropped afterwards
        asyncio.run(run(url, args.requests, args.seed))


if __name__ == "__main__":
    main()
