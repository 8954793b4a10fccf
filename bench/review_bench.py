"""How long the review by the bot takes (issue 18): one 2-player smazzata, one seat.

Each deal (seeds 1..N, ``italian``, 2 players) is played to the end of its smazzata by two
heuristic bots and written as a record; ``review_record`` then reviews seat 0 at the default
budget (``burraco.bots.review.DEFAULT_SECONDS`` per decision), in this process pinned to one
CPU (the idlest, or ``--cpu``). Per deal: the decisions reviewed, the wall and processor
seconds, the playouts, the MP lost and the marked decisions. The report gives the median and the
max against the target, at most 60 s of one core per smazzata. ``--write`` puts it in the marked
section of ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time

from burraco.bots.heuristic import HeuristicBot
from burraco.bots.review import DEFAULT_SECONDS, review_record
from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.record import Record
from cli_bench import write_section
from engine_bench import machine_info, pin_to_one_cpu

START, END = "<!-- review-bench:start -->", "<!-- review-bench:end -->"
TARGET_S = 60.0


def smazzata_record(seed: int) -> Record:
    """The first smazzata of a seeded match between two heuristic bots, as a record."""
    rules = find_rules("italian", players=2)
    game = Game(rules, ("Anna", "Bruno"), rng=random.Random(seed), first=0)
    bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
    while not game.hands:
        seat = game.state.current
        game.apply(bots[seat].choose(game.state.view(seat), game.state.legal_actions()))
    whole = game.record()
    return Record(rules=whole.rules, players=whole.players, hands=whole.hands[:1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--deals", type=int, default=5, help="deals (default 5)")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the idlest)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="per decision")
    parser.add_argument("--write", action="store_true", help="update bench/README.md")
    args = parser.parse_args(argv)
    cpu = pin_to_one_cpu(args.cpu)
    load_before = os.getloadavg()
    rows = []
    for seed in range(1, args.deals + 1):
        record = smazzata_record(seed)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        review = review_record(record, seat=0, seconds=args.seconds, seed=seed)
        wall, used = time.perf_counter() - wall0, time.process_time() - cpu0
        decisions = review.smazzate[0].decisions
        row = {
            "seed": seed,
            "actions": len(record.hands[0].actions),
            "decisions": len(decisions),
            "wall": wall,
            "cpu": used,
            "playouts": sum(d.playouts for d in decisions),
            "mp_lost": review.mp_lost,
            "marked": sum(d.verdict != "ok" for d in decisions),
        }
        rows.append(row)
        print(
            f"deal {seed}: {row['decisions']} decisions, {wall:.1f} s wall, {used:.1f} s CPU,"
            f" {row['playouts']:,} playouts, {row['marked']} marked, {row['mp_lost']} MP lost",
            flush=True,
        )
    text = report(args, rows, cpu, load_before, os.getloadavg())
    print(text)
    if args.write:
        write_section(text, START, END, "bench/review_bench.py --write")
    return 0


def report(
    args: argparse.Namespace,
    rows: list[dict[str, float]],
    cpu: int | None,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> str:
    info = machine_info(cpu)
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    walls = [r["wall"] for r in rows]
    cpus = [r["cpu"] for r in rows]
    per_decision = [r["cpu"] / r["decisions"] for r in rows if r["decisions"]]
    verdict = "within" if max(cpus) <= TARGET_S else "OVER"
    lines = [
        f"Last run: **{now}**, `python bench/review_bench.py -n {args.deals}"
        f"{'' if args.seconds == DEFAULT_SECONDS else f' --seconds {args.seconds:g}'}`.",
        "",
        f"- Machine: {info['cpu']}, {info['cores']} logical cores, pinned to CPU"
        f" {info['pinned_cpu']}",
        f"- Software: {info['python']}, {info['os']}; burraco {info['burraco']}",
        "- Load average (1 / 5 / 15 min): "
        + " / ".join(f"{x:.2f}" for x in load_before)
        + " before, "
        + " / ".join(f"{x:.2f}" for x in load_after)
        + " after",
        f"- Method: {args.deals} deals (seeds 1-{args.deals}), italian, 2 players, played by"
        f" two heuristic bots; seat 0 reviewed at {args.seconds:g} s per decision",
        "",
        "| Deal | Actions | Decisions | Wall s | CPU s | Playouts | Marked | MP lost |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['seed']} | {r['actions']} | {r['decisions']} | {r['wall']:.1f} |"
            f" {r['cpu']:.1f} | {r['playouts']:,} | {r['marked']} | {r['mp_lost']} |"
        )
    lines += [
        "",
        f"Per smazzata: median **{statistics.median(cpus):.1f} s** of CPU, max"
        f" **{max(cpus):.1f} s** ({verdict} the {TARGET_S:.0f} s target); wall median"
        f" {statistics.median(walls):.1f} s, max {max(walls):.1f} s; median"
        f" {statistics.median(per_decision):.2f} s of CPU per decision.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
