"""``burraco arena``: bots against bots over duplicate deals, with statistics and ratings.

See docs/arena.md. Exit 0 when every game was played, 130 when stopped by Ctrl-C (the finished
games are kept: the same command resumes), 1 when some games failed, 2 for bad arguments or an
output directory that holds other settings' results.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from burraco.bots import make_bot
from burraco.bots.arena import (
    RESULTS_FILE,
    Entrant,
    GameResult,
    Settings,
    make_tables,
    parse_entrant,
    run_arena,
    split_bot_list,
)
from burraco.bots.arena_report import summarize, text_report, write_chart, write_csv
from burraco.engine import Rules, find_rules
from burraco.engine.errors import RulesError
from burraco.engine.rules import coerce_option, parameter_names

from . import extras
from .progress import Progress

REPORT_FILE = "report.txt"
PAIRINGS_CSV = "pairings.csv"
RATINGS_CSV = "ratings.csv"
CHART_FILE = "ratings.png"


def _parse_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    if "," in text:
        return [part.strip() for part in text.split(",") if part.strip()]
    return text


def rules_of(args: argparse.Namespace) -> Rules:
    overrides: dict[str, Any] = {}
    if args.players is not None:
        overrides["players"] = args.players
    for item in args.option:
        name, sep, text = item.partition("=")
        if not sep or name not in parameter_names():
            raise RulesError(f"--option {item!r}: expected NAME=VALUE with a ruleset parameter")
        overrides[name] = coerce_option(name, _parse_value(text))
    return find_rules(args.rules, **overrides)


def entrants_of(args: argparse.Namespace) -> list[Entrant]:
    specs = list(args.bot)
    if args.bots:
        specs += split_bot_list(args.bots)
    if not specs:
        specs = ["greedy", "random"]
    entrants = [parse_entrant(s) for s in specs]
    for entrant in entrants:
        # Fail now, not in a worker: an unknown level, bad options, a program that won't start.
        make_bot(entrant.spec, 0).close()
    return entrants


def settings_of(args: argparse.Namespace) -> Settings:
    if args.deals < 1:
        raise ValueError("--deals must be at least 1")
    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    if args.bootstrap < 0:
        raise ValueError("--bootstrap must not be negative")
    rules = rules_of(args)
    entrants = entrants_of(args)
    pairings = [[x.strip() for x in p.split(",") if x.strip()] for p in args.pairing]
    tables = make_tables(entrants, rules.players, pairings)
    return Settings(rules, args.seed, args.deals, tuple(tables))


def run(args: argparse.Namespace) -> int:
    if not args.no_chart:  # fail now, not once every game is played
        extras.require("charts", "burraco arena's chart", " (or pass --no-chart)")
    settings = settings_of(args)
    out = Path(args.out)
    err = sys.stderr
    bar: Progress | None = None
    start = time.perf_counter()
    shown = 0

    def on_start(to_play: int, done: int) -> None:
        nonlocal bar
        if done:
            print(
                f"{out}: {done} games already played, {to_play} to play (resuming)",
                file=err,
            )
        bar = Progress(to_play, "smazzate", force=args.progress)
        bar.__enter__()

    def on_result(result: GameResult) -> None:
        nonlocal shown
        if result.error is not None and shown < 5:
            shown += 1
            print(f"\ngame failed (not stored): {result.error}", file=err)
        if bar is not None:
            bar.advance()

    def on_interrupt(in_flight: int) -> None:
        print(
            f"\nstopping: finishing the {in_flight} games in flight (Ctrl-C again to drop them)",
            file=err,
        )

    def on_terminate(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt  # SIGTERM stops the arena as Ctrl-C does

    previous: Any = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, on_terminate)
    try:
        results, outcome = run_arena(
            settings,
            out,
            jobs=args.jobs,
            records=args.records,
            on_start=on_start,
            on_result=on_result,
            on_interrupt=on_interrupt,
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if bar is not None:
            bar.__exit__(None, None, None)
    elapsed = time.perf_counter() - start
    failures = outcome.failed
    summary = summarize(settings, results, bootstrap=args.bootstrap, round_size=args.round_size)
    report = text_report(summary)
    rate = outcome.played / elapsed if elapsed > 0 else 0.0
    footer = (
        f"\n{outcome.played} smazzate played in {elapsed:.1f} s ({rate:,.1f}/s, {args.jobs} jobs)"
        f", {outcome.skipped} from earlier runs; results in {out / RESULTS_FILE}\n"
    )
    (out / REPORT_FILE).write_text(report, encoding="utf-8")
    write_csv(summary, out / PAIRINGS_CSV, out / RATINGS_CSV)
    if not args.no_chart:
        write_chart(summary, out / CHART_FILE)
    if not args.quiet:
        print(report + footer, end="")
    if failures:
        print(f"{len(failures)} games failed and were not stored; the first:", file=err)
        print(f"  {failures[0]}", file=err)
    if outcome.interrupted:
        print(
            "interrupted: the report covers the finished games; run the same command to resume",
            file=err,
        )
        return 130
    return 1 if failures else 0
