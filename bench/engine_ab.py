"""Compare the engine of the working tree with the engine of a git revision, on one core.

The engine imports only itself and the standard library, so ``src/burraco/engine`` of any
revision runs as a package of its own: this script extracts the revision's copy (``git
archive``) and the working tree's side by side in a temporary directory and plays the benchmark
loop of ``engine_bench.py`` (random-legal self-play, dealing included) with each.

Two measures, in the same run:

* ``--time`` (default): each repeat runs one process per engine (the order alternating), which
  warms up, then times ``--smazzate`` smazzate on its process clock; medians of smazzate/s and
  of the per-repeat ratio tree/revision. Separate processes keep one engine's memos and
  garbage from slowing the other.
* ``--lines``: Python lines executed and functions called per smazzata, traced after the same
  warm-up: exact and repeatable whatever else the machine does, a proxy for the interpreter's
  work (it does not see work done in C, memory or the collector).

    .venv/bin/python bench/engine_ab.py a3a740a             # time, 2 players
    .venv/bin/python bench/engine_ab.py HEAD~3 --lines --players 4
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path("src/burraco/engine")

# Run in a child process: argv = package, players, smazzate, warm-up, seed, mode.
CHILD = r"""
import importlib, random, sys, time
package, players, count, warmup, seed, mode = sys.argv[1:]
players, count, warmup = int(players), int(count), int(warmup)
engine = importlib.import_module(package)
rules = engine.find_rules("italian", players=players)
new = engine.Smazzata.new

def play(n, seed):
    rng = random.Random(seed)
    decisions = 0
    for i in range(n):
        state = new(rules, rng=rng, first=i % players)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])
            decisions += 1
    return decisions

play(warmup, "warm-up")
if mode == "time":
    start = time.process_time()
    decisions = play(count, seed)
    print(count / (time.process_time() - start), decisions)
else:
    counts = [0, 0]
    def trace(frame, event, arg):
        if event == "line":
            counts[0] += 1
        elif event == "call":
            counts[1] += 1
        return trace
    sys.settrace(trace)
    decisions = play(count, seed)
    sys.settrace(None)
    print(counts[0] / count, counts[1] / count, decisions)
"""


def extract(revision: str, into: Path) -> None:
    """The engine of ``revision`` as the package ``into.name``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, str(ENGINE)],
        check=True,
        capture_output=True,
    ).stdout
    unpack = into.parent / "unpack"
    unpack.mkdir()
    subprocess.run(["tar", "-x", "-C", str(unpack)], input=archive, check=True)
    (unpack / ENGINE).rename(into)
    shutil.rmtree(unpack)


def child(where: Path, package: str, args: argparse.Namespace, seed: str, mode: str) -> list[str]:
    command = [sys.executable, "-c", CHILD, package, str(args.players), str(args.smazzate)]
    command += [str(args.warmup), seed, mode]
    if args.cpu is not None:
        command = ["taskset", "-c", str(args.cpu), *command]
    env = {**os.environ, "PYTHONPATH": str(where)}
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    return out.split()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("revision", nargs="?", default="HEAD", help="git revision (default HEAD)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--repeats", type=int, default=6, help="process pairs (--time)")
    parser.add_argument("--smazzate", type=int, default=1000, help="smazzate measured per process")
    parser.add_argument("--warmup", type=int, default=1000, help="smazzate played first")
    parser.add_argument("--cpu", type=int, default=None, help="pin the processes to this CPU")
    parser.add_argument("--lines", action="store_true", help="count lines and calls instead")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="engine-ab-") as tmp:
        where = Path(tmp)
        extract(args.revision, where / "engine_rev")
        shutil.copytree(
            ROOT / ENGINE, where / "engine_tree", ignore=shutil.ignore_patterns("__pycache__")
        )
        names = {"engine_rev": args.revision, "engine_tree": "working tree"}
        if args.lines:
            if args.smazzate > 300:
                args.smazzate = 200  # tracing is slow; the counts settle within a few hundred
            for package, name in names.items():
                lines, calls, decisions = child(where, package, args, "measure", "lines")
                print(
                    f"{name}: {float(lines):,.0f} lines and {float(calls):,.0f} calls per"
                    f" smazzata ({int(decisions) / args.smazzate:.1f} decisions)"
                )
            return 0
        rates: dict[str, list[float]] = {package: [] for package in names}
        for repeat in range(args.repeats):
            order = list(names) if repeat % 2 == 0 else list(reversed(names))
            for package in order:
                rate, _ = child(where, package, args, f"repeat-{repeat}", "time")
                rates[package].append(float(rate))
        rev, tree = rates["engine_rev"], rates["engine_tree"]
        ratios = [t / r for r, t in zip(rev, tree, strict=True)]
        for package, name in names.items():
            values = rates[package]
            print(
                f"{name}: {statistics.median(values):.0f} smazzate/s"
                f" (min {min(values):.0f}, max {max(values):.0f})"
            )
        print(
            f"working tree / {args.revision}: {statistics.median(ratios):.3f}"
            f" (min {min(ratios):.3f}, max {max(ratios):.3f}) over {args.repeats} process pairs,"
            f" {args.players} players, {args.smazzate} smazzate each after {args.warmup}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
