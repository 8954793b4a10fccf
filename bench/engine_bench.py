"""The engine benchmark: random-legal Burraco self-play against OpenSpiel's gin rummy.

Run it with ``make bench`` (``./scripts/bench``). In one process, pinned to one CPU, it measures:

1. random-legal self-play of the ``italian`` preset for 2 and 4 players: smazzate/s and
   decisions/s, where a decision is one ``legal_actions()``, a uniformly random choice and one
   ``apply()``, and dealing each new smazzata is part of the timed work;
2. OpenSpiel's ``gin_rummy`` played at random through ``pyspiel``: games/s and decisions/s
   (player decisions only; chance nodes are sampled from ``chance_outcomes()``, timed but not
   counted);
3. the cost of ``Smazzata.copy()`` on states from the middle of random smazzate (and, for
   reference, of ``pyspiel.State.clone()`` on mid-game gin rummy states);
4. the ratio of Burraco decisions/s to gin rummy decisions/s.

Every figure is the median of several repeats (with min and max), the repeats of the three games
interleaved so that outside load hits them alike. The results are printed and written into the
marked section of ``bench/README.md``; ``--profile`` instead prints a cProfile of the Burraco loop.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from burraco.engine import Rules, Smazzata, find_rules

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "bench" / "README.md"
JSON_OUT = ROOT / "bench" / "out" / "engine_bench.json"
START_MARK = "<!-- engine-bench:start -->"
END_MARK = "<!-- engine-bench:end -->"

PRESET = "italian"
TABLE_SIZES = (2, 4)
GIN_RUMMY = "gin_rummy"

TARGET_SMAZZATE_PER_S = 500.0
"""Two-player random smazzate per second on one core."""
TARGET_COPY_US = 5.0
"""Microseconds per ``Smazzata.copy()``."""
TARGET_RATIO = 1.0
"""Burraco decisions/s over gin rummy decisions/s."""
LOADED_CPU_SHARE = 0.9
"""Below this share of a CPU during the repeats, the results carry a warning."""


# ------------------------------------------------------------------------------------ figures


@dataclass(frozen=True)
class Stat:
    """Median, min and max of a set of repeats."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Stat:
        return cls(statistics.median(values), min(values), max(values))


class Run(NamedTuple):
    """One timed repeat: games and decisions played, wall-clock and process CPU seconds."""

    games: int
    decisions: int
    seconds: float
    cpu_seconds: float


@dataclass(frozen=True)
class Throughput:
    """Games and decisions per second over the repeats of one game."""

    games_per_s: Stat
    decisions_per_s: Stat
    decisions_per_game: float
    games: int
    seconds: float
    cpu_share: Stat
    """Process CPU time over wall-clock time: below 1.0 when other processes took the CPU."""
    games_per_cpu_s: Stat
    decisions_per_cpu_s: Stat


@dataclass(frozen=True)
class CopyCost:
    """Microseconds per state copy: over repeats, and the spread of the per-state medians."""

    per_copy_us: Stat
    per_state_us: Stat
    states: int
    copies_per_repeat: int


@dataclass
class Results:
    started: str
    machine: dict[str, str]
    settings: dict[str, Any]
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    burraco: dict[int, Throughput] = field(default_factory=dict)
    gin: Throughput | None = None
    ratio: dict[int, Stat] = field(default_factory=dict)
    copy: dict[int, CopyCost] = field(default_factory=dict)
    gin_clone: CopyCost | None = None
    warmup: dict[int, list[float]] = field(default_factory=dict)
    """Per table size, smazzate per CPU second over each block of the warm-up (first to last)."""
    elapsed_s: float = 0.0


# ------------------------------------------------------------------------------------ Burraco


def burraco_rules(players: int) -> Rules:
    return find_rules(PRESET, players=players)


def play_smazzate(rules: Rules, rng: random.Random, seconds: float) -> Run:
    """Deal and play random smazzate until ``seconds`` (wall clock) have passed.

    The clock is read between smazzate only, so a repeat ends with a whole smazzata.
    """
    players = rules.players
    new = Smazzata.new
    clock = time.perf_counter
    smazzate = decisions = 0
    cpu_start = time.process_time()
    start = clock()
    while True:
        state = new(rules, rng=rng, first=smazzate % players)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])
            decisions += 1
        smazzate += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return Run(smazzate, decisions, elapsed, time.process_time() - cpu_start)


def play_smazzate_count(rules: Rules, rng: random.Random, count: int) -> int:
    """Play ``count`` random smazzate (warm-up and profiling); returns the decisions taken."""
    decisions = 0
    for i in range(count):
        state = Smazzata.new(rules, rng=rng, first=i % rules.players)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])
            decisions += 1
    return decisions


WARMUP_BLOCK = 1000
"""Smazzate per timed block of the warm-up."""


def warm_up(rules: Rules, seed: str, count: int) -> list[float]:
    """Play ``count`` smazzate; smazzate per CPU second over each block of WARMUP_BLOCK."""
    rng = random.Random(seed)
    rates = []
    for start in range(0, count, WARMUP_BLOCK):
        size = min(WARMUP_BLOCK, count - start)
        cpu = time.process_time()
        for i in range(start, start + size):
            state = Smazzata.new(rules, rng=rng, first=i % rules.players)
            while not state.is_over:
                actions = state.legal_actions()
                state.apply(actions[int(rng.random() * len(actions))])
        rates.append(size / max(time.process_time() - cpu, 1e-9))
    return rates


def mid_game_smazzate(rules: Rules, seed: int, count: int) -> list[Smazzata]:
    """States halfway (in decisions) through ``count`` seeded random smazzate."""
    states = []
    for i in range(count):
        length = play_smazzate_count(rules, random.Random(f"copy-{seed}-{i}"), 1)
        rng = random.Random(f"copy-{seed}-{i}")  # the same smazzata again, stopped halfway
        state = Smazzata.new(rules, rng=rng, first=0)
        for _ in range(length // 2):
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])
        states.append(state)
    return states


# ---------------------------------------------------------------------------------- gin rummy


def load_gin_rummy() -> Any:
    try:
        import pyspiel
    except ImportError:
        sys.exit(
            "pyspiel is not installed: run `make bench`, or "
            "`.venv/bin/pip install -e '.[dev,bench]'` first"
        )
    return pyspiel.load_game(GIN_RUMMY)


def sample_chance(state: Any, rng: random.Random) -> int:
    """An outcome of a chance node, drawn with the probabilities of ``chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, probability in outcomes:
        x -= probability
        if x < 0.0:
            return int(action)
    return int(outcomes[-1][0])


def play_gin_game(game: Any, rng: random.Random, stop_after: int | None = None) -> tuple[Any, int]:
    """One random game (or its first ``stop_after`` decisions): (state, decisions)."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions != stop_after:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            decisions += 1
    return state, decisions


def play_gin(game: Any, rng: random.Random, seconds: float) -> Run:
    """Play random gin rummy games until ``seconds`` (wall clock) have passed."""
    clock = time.perf_counter
    games = decisions = 0
    cpu_start = time.process_time()
    start = clock()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
                decisions += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return Run(games, decisions, elapsed, time.process_time() - cpu_start)


def mid_game_gin_states(game: Any, seed: int, count: int) -> list[Any]:
    states = []
    for i in range(count):
        _, length = play_gin_game(game, random.Random(f"clone-{seed}-{i}"))
        state, _ = play_gin_game(game, random.Random(f"clone-{seed}-{i}"), length // 2)
        states.append(state)
    return states


# ------------------------------------------------------------------------------- measurement


def throughput(runs: Sequence[Run]) -> Throughput:
    games = sum(r.games for r in runs)
    return Throughput(
        games_per_s=Stat.of([r.games / r.seconds for r in runs]),
        decisions_per_s=Stat.of([r.decisions / r.seconds for r in runs]),
        decisions_per_game=sum(r.decisions for r in runs) / games,
        games=games,
        seconds=sum(r.seconds for r in runs),
        cpu_share=Stat.of([r.cpu_seconds / r.seconds for r in runs]),
        games_per_cpu_s=Stat.of([r.games / r.cpu_seconds for r in runs]),
        decisions_per_cpu_s=Stat.of([r.decisions / r.cpu_seconds for r in runs]),
    )


def copy_cost(copiers: Sequence[Callable[[], object]], repeats: int, number: int) -> CopyCost:
    """Time ``number`` calls of each copier, ``repeats`` times; microseconds per call."""
    per_repeat: list[float] = []
    per_state: list[list[float]] = [[] for _ in copiers]
    for _ in range(repeats):
        total = 0.0
        for i, copier in enumerate(copiers):
            seconds = timeit.Timer(copier).timeit(number)
            per_state[i].append(seconds / number * 1e6)
            total += seconds
        per_repeat.append(total / (number * len(copiers)) * 1e6)
    return CopyCost(
        per_copy_us=Stat.of(per_repeat),
        per_state_us=Stat.of([statistics.median(times) for times in per_state]),
        states=len(copiers),
        copies_per_repeat=number * len(copiers),
    )


def pin_to_one_cpu(requested: int | None) -> int | None:
    """Pin the process to one CPU: ``requested``, or the idlest over a short sample."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    cpu = requested if requested is not None else idlest_cpu(allowed)
    os.sched_setaffinity(0, {cpu})
    return cpu


def idlest_cpu(allowed: Sequence[int], sample_s: float = 0.5) -> int:
    def idle_ticks() -> dict[int, int]:
        ticks = {}
        try:
            lines = Path("/proc/stat").read_text().splitlines()
        except OSError:
            return {}
        for line in lines:
            name, *fields = line.split()
            if name.startswith("cpu") and name != "cpu":
                ticks[int(name[3:])] = int(fields[3]) + int(fields[4])  # idle + iowait
        return ticks

    before = idle_ticks()
    time.sleep(sample_s)
    after = idle_ticks()
    return max(allowed, key=lambda cpu: after.get(cpu, 0) - before.get(cpu, 0))


def machine_info(cpu: int | None) -> dict[str, str]:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    os_name = platform.platform()
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name = f"{line.split('=', 1)[1].strip(chr(34))}, kernel {platform.release()}"
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": str(os.cpu_count()),
        "pinned_cpu": "not pinned" if cpu is None else str(cpu),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": os_name,
        "open_spiel": package_version("open_spiel"),
        "burraco": f"{package_version('burraco')} ({git_revision()})",
    }


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_revision() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "no git commit"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "src")
    return f"commit {commit}" + (", src/ modified" if dirty else "")


def run(args: argparse.Namespace) -> Results:
    cpu = None if args.no_pin else pin_to_one_cpu(args.cpu)
    results = Results(
        started=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        machine=machine_info(cpu),
        settings={
            "repeats": args.repeats,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "seed": args.seed,
            "copy_states": args.copy_states,
        },
        load_before=os.getloadavg(),
    )
    clock = time.perf_counter()
    rules = {players: burraco_rules(players) for players in TABLE_SIZES}
    game = load_gin_rummy()

    # The engine memoises move-generation candidates lazily, so a cold engine is slower: the
    # warm-up is timed in blocks, and the measured repeats start once it is done.
    log(f"warm-up: {args.warmup} smazzate per table size, {args.warmup // 10} gin rummy games")
    for players in TABLE_SIZES:
        results.warmup[players] = warm_up(rules[players], f"warmup-{players}", args.warmup)
        blocks = ", ".join(f"{r:,.0f}" for r in results.warmup[players])
        log(f"warm-up {players}p, smazzate/s by block of {WARMUP_BLOCK}: {blocks}")
    warm = random.Random("warmup-gin")
    for _ in range(args.warmup // 10):
        play_gin_game(game, warm)

    burraco_runs: dict[int, list[Run]] = {p: [] for p in TABLE_SIZES}
    gin_runs: list[Run] = []
    for repeat in range(args.repeats):
        for players in TABLE_SIZES:
            gc.collect()
            rng = random.Random(f"{args.seed}-burraco-{players}-{repeat}")
            done = play_smazzate(rules[players], rng, args.seconds)
            burraco_runs[players].append(done)
            log(f"repeat {repeat + 1}/{args.repeats}: burraco {players}p {rate(done)}")
        gc.collect()
        done = play_gin(game, random.Random(f"{args.seed}-gin-{repeat}"), args.seconds)
        gin_runs.append(done)
        log(f"repeat {repeat + 1}/{args.repeats}: gin rummy {rate(done)}")

    results.gin = throughput(gin_runs)
    gin_rates = [r.decisions / r.seconds for r in gin_runs]
    for players in TABLE_SIZES:
        runs = burraco_runs[players]
        results.burraco[players] = throughput(runs)
        # Repeat i of each game ran back to back, so the ratio is taken per repeat.
        results.ratio[players] = Stat.of(
            [r.decisions / r.seconds / g for r, g in zip(runs, gin_rates, strict=True)]
        )

    log(f"copy cost: {args.copy_states} mid-game states per table size")
    for players in TABLE_SIZES:
        states = mid_game_smazzate(rules[players], args.seed, args.copy_states)
        results.copy[players] = copy_cost([s.copy for s in states], args.repeats, args.copies)
    clones = mid_game_gin_states(game, args.seed, args.copy_states)
    results.gin_clone = copy_cost([s.clone for s in clones], args.repeats, args.copies)

    results.load_after = os.getloadavg()
    results.elapsed_s = time.perf_counter() - clock
    return results


def rate(done: Run) -> str:
    return (
        f"{done.games / done.seconds:,.0f} games/s, {done.decisions / done.seconds:,.0f} "
        f"decisions/s, {done.cpu_seconds / done.seconds:.0%} CPU"
    )


def log(message: str) -> None:
    print(f"  {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------- reporting


def figure_rows(results: Results) -> list[tuple[str, Stat, str]]:
    rows: list[tuple[str, Stat, str]] = []
    for players, done in results.burraco.items():
        rows.append((f"Burraco {players}p: smazzate/s", done.games_per_s, "1/s"))
        rows.append((f"Burraco {players}p: decisions/s", done.decisions_per_s, "1/s"))
    if results.gin is not None:
        rows.append(("gin rummy: games/s", results.gin.games_per_s, "1/s"))
        rows.append(("gin rummy: decisions/s", results.gin.decisions_per_s, "1/s"))
    for players, ratio in results.ratio.items():
        rows.append((f"ratio Burraco {players}p ÷ gin rummy decisions/s", ratio, "×"))
    for players, cost in results.copy.items():
        rows.append((f"`Smazzata.copy()`, {players}p mid-game", cost.per_copy_us, "µs"))
    if results.gin_clone is not None:
        rows.append(("gin rummy `State.clone()`, mid-game", results.gin_clone.per_copy_us, "µs"))
    return rows


def target_rows(results: Results) -> list[tuple[str, str, bool]]:
    rows = []
    for players, ratio in results.ratio.items():
        rows.append(
            (
                f"Burraco {players}p decisions/s ≥ gin rummy decisions/s",
                f"{ratio.median:.2f}×",
                ratio.median >= TARGET_RATIO,
            )
        )
    if 2 in results.burraco:
        speed = results.burraco[2].games_per_s.median
        rows.append(
            (
                f"≥ {TARGET_SMAZZATE_PER_S:.0f} two-player smazzate/s on one core",
                f"{speed:,.0f}/s",
                speed >= TARGET_SMAZZATE_PER_S,
            )
        )
    for players, cost in results.copy.items():
        us = cost.per_copy_us.median
        rows.append(
            (
                f"`Smazzata.copy()` < {TARGET_COPY_US:g} µs ({players}p mid-game)",
                f"{us:.2f} µs",
                us < TARGET_COPY_US,
            )
        )
    return rows


def number(value: float, unit: str) -> str:
    if unit in ("µs", "×"):
        return f"{value:.2f}"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def load_text(load: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in load)


def markdown(results: Results, command: str) -> str:
    m = results.machine
    s = results.settings
    lines = [
        START_MARK,
        "<!-- Generated by bench/engine_bench.py: the next run replaces this section. -->",
        "",
        f"Last run: **{results.started}**, command `{command}`.",
        "",
        f"- Machine: {m['cpu']}, {m['cores']} logical cores, run pinned to CPU {m['pinned_cpu']}",
        f"- Software: {m['python']}, {m['os']}; open_spiel {m['open_spiel']}; "
        f"burraco {m['burraco']}",
        f"- Load average (1 / 5 / 15 min): {load_text(results.load_before)} before, "
        f"{load_text(results.load_after)} after",
        f"- Method: {s['repeats']} repeats of ≥ {s['seconds']:g} s per game, interleaved; "
        f"{s['warmup']} warm-up smazzate per table size; copies timed on {s['copy_states']} "
        f"mid-game states per table size; total run {results.elapsed_s:.0f} s",
        "",
        "| Measure | Median | Min | Max | Unit |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for name, stat, unit in figure_rows(results):
        lines.append(
            f"| {name} | {number(stat.median, unit)} | {number(stat.low, unit)} "
            f"| {number(stat.high, unit)} | {unit} |"
        )
    lines += ["", "| Target | Measured (median) | Result |", "| --- | ---: | --- |"]
    for name, measured, passed in target_rows(results):
        lines.append(f"| {name} | {measured} | {'pass' if passed else '**FAIL**'} |")
    lines += ["", *detail_lines(results)]
    warning = load_warning(results)
    if warning:
        lines += ["", f"**{warning}**"]
    lines.append(END_MARK)
    return "\n".join(lines) + "\n"


def load_warning(results: Results) -> str | None:
    """A caution when other processes took a share of the benchmark's CPU."""
    games = [*results.burraco.values(), *([results.gin] if results.gin else [])]
    share = min((done.cpu_share.median for done in games), default=1.0)
    if share >= LOADED_CPU_SHARE:
        return None
    return (
        f"Measured under load: the process had only {share:.0%} of a CPU, so the per-second "
        "figures are low; the ratios, and the per CPU-second figures above, suffer less."
    )


def detail_lines(results: Results) -> list[str]:
    lines = []
    for players, done in results.burraco.items():
        lines.append(
            f"- Burraco {players}p: {done.games:,} smazzate in {done.seconds:.1f} s, "
            f"{done.decisions_per_game:.1f} decisions per smazzata; {cpu_text(done)}"
        )
    if results.gin is not None:
        lines.append(
            f"- gin rummy: {results.gin.games:,} games in {results.gin.seconds:.1f} s, "
            f"{results.gin.decisions_per_game:.1f} player decisions per game "
            f"(chance nodes sampled, timed, not counted); {cpu_text(results.gin)}"
        )
    for order, (players, blocks) in enumerate(results.warmup.items()):
        start = "from a cold engine" if order == 0 else "after the warm-up above"
        lines.append(
            f"- Warm-up {players}p, smazzate per CPU second by block of {WARMUP_BLOCK:,} {start}:"
            f" {', '.join(f'{r:,.0f}' for r in blocks)}"
        )
    costs = [(f"`Smazzata.copy()` {p}p", c) for p, c in results.copy.items()]
    if results.gin_clone is not None:
        costs.append(("gin rummy `State.clone()`", results.gin_clone))
    for name, cost in costs:
        lines.append(
            f"- {name}: per-state medians from {cost.per_state_us.low:.2f} to "
            f"{cost.per_state_us.high:.2f} µs ({cost.copies_per_repeat:,} copies per repeat)"
        )
    return lines


def cpu_text(done: Throughput) -> str:
    share = done.cpu_share
    return (
        f"the process had {share.median:.0%} of a CPU (min {share.low:.0%}); per CPU second "
        f"{done.games_per_cpu_s.median:,.0f} games and {done.decisions_per_cpu_s.median:,.0f} "
        "decisions (medians)"
    )


def table(results: Results) -> str:
    rows = [(name, stat, unit) for name, stat, unit in figure_rows(results)]
    width = max(len(name) for name, _, _ in rows)
    out = [f"{'measure':<{width}}  {'median':>10}  {'min':>10}  {'max':>10}  unit"]
    for name, stat, unit in rows:
        out.append(
            f"{name:<{width}}  {number(stat.median, unit):>10}  {number(stat.low, unit):>10}  "
            f"{number(stat.high, unit):>10}  {unit}"
        )
    out.append("")
    for name, measured, passed in target_rows(results):
        out.append(f"{'PASS' if passed else 'FAIL'}  {name}: {measured}")
    out += ["", *(line.removeprefix("- ").replace("`", "") for line in detail_lines(results))]
    warning = load_warning(results)
    if warning:
        out.append(warning)
    out.append(
        f"load average before {load_text(results.load_before)}, "
        f"after {load_text(results.load_after)}"
    )
    return "\n".join(out)


def write_section(path: Path, section: str) -> None:
    """Replace the marked section of ``path`` (or append one), keeping the rest of the file."""
    text = path.read_text() if path.exists() else ""
    start, end = text.find(START_MARK), text.find(END_MARK)
    if start != -1 and end > start:
        rest = text[end + len(END_MARK) :]
        text = text[:start] + section + rest.removeprefix("\n")
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    path.write_text(text)


def write_json(path: Path, results: Results) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(results), indent=2, ensure_ascii=False) + "\n")


# ----------------------------------------------------------------------------------- profiling


def profile(smazzate: int, players: int, top: int, warmup: int) -> None:
    """Print the ``top`` functions by own time over ``smazzate`` random smazzate."""
    rules = burraco_rules(players)
    play_smazzate_count(rules, random.Random("profile-warmup"), warmup)
    profiler = cProfile.Profile()
    rng = random.Random("profile")
    profiler.runcall(play_smazzate_count, rules, rng, smazzate)
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats(pstats.SortKey.TIME).print_stats(top)


# ---------------------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=5, help="repeats per game (default 5)")
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="minimum length of a repeat (default 2 s)"
    )
    parser.add_argument(
        "--warmup", type=int, default=5000, help="warm-up smazzate per table size (default 5000)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random players")
    parser.add_argument("--copy-states", type=int, default=64, help="mid-game states to copy")
    parser.add_argument("--copies", type=int, default=2000, help="copies per state per repeat")
    parser.add_argument("--cpu", type=int, help="CPU to pin to (default: the idlest)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    parser.add_argument("--no-write", action="store_true", help="print only, leave README alone")
    parser.add_argument("--readme", type=Path, default=README, help="file with the marked section")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead of benchmarking, print a cProfile of the Burraco loop",
    )
    parser.add_argument("--profile-smazzate", type=int, default=300)
    parser.add_argument("--profile-players", type=int, default=2, choices=TABLE_SIZES)
    parser.add_argument("--top", type=int, default=10, help="functions listed by --profile")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0 or args.copy_states < 1 or args.copies < 1:
        parser.error("--repeats, --seconds, --copy-states and --copies must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.profile:
        profile(args.profile_smazzate, args.profile_players, args.top, args.warmup)
        return 0
    results = run(args)
    print(table(results))
    if not args.no_write:
        extra = " ".join(sys.argv[1:] if argv is None else argv)
        command = f"./scripts/bench {extra}" if extra else "make bench"
        write_section(args.readme, markdown(results, command))
        write_json(JSON_OUT, results)
        print(f"results written to {display(args.readme)} and {display(JSON_OUT)}")
    return 0


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
