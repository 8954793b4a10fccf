"""How long a table's search bot waits when another account's search bots are busy (issue 19,
M2). One command: ``.venv/bin/python bench/bot_fairness.py`` (about a minute).

The scenario of the finding, on the server's ``BotRunner`` with its default two workers: a
victim table whose bot is ``search:seconds=0.3`` plays its turns one after another, measured
decision by decision (wall time from asking to answer), first alone, then while another
account keeps eight tables of ``search:seconds=5`` bots thinking without pause. The figure is
the victim's median decision time in both phases and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import time

from burraco.engine import Smazzata, find_rules
from burraco.engine.deal import shuffled_deck
from burraco.server.botrunner import BotRunner

VICTIM = "search:seconds=0.3"
ATTACKER = "search:seconds=5"


def _state(seed: int) -> Smazzata:
    rules = find_rules("italian", players=2)
    return Smazzata.new(rules, deck=shuffled_deck(rules, random.Random(seed)), first=0)


async def _victim(runner: BotRunner, decisions: int, seed: int, phase: str) -> list[float]:
    state = _state(seed)
    times: list[float] = []
    while len(times) < decisions:
        if state.is_over:
            state = _state(seed := seed + 1)
        seat = state.current
        legal = list(state.legal_actions())
        started = time.perf_counter()
        action = await runner.choose(
            f"victim-{phase}-{seed}",
            seat,
            VICTIM,
            seed=seat,
            view=state.view(seat),
            legal=legal,
            account="user:victim",
        )
        if len(legal) > 1:  # a single legal action is answered without thinking
            times.append(time.perf_counter() - started)
        state.apply(action)
    return times


async def _attacker(runner: BotRunner, table: int, stop: asyncio.Event) -> int:
    state = _state(1000 + table)
    made = 0
    while not stop.is_set():
        if state.is_over:
            state = _state(2000 + table + made)
        seat = state.current
        action = await runner.choose(
            f"attacker-{table}",
            seat,
            ATTACKER,
            seed=seat,
            view=state.view(seat),
            legal=state.legal_actions(),
            account="user:attacker",
        )
        state.apply(action)
        made += 1
    return made


async def main(decisions: int, tables: int) -> None:
    runner = BotRunner(processes=2)
    try:
        await _victim(runner, 2, seed=99, phase="warm")  # start the workers
        alone = await _victim(runner, decisions, seed=1, phase="alone")
        stop = asyncio.Event()
        attackers = [asyncio.create_task(_attacker(runner, t, stop)) for t in range(tables)]
        await asyncio.sleep(1.0)  # the attacker's decisions are queued and running
        loaded = await _victim(runner, decisions, seed=1, phase="loaded")
        stop.set()
        made = sum(await asyncio.gather(*attackers))
    finally:
        runner.close()
    a, b = statistics.median(alone), statistics.median(loaded)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    print(
        f"victim {VICTIM}, {decisions} decisions with a choice;"
        f" attacker {tables} tables of {ATTACKER}"
    )
    print(f"victim alone:        median {a:.3f} s  (max {max(alone):.3f})")
    print(f"victim with attacker: median {b:.3f} s  (max {max(loaded):.3f}); ratio {b / a:.2f}")
    print(f"attacker decisions made meanwhile: {made}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=15)
    parser.add_argument("--tables", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.decisions, args.tables))
