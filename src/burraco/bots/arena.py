"""The arena: bots against bots over duplicate deals, on all cores, resumable.

A *deal* is a deck order and a first seat, both drawn from ``random.Random("burraco-arena:SEED:D")``
for deal number D, so deal D is the same for every pairing and every run with the same seed. Each
deal is played once per *seat layout* of the table (``seat_layouts``): with two bots A and B,
2 players: A-B then B-A; 4 players: A-B-A-B then B-A-B-A (partners of the same bot form a line,
then the lines swap); 3 players: the three bots rotate through the three seats, or with two bots
the six layouts A-B-B, B-A-B, B-B-A, B-A-A, A-B-A, A-A-B. Each such play of a deal is one *game*
(one smazzata), the unit of work, of the results file and of the records.

Every finished game is one JSON line in ``results.jsonl``; ``settings.json`` holds what defines
the games (the ruleset and the seed). A rerun with the same settings skips the games already in
the file, so a run can be stopped and resumed, or extended with more deals or more bots.

A bot that raises, returns something that is not one of the legal actions, or (an outside
program) fails, has that move played by the engine's automatic play (RULES.md T13); the fault is
counted for the bot and the game goes on. Bots are made afresh for every game, from a seed derived
from the settings, the table, the deal, the play and the seat, and always closed.

The module is ~700 lines: the duplicate schedule, the worker pool, resuming and the records are
one run's life and share its settings; the statistics and the report are apart (``ratings.py``,
``arena_report.py``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import multiprocessing
import os
import queue
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from burraco.engine import Action, Rules, Smazzata
from burraco.engine.autoplay import auto_play_choice
from burraco.engine.cards import Card
from burraco.engine.deal import shuffled_deck
from burraco.engine.game import options_of
from burraco.engine.record import HandRecord, Record, write_record
from burraco.engine.rules import option_to_toml

from .base import Bot
from .registry import make_bot

FORMAT: Final = "burraco-arena/1"
SETTINGS_FILE: Final = "settings.json"
RESULTS_FILE: Final = "results.jsonl"
RECORDS_DIR: Final = "records"
MAX_NOTES: Final = 3
"""Different fault messages kept per bot and game (all faults are counted)."""


# ------------------------------------------------------------------------------ entrants, tables


@dataclass(frozen=True, slots=True)
class Entrant:
    """A bot in the arena: a label for the reports and the spec ``make_bot`` understands."""

    label: str
    spec: str


def parse_entrant(text: str) -> Entrant:
    """``SPEC`` or ``LABEL=SPEC`` (``fast=search:seconds=0.1``; ``cmd:python bot.py``)."""
    text = text.strip()
    head, sep, rest = text.partition("=")
    if sep and head and ":" not in head and " " not in head and rest.strip():
        return Entrant(head, rest.strip())
    if not text:
        raise ValueError("an empty bot spec")
    return Entrant(text, text)


def split_bot_list(text: str) -> list[str]:
    """Split ``random,greedy,search:seconds=0.5,rollouts=8`` into specs: a piece ``KEY=VALUE``
    without a ``:`` right after a spec with options continues that spec's options (so a
    ``LABEL=LEVEL`` there needs ``--bot``, as does a ``cmd:`` spec with commas)."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece and ":" in out[-1]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


@dataclass(frozen=True, slots=True)
class Table:
    """The bots that meet at one table (2, or 2 or 3 with 3 players), in the listed order."""

    bots: tuple[Entrant, ...]

    @property
    def label(self) -> str:
        return " vs ".join(b.label for b in self.bots)

    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(b.spec for b in self.bots)


def seat_layouts(bots: int, players: int) -> tuple[tuple[int, ...], ...]:
    """For each play of a deal, the index (into the table's bots) of the bot at each seat.

    Every bot meets every seat the same number of times, in every role: that is what makes the
    luck of the cards cancel out over the plays of one deal.
    """
    if players == 2 and bots == 2:
        return ((0, 1), (1, 0))
    if players == 4 and bots == 2:
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if players == 3 and bots == 3:
        return tuple(tuple((seat - play) % 3 for seat in range(3)) for play in range(3))
    if players == 3 and bots == 2:
        # One bot alone against two copies of the other, the lone bot at each seat in turn.
        alone_a = tuple(tuple(0 if s == k else 1 for s in range(3)) for k in range(3))
        alone_b = tuple(tuple(1 if s == k else 0 for s in range(3)) for k in range(3))
        return alone_a + alone_b
    raise ValueError(f"a {players}-player table cannot seat {bots} different bots")


def make_tables(
    entrants: Sequence[Entrant], players: int, pairings: Sequence[Sequence[str]] = ()
) -> list[Table]:
    """The tables to play: the given pairings (by label), or a round robin of all entrants
    (every pair; with 3 players and three or more bots every trio)."""
    labels = [e.label for e in entrants]
    if len(set(labels)) != len(labels):
        dup = next(x for x in labels if labels.count(x) > 1)
        raise ValueError(f"two bots are labelled {dup!r}; name them with LABEL=SPEC")
    by_label = {e.label: e for e in entrants}
    tables: list[Table] = []
    if pairings:
        for pairing in pairings:
            unknown = [x for x in pairing if x not in by_label]
            if unknown:
                raise ValueError(
                    f"pairing {','.join(pairing)}: no bot labelled {unknown[0]!r}"
                    f" (bots: {', '.join(labels)})"
                )
            if len(set(pairing)) != len(pairing):
                raise ValueError(f"pairing {','.join(pairing)} names a bot twice")
            tables.append(Table(tuple(by_label[x] for x in pairing)))
    else:
        if len(entrants) < 2:
            raise ValueError("the arena needs at least two bots")
        size = 3 if players == 3 and len(entrants) >= 3 else 2
        tables = [Table(combo) for combo in itertools.combinations(entrants, size)]
    for table in tables:
        seat_layouts(len(table.bots), players)  # raises for a table that cannot be seated
    keys = [t.specs for t in tables]
    if len(set(keys)) != len(keys):
        raise ValueError("the same pairing is listed twice")
    return tables


# ------------------------------------------------------------------------------ settings, deals


@dataclass(frozen=True)
class Settings:
    """What the arena plays: the ruleset, the seed, the tables and the number of deals."""

    rules: Rules
    seed: int
    deals: int
    tables: tuple[Table, ...]

    def fingerprint(self) -> dict[str, Any]:
        """What defines the games (``settings.json``): the same fingerprint, the same games.
        The bots and the number of deals are not part of it: each result names its bots."""
        options = {k: option_to_toml(k, v) for k, v in sorted(options_of(self.rules).items())}
        return {
            "format": FORMAT,
            "rules": self.rules.name,
            "players": self.rules.players,
            "options": options,
            "seed": self.seed,
        }


def deal_of(rules: Rules, seed: int, deal: int) -> tuple[list[Card], int]:
    """The deck order and the first seat of deal number ``deal``."""
    rng = random.Random(f"burraco-arena:{seed}:{deal}")
    first = rng.randrange(rules.players)
    return shuffled_deck(rules, rng), first


def bot_seed(seed: int, specs: Sequence[str], deal: int, play: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in one game (a pure function of the game)."""
    key = json.dumps([seed, list(specs), deal, play, seat])
    return random.Random(key).getrandbits(48)


@dataclass(frozen=True)
class GameTask:
    """One game to play: a deal of a table with one seat layout (picklable, for the workers)."""

    rules: Rules
    seed: int
    table: Table
    deal: int
    play: int
    layout: tuple[int, ...]
    records: str | None = None
    """Directory to write the game's record into (None: no record)."""

    @property
    def key(self) -> tuple[tuple[str, ...], int, int]:
        return (self.table.specs, self.deal, self.play)


def plan(settings: Settings, *, records: str | None = None) -> list[GameTask]:
    """Every game of the run, deal by deal (so a stopped run leaves few incomplete deals)."""
    tasks: list[GameTask] = []
    players = settings.rules.players
    for deal in range(settings.deals):
        for table in settings.tables:
            for play, layout in enumerate(seat_layouts(len(table.bots), players)):
                tasks.append(
                    GameTask(settings.rules, settings.seed, table, deal, play, layout, records)
                )
    return tasks


# ------------------------------------------------------------------------------ playing a game


@dataclass
class GameResult:
    """What one game gave, as stored (one JSON line) in the results file."""

    specs: tuple[str, ...]
    labels: tuple[str, ...]
    deal: int
    play: int
    layout: tuple[int, ...]
    first: int
    scores: tuple[int, ...]
    """Per seat: its line's score (2 and 4 players) or its own share (3 players)."""
    result: tuple[int, ...]
    """The record's result: per line (2 and 4 players) or per seat (3 players)."""
    ended: str
    turns: int
    decisions: tuple[int, ...]
    """Per seat: how many times the bot's ``choose`` was called."""
    seconds: tuple[float, ...]
    """Per seat: the time spent in ``choose``."""
    faults: tuple[int, ...]
    """Per seat: moves the bot lost to automatic play (exception, illegal answer, failure)."""
    notes: tuple[str, ...] = ()
    """The first few fault messages, as ``LABEL: what happened``."""
    error: str | None = None
    """Set when the game could not be played at all (then it is not stored)."""

    @property
    def key(self) -> tuple[tuple[str, ...], int, int]:
        return (self.specs, self.deal, self.play)

    def to_json(self) -> dict[str, Any]:
        return {
            "table": list(self.specs),
            "labels": list(self.labels),
            "deal": self.deal,
            "play": self.play,
            "layout": list(self.layout),
            "first": self.first,
            "scores": list(self.scores),
            "result": list(self.result),
            "ended": self.ended,
            "turns": self.turns,
            "decisions": list(self.decisions),
            "seconds": [round(s, 6) for s in self.seconds],
            "faults": list(self.faults),
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            specs=tuple(str(s) for s in data["table"]),
            labels=tuple(str(s) for s in data["labels"]),
            deal=int(data["deal"]),
            play=int(data["play"]),
            layout=tuple(int(x) for x in data["layout"]),
            first=int(data["first"]),
            scores=tuple(int(x) for x in data["scores"]),
            result=tuple(int(x) for x in data["result"]),
            ended=str(data["ended"]),
            turns=int(data["turns"]),
            decisions=tuple(int(x) for x in data["decisions"]),
            seconds=tuple(float(x) for x in data["seconds"]),
            faults=tuple(int(x) for x in data["faults"]),
            notes=tuple(str(x) for x in data.get("notes", ())),
        )


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def play_game(task: GameTask) -> GameResult:
    """Play one game (in a worker or in-process). Never raises for a bot's misdeeds: an engine
    failure comes back as a result with ``error`` set."""
    table = task.table
    n = task.rules.players
    labels = tuple(table.bots[i].label for i in task.layout)
    try:
        return _play(task, labels)
    except Exception as error:
        return GameResult(
            table.specs,
            tuple(b.label for b in table.bots),
            task.deal,
            task.play,
            task.layout,
            0,
            (0,) * n,
            (),
            "",
            0,
            (0,) * n,
            (0.0,) * n,
            (0,) * n,
            error=f"{table.label}, deal {task.deal}, play {task.play}: {_describe(error)}",
        )


def _play(task: GameTask, labels: tuple[str, ...]) -> GameResult:
    rules = task.rules
    table = task.table
    n = rules.players
    deck, first = deal_of(rules, task.seed, task.deal)
    state = Smazzata.new(rules, deck=deck, first=first)
    decisions = [0] * n
    seconds = [0.0] * n
    faults = [0] * n
    notes: list[str] = []

    def fault(seat: int, message: str, count: int = 1) -> None:
        faults[seat] += count
        note = f"{labels[seat]}: {message}"
        mine = [x for x in notes if x.startswith(f"{labels[seat]}: ")]
        if note not in notes and len(mine) < MAX_NOTES:
            notes.append(note)

    bots: list[Bot] = []
    actions: list[Action] = []
    try:
        for seat in range(n):
            spec = table.bots[task.layout[seat]].spec
            bots.append(
                make_bot(spec, bot_seed(task.seed, table.specs, task.deal, task.play, seat))
            )
        clock = time.perf_counter
        while not state.is_over:
            seat = state.current
            view = state.view(seat)
            legal = tuple(state.legal_actions())
            choice: object = None
            problem: str | None = None
            start = clock()
            try:
                choice = bots[seat].choose(view, legal)
            except Exception as error:
                problem = f"raised {_describe(error)}"
            seconds[seat] += clock() - start
            decisions[seat] += 1
            if problem is None and (not isinstance(choice, Action) or choice not in legal):
                problem = f"answered {repr(choice)[:80]}, not a legal action"
            if problem is not None:
                fault(seat, problem)
                choice = auto_play_choice(view, legal)
            assert isinstance(choice, Action)
            state.apply(choice)
            actions.append(choice)
    finally:
        over = state.is_over
        for seat, bot in enumerate(bots):
            for count, message in _finish_bot(bot, state if over else None):
                fault(seat, message, count)
    score = state.score()
    scores = tuple(
        score.result[seat] if n == 3 else score.line_of_seat(seat).score for seat in range(n)
    )
    if task.records is not None:
        _write_record(task, labels, deck=deck, first=first, actions=actions, result=score.result)
    return GameResult(
        specs=table.specs,
        labels=tuple(b.label for b in table.bots),
        deal=task.deal,
        play=task.play,
        layout=task.layout,
        first=first,
        scores=scores,
        result=score.result,
        ended=score.ended,
        turns=state.turns + 1,
        decisions=tuple(decisions),
        seconds=tuple(seconds),
        faults=tuple(faults),
        notes=tuple(notes),
    )


def _finish_bot(bot: Bot, state: Smazzata | None) -> list[tuple[int, str]]:
    """After a game: pass the result on (to a bot that takes it, as outside bots do), collect
    the moves a bot lost to automatic play on its own (an outside bot's ``faults`` by kind) and
    close it. Returns the faults as (count, message)."""
    found: list[tuple[int, str]] = []
    notify = getattr(bot, "notify_result", None)
    if state is not None and callable(notify):
        try:
            notify(state.score())
        except Exception as error:
            found.append((1, f"notify_result() raised {_describe(error)}"))
    own = getattr(bot, "faults", None)
    if isinstance(own, Mapping):
        counts = {str(k): v for k, v in own.items() if isinstance(v, int) and v > 0}
        if counts:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            reason = getattr(bot, "crash_reason", None)
            found.append(
                (sum(counts.values()), f"lost {kinds}" + (f" ({reason})" if reason else ""))
            )
    try:
        bot.close()
    except Exception as error:
        found.append((1, f"close() raised {_describe(error)}"))
    return found


def slug(text: str) -> str:
    """A file-name-safe form of a label."""
    return re.sub(r"[^A-Za-z0-9.=+-]+", "_", text).strip("_") or "bot"


def record_path(records: str, task: GameTask) -> Path:
    folder = "-vs-".join(slug(b.label) for b in task.table.bots)
    return Path(records) / folder / f"deal-{task.deal + 1:05d}-play-{task.play + 1}.toml"


def _write_record(
    task: GameTask,
    labels: tuple[str, ...],
    *,
    deck: Sequence[Card],
    first: int,
    actions: Sequence[Action],
    result: tuple[int, ...],
) -> None:
    assert task.records is not None
    hand = HandRecord(first=first, actions=tuple(actions), deck=tuple(deck), result=result)
    record = Record(
        rules=task.rules.name,
        players=labels,
        hands=(hand,),
        options=options_of(task.rules),
        meta={
            "event": "burraco arena",
            "table": task.table.label,
            "seed": task.seed,
            "deal": task.deal + 1,
            "play": task.play + 1,
        },
    )
    path = record_path(task.records, task)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(write_record(record), encoding="utf-8")


# ------------------------------------------------------------------------------ results files


class SettingsMismatch(ValueError):
    """The output directory holds results of games played under other settings."""


def _describe_mismatch(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    parts = []
    for key in ("format", "rules", "players", "options", "seed"):
        if old.get(key) != new.get(key):
            was = json.dumps(old.get(key), sort_keys=True)
            now = json.dumps(new.get(key), sort_keys=True)
            parts.append(f"{key} {now} here, {was} there")
    return "; ".join(parts)


def open_results(out: Path, settings: Settings) -> list[GameResult]:
    """Prepare ``out`` for a run: check (or write) its settings, return the results already in
    it. Raises SettingsMismatch, saying what differs, when they are other settings' results."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / SETTINGS_FILE
    fingerprint = settings.fingerprint()
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SettingsMismatch(f"{path} cannot be read ({error})") from None
        if old != fingerprint:
            raise SettingsMismatch(
                f"{out} holds arena results played with other settings"
                f" ({_describe_mismatch(old, fingerprint)}): use another --out directory,"
                " or the same settings to resume"
            )
    else:
        if (out / RESULTS_FILE).exists():
            raise SettingsMismatch(f"{out} has {RESULTS_FILE} but no {SETTINGS_FILE}")
        path.write_text(json.dumps(fingerprint, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return read_results(out / RESULTS_FILE)


def read_results(path: Path) -> list[GameResult]:
    """The results in a results file (a line cut short by a hard stop is skipped)."""
    if not path.exists():
        return []
    out: list[GameResult] = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                out.append(GameResult.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue
    return out


class ResultsWriter:
    """Appends results to the results file, one flushed JSON line per game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle = path.open("a", encoding="utf-8")
        if path.stat().st_size:
            with path.open("rb") as check:
                check.seek(-1, os.SEEK_END)
                if check.read(1) != b"\n":
                    self.handle.write("\n")  # after a line cut short

    def write(self, result: GameResult) -> None:
        self.handle.write(json.dumps(result.to_json(), separators=(",", ":")) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


# ------------------------------------------------------------------------------ running


@dataclass
class RunOutcome:
    played: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    interrupted: bool = False


def _worker_init() -> None:
    # Workers leave the terminal's process group, so Ctrl-C reaches only the arena itself
    # (and not the workers, nor the outside bot programs they run), which decides what to do.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "setpgrp"):
        with contextlib.suppress(OSError):
            os.setpgrp()


def run_games(
    tasks: Sequence[GameTask],
    jobs: int,
    on_result: Callable[[GameResult], None],
    *,
    on_interrupt: Callable[[int], None] | None = None,
) -> bool:
    """Play ``tasks`` on ``jobs`` processes (1: in this process), calling ``on_result`` in this
    process for each finished game, in the order they finish. Returns False if interrupted.

    Ctrl-C: with one job, the game being played is dropped. With several, the first Ctrl-C stops
    starting games and lets the ones in flight finish (``on_interrupt(count)`` is told how many);
    a second one drops them.
    """
    jobs = min(jobs, len(tasks))
    if jobs <= 1:
        try:
            for task in tasks:
                on_result(play_game(task))
        except KeyboardInterrupt:
            return False
        return True
    return _run_pool(tasks, jobs, on_result, on_interrupt)


def _run_pool(
    tasks: Sequence[GameTask],
    jobs: int,
    on_result: Callable[[GameResult], None],
    on_interrupt: Callable[[int], None] | None,
) -> bool:
    done: queue.Queue[GameResult | BaseException] = queue.Queue()
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(jobs, initializer=_worker_init)
    pending: Iterator[GameTask] = iter(tasks)
    in_flight = 0
    stopping = False
    limit = 2 * jobs

    def submit() -> None:
        nonlocal in_flight
        while in_flight < limit:
            task = next(pending, None)
            if task is None:
                return
            pool.apply_async(play_game, (task,), callback=done.put, error_callback=done.put)
            in_flight += 1

    try:
        submit()
        while in_flight:
            try:
                item = done.get(timeout=0.25)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                if stopping:
                    raise
                stopping = True
                if on_interrupt is not None:
                    on_interrupt(in_flight)
                continue
            in_flight -= 1
            if isinstance(item, BaseException):
                item = GameResult((), (), -1, -1, (), 0, (), (), "", 0, (), (), (), error=str(item))
            try:
                on_result(item)
            except KeyboardInterrupt:
                if stopping:
                    raise
                stopping = True
                if on_interrupt is not None:
                    on_interrupt(in_flight)
            if not stopping:
                submit()
        pool.close()
        pool.join()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        return False
    return not stopping


def run_arena(
    settings: Settings,
    out: Path,
    *,
    jobs: int = 1,
    records: bool = False,
    on_start: Callable[[int, int], None] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_interrupt: Callable[[int], None] | None = None,
) -> tuple[list[GameResult], RunOutcome]:
    """Play the games of ``settings`` not yet in ``out`` and return every result for them.

    ``on_start(to_play, already_done)`` is called once before playing; ``on_result`` after
    each game is stored.
    """
    existing = open_results(out, settings)
    wanted = {task.key: task for task in plan(settings)}
    have: dict[tuple[tuple[str, ...], int, int], GameResult] = {}
    for result in existing:
        if result.key in wanted:
            have[result.key] = result
    records_dir = str(out / RECORDS_DIR) if records else None
    tasks = [
        GameTask(t.rules, t.seed, t.table, t.deal, t.play, t.layout, records_dir)
        for key, t in wanted.items()
        if key not in have
    ]
    outcome = RunOutcome(skipped=len(have))
    if on_start is not None:
        on_start(len(tasks), len(have))
    writer = ResultsWriter(out / RESULTS_FILE)

    def store(result: GameResult) -> None:
        if result.error is not None:
            outcome.failed.append(result.error)
        else:
            writer.write(result)
            have[result.key] = result
            outcome.played += 1
        if on_result is not None:
            on_result(result)

    try:
        outcome.interrupted = not run_games(tasks, jobs, store, on_interrupt=on_interrupt)
    finally:
        writer.close()
    ordered = [have[key] for key in wanted if key in have]
    return ordered, outcome
