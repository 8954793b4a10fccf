"""How long the server's event loop stalls while it replays a long match (issue 19, found by
the black-box re-test: a 20-smazzata replay of 11 MB took 2.7-4.8 s and ``/api/info`` waited
3.97 s behind it). One command: ``.venv/bin/python bench/replay_stall.py`` (about a minute).

A real ``burraco serve`` process (SQLite in a temporary folder): two bots play a 20-smazzata
match; then ``/api/info`` is timed ``--pings`` times with nothing else going on (the baseline)
and again while three clients fetch the match's replay at once, twice in a row (the first
fetch replays the record, the next ones may be served from the cache). The figures are the
median and the worst ``/api/info`` in both phases and the replays' own times.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _pings(client: httpx.AsyncClient, count: int, every: float) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = await client.get("/api/info")
        answer.raise_for_status()
        times.append(time.perf_counter() - started)
        await asyncio.sleep(every)
    return times


async def _replay(client: httpx.AsyncClient, table: str) -> tuple[float, int]:
    started = time.perf_counter()
    answer = await client.get(f"/api/tables/{table}/replay", timeout=120)
    answer.raise_for_status()
    return time.perf_counter() - started, len(answer.content)


async def measure(url: str, smazzate: int, pings: int, bot: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60, trust_env=False) as client:
        guest = (await client.post("/api/guest")).json()["token"]
        headers = {"Authorization": f"Bearer {guest}"}
        bots = {"0": bot, "1": bot}
        body = {"players": 2, "smazzate": smazzate, "seat": None, "bots": bots}
        body |= {"between_smazzate": 0}
        made = await client.post("/api/tables", json=body, headers=headers)
        made.raise_for_status()
        table = made.json()["id"]
        started = time.perf_counter()
        while (await client.get(f"/api/tables/{table}/record")).status_code != 200:
            await asyncio.sleep(0.5)
        played = time.perf_counter() - started
        idle = await _pings(client, pings, 0.05)
        during: list[float] = []
        replays: list[tuple[float, int]] = []
        for _ in range(2):
            fetches = asyncio.gather(*(_replay(client, table) for _ in range(3)))
            pinging = asyncio.create_task(_pings(client, pings, 0.05))
            replays += await fetches
            during += await pinging
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    print(f"match of {smazzate} smazzate played by {bot} bots in {played:.1f} s")
    size = replays[0][1] / 1e6
    print(f"replay: {size:.1f} MB; each fetch " + ", ".join(f"{t:.2f}" for t, _ in replays) + " s")
    for phase, times in (("idle", idle), ("during replays", during)):
        median, worst = statistics.median(times) * 1000, max(times) * 1000
        print(f"/api/info {phase}: median {median:.1f} ms, max {worst:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--smazzate", type=int, default=20)
    parser.add_argument("--pings", type=int, default=40)
    parser.add_argument("--bot", default="random", help="random bots make long smazzate")
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        burraco = Path(sys.executable).with_name("burraco")
        server = subprocess.Popen(
            [str(burraco), "serve", "--port", str(port), "--data-dir", data, "--bot-delay", "0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    httpx.get(f"{url}/api/info", timeout=1, trust_env=False)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            asyncio.run(measure(url, args.smazzate, args.pings, args.bot))
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
