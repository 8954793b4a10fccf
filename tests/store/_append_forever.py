"""A child process for test_store: appends actions to the given tables, concurrently and as fast
as it can, printing ``TABLE SEQ`` after each append returned, until it is killed.

Usage: ``python _append_forever.py DATABASE_URL TABLE...``
"""

from __future__ import annotations

import asyncio
import sys

from burraco.store import ActionRecord, Store


async def main(url: str, tables: list[str]) -> None:
    store = await Store.open(url, migrate=False)

    async def append(table_id: str) -> None:
        seq = 0
        while True:
            seq += 1
            clock = {"banks": [1.5, 2.5], "credited": [0.0, 0.0], "auto_plays": [0, 0]}
            await store.log_action(
                table_id, ActionRecord(seq, 1, 1, seq % 2, "0 draw", float(seq), False, clock)
            )
            print(table_id, seq, flush=True)

    await asyncio.gather(*(append(t) for t in tables))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
