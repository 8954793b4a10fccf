"""Quick play's pairing cost (issue 16: "a quick-play queue of 2,000 waiting players pairs each
arrival in <= 5 ms of server CPU"). One command: ``.venv/bin/python bench/quickplay_bench.py``
(a few seconds).

A queue holds 2,000 waiting players (ratings drawn from N(1500, 300), seeded); each arrival is
timed in process CPU time (``time.process_time_ns`` around ``Queue.add``) and the players it
seats are put back, so that every arrival meets 2,000 waiting. Baseline in the same run: the
same arrivals against a linear scan of every waiting player (what a queue without the rating
order would do). Reported: median and p99 per arrival, and the ratio of the medians; the
ticker's pass over the 2,000 (once a second) too."""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from burraco.matchmaking import PRESETS, Queue, Seeker

WAITING = 2000


def filled(players: int, rng: random.Random) -> Queue:
    queue = Queue(players, PRESETS["standard"])
    for key in range(WAITING):
        # Straight into the order (no pairing): a queue of 2,000 at once, as the load to meet.
        queue._insert(Seeker(key, (key,), rng.gauss(1500, 300), 0.0))
    return queue


def linear_add(queue: Queue, seeker: Seeker, now: float) -> list[Seeker]:
    """The baseline: every waiting player looked at, the nearest acceptable ones taken."""
    need = queue.players - 1
    candidates = sorted(
        (abs(other.rating - seeker.rating), other.key, other)
        for other in queue._by_key.values()
        if queue._accepts(seeker, other, now)
    )
    return [other for _, _, other in candidates[:need]] if len(candidates) >= need else []


def measure(players: int, arrivals: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    queue = filled(players, rng)
    ours: list[int] = []
    base: list[int] = []
    next_key = WAITING
    for _ in range(arrivals):
        seeker = Seeker(next_key, (next_key,), rng.gauss(1500, 300), 0.0)
        next_key += 1
        start = time.process_time_ns()
        linear_add(queue, seeker, 0.0)
        base.append(time.process_time_ns() - start)
        start = time.process_time_ns()
        group = queue.add(seeker, 0.0)
        ours.append(time.process_time_ns() - start)
        # Keep 2,000 waiting: those just seated come back (new keys), the arrival if he waits.
        if group is not None:
            for member in group.seekers:
                if member.key != seeker.key:
                    queue._insert(Seeker(next_key, (next_key,), member.rating, 0.0))
                    next_key += 1
        else:
            queue.remove(seeker.key)
    start = time.process_time_ns()
    queue.tick(1.0)
    tick = time.process_time_ns() - start
    q = statistics.quantiles(ours, n=100)
    return {
        "median_us": statistics.median(ours) / 1000,
        "p99_us": q[98] / 1000,
        "base_median_us": statistics.median(base) / 1000,
        "ratio": statistics.median(base) / statistics.median(ours),
        "tick_ms": tick / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arrivals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"# quick play pairing, {WAITING} waiting; {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print("| table | arrival median | arrival p99 | linear scan median | ratio | tick over 2,000 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 3, 4):
        r = measure(players, args.arrivals, args.seed)
        print(
            f"| {players} players | {r['median_us']:.1f} µs | {r['p99_us']:.1f} µs | "
            f"{r['base_median_us']:.0f} µs | {r['ratio']:.0f}x | {r['tick_ms']:.1f} ms |"
        )


if __name__ == "__main__":
    main()
