"""Benchmark of the bots: search speed (playouts per second per core) and the arena runs.

    .venv/bin/python bench/bots_bench.py speed [--players 2 4] [--games 3] [--seconds 0.5]
    .venv/bin/python bench/bots_bench.py arena [--deals-a 1000] [--deals-b 300] [--deals-c 300]
    .venv/bin/python bench/bots_bench.py commands    # print the arena command lines only
    .venv/bin/python bench/bots_bench.py table DIR...  # markdown rows from arena directories

``speed`` plays seeded ``italian`` smazzate of the search bot (the time budget per decision given
by ``--seconds``) against the heuristic, in this process (pinned to one CPU with ``--cpu``), and
reports per table size: the search bot's playouts (determinizations played out over ``depth``
turns and evaluated, the bot's default), the processor time they took and so playouts per second
per core, playouts per search, and the bot's decisions per second. With ``--depth -1`` every
playout runs to the end of the smazzata instead. ``--profile`` prints the top functions of a
cProfile run by own time.

``arena`` runs the three arena measurements of bench/README.md ("Bots") one after the other with
one worker process each (``-j 1``), resumably (each has its own ``--out`` directory under
``bench/out/``: rerunning the same command continues where it stopped):

  (a) heuristic vs random, 2 players (and heuristic vs greedy, for the ladder);
  (b) search (1 s per decision) vs heuristic, 2 players;
  (c) the same in 4 players: two search partners against two heuristic partners.

The figures (smazzate won, MP per smazzata with its 95% CI over duplicate deals, 3-smazzata
rounds, decisions per second) are in each directory's ``report.txt`` and ``pairings.csv``;
``table`` prints them as the markdown rows of bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import json
import os
import pstats
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from burraco.bots.heuristic import HeuristicBot  # noqa: E402
from burraco.bots.search import SearchBot  # noqa: E402
from burraco.engine import Smazzata, find_rules  # noqa: E402


def speed_games(
    players: int, games: int, seconds: float, depth: int, seed: int
) -> dict[str, float]:
    """Play ``games`` smazzate with search bots on the even seats; their playout statistics."""
    rules = find_rules("italian", players=players)
    totals = {"playouts": 0.0, "cpu": 0.0, "wall": 0.0, "searches": 0.0}
    decisions = 0
    choose_time = 0.0
    per_search: list[float] = []
    for game in range(games):
        state = Smazzata.new(rules, rng=random.Random(f"bots-bench:{seed}:{game}"))
        bots = [
            SearchBot(seed * 100 + game * 10 + s, seconds=seconds, depth=depth)
            if s % 2 == 0
            else HeuristicBot(s)
            for s in range(players)
        ]
        while not state.is_over:
            seat = state.current
            bot = bots[seat]
            legal = state.legal_actions()
            view = state.view(seat)
            if isinstance(bot, SearchBot):
                before = (bot.playouts, bot.searches)
                t0 = time.perf_counter()
                action = bot.choose(view, legal)
                choose_time += time.perf_counter() - t0
                decisions += 1
                if bot.searches > before[1]:
                    per_search.append(bot.playouts - before[0])
            else:
                action = bot.choose(view, legal)
            state.apply(action)
        for bot in bots:
            if isinstance(bot, SearchBot):
                totals["playouts"] += bot.playouts
                totals["cpu"] += bot.search_cpu
                totals["wall"] += bot.search_time
                totals["searches"] += bot.searches
    return {
        **totals,
        "decisions": float(decisions),
        "choose_seconds": choose_time,
        "playouts_per_cpu_s": totals["playouts"] / totals["cpu"] if totals["cpu"] else 0.0,
        "playouts_per_wall_s": totals["playouts"] / totals["wall"] if totals["wall"] else 0.0,
        "cpu_share": totals["cpu"] / totals["wall"] if totals["wall"] else 0.0,
        "median_playouts_per_search": statistics.median(per_search) if per_search else 0.0,
        "decisions_per_s": decisions / choose_time if choose_time else 0.0,
    }


def cmd_speed(args: argparse.Namespace) -> int:
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    print(
        f"search speed: italian, search (seconds={args.seconds}, depth={args.depth}) on the even "
        f"seats against the heuristic, {args.games} smazzate per table size"
    )
    print(f"load average before: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for players in args.players:
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
        r = speed_games(players, args.games, args.seconds, args.depth, args.seed)
        if args.profile:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        print(
            f"{players} players: {r['playouts']:,.0f} playouts in {r['searches']:.0f} searches, "
            f"{r['cpu']:.1f} s CPU ({r['wall']:.1f} s wall, {100 * r['cpu_share']:.0f}% of a CPU): "
            f"{r['playouts_per_cpu_s']:,.0f} playouts/s per core "
            f"({r['playouts_per_wall_s']:,.0f} per wall-clock second); "
            f"median {r['median_playouts_per_search']:.0f} playouts per search; "
            f"{r['decisions']:.0f} decisions, {r['decisions_per_s']:.2f} decisions/s"
        )
    print(f"load average after: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def arena_commands(args: argparse.Namespace) -> list[list[str]]:
    burraco = str(ROOT / ".venv" / "bin" / "burraco")
    out = Path(args.out)
    search = f"search:seconds={args.seconds:g}"
    return [
        [burraco, "arena", "--bots", "heuristic,random", "--players", "2", "-n",
         str(args.deals_a), "-j", "1", "--out", str(out / "arena-heuristic-random-2p")],
        [burraco, "arena", "--bots", "heuristic,greedy", "--players", "2", "-n",
         str(args.deals_a), "-j", "1", "--out", str(out / "arena-heuristic-greedy-2p")],
        [burraco, "arena", "--bot", search, "--bot", "heuristic", "--players", "2", "-n",
         str(args.deals_b), "-j", "1", "--out", str(out / "arena-search-heuristic-2p")],
        [burraco, "arena", "--bot", search, "--bot", "heuristic", "--players", "4", "-n",
         str(args.deals_c), "-j", "1", "--out", str(out / "arena-search-heuristic-4p")],
    ]  # fmt: skip


def cmd_arena(args: argparse.Namespace) -> int:
    status = 0
    for command in arena_commands(args):
        print("$", shlex.join(command), flush=True)
        if args.command == "commands":
            continue
        status = max(status, subprocess.run(command, check=False).returncode)
    return status


def _rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}"


def cmd_table(args: argparse.Namespace) -> int:
    print(
        "| A | B | players | deals | smazzate | A won | B won | tied | A % | MP/smazzata (A) "
        "| 95% CI | rounds: A-B-tied | rounds won by A | dec/s A | dec/s B |"
    )
    print("|" + " --- |" * 3 + " ---: |" * 12)
    for directory in args.dirs:
        settings = json.loads((Path(directory) / "settings.json").read_text())
        with open(Path(directory) / "pairings.csv", newline="") as f:
            for row in csv.DictReader(f):
                rounds = int(row["rounds"])
                won = int(row["a_rounds_won"])
                share = 100 * won / rounds if rounds else 0.0
                print(
                    f"| {row['bot_a']} | {row['bot_b']} | {settings['players']} | "
                    f"{int(row['deals']):,} | {int(row['smazzate']):,} | {row['a_won']} | "
                    f"{row['b_won']} | {row['tied']} | {float(row['a_score_pct']):.1f} | "
                    f"{float(row['mp_mean']):+.1f} | "
                    f"[{float(row['mp_ci_low']):+.1f}, {float(row['mp_ci_high']):+.1f}] | "
                    f"{rounds}: {won}-{row['b_rounds_won']}-{row['rounds_tied']} | "
                    f"{share:.1f}% | {_rate(float(row['a_decisions_per_s']))} | "
                    f"{_rate(float(row['b_decisions_per_s']))} |"
                )
    return 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    speed = sub.add_parser("speed", help="playouts per second per core of the search bot")
    speed.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    speed.add_argument("--games", type=int, default=3, help="smazzate per table size")
    speed.add_argument("--seconds", type=float, default=0.5, help="search budget per decision")
    speed.add_argument("--depth", type=int, default=4, help="turns per playout (-1: to the end)")
    speed.add_argument("--seed", type=int, default=1)
    speed.add_argument("--cpu", type=int, default=None, help="pin the process to this CPU")
    speed.add_argument("--profile", action="store_true", help="cProfile: top functions")
    for name in ("arena", "commands"):
        arena = sub.add_parser(name, help="the arena runs of bench/README.md (Bots)")
        arena.add_argument("--deals-a", type=int, default=1000)
        arena.add_argument("--deals-b", type=int, default=300)
        arena.add_argument("--deals-c", type=int, default=300)
        arena.add_argument("--seconds", type=float, default=1.0, help="search budget per decision")
        arena.add_argument("--out", default=str(ROOT / "bench" / "out"))
    table = sub.add_parser("table", help="markdown rows from arena output directories")
    table.add_argument("dirs", nargs="+", help="arena --out directories")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "speed":
        return cmd_speed(args)
    if args.command == "table":
        return cmd_table(args)
    return cmd_arena(args)


if __name__ == "__main__":
    sys.exit(main())
