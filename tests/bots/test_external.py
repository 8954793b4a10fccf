"""Outside bots over the line protocol (docs/bot-protocol.md): the example bot plays whole
smazzate, and misbehaving programs (late, garbage, illegal, exiting, deaf, broken hello) lose their
moves to the T13 default while the game carries on and the process is cleaned up."""

from __future__ import annotations

import gc
import os
import random
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from burraco.bots import Bot, RandomBot, make_bot
from burraco.bots.external import FAULT_KINDS, ExternalBot
from burraco.engine import Rules, Smazzata, find_rules
from burraco.engine.autoplay import auto_play_choice

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
PYTHON = shlex.quote(sys.executable)

PRELUDE = """\
import json, sys, time

def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

def questions():
    for line in iter(sys.stdin.readline, ""):
        message = json.loads(line)
        if message["type"] == "bye":
            return
        if message["type"] == "hello":
            send({"id": message["id"], "name": "test bot", "ready": True})
        elif message["type"] == "decide":
            yield message

"""

SCRIPTS = {
    # Sleeps past the limit on its 3rd and 8th questions, then answers them anyway (legal[0]);
    # answers every other question at once with legal[-1].
    "late": """
SLOW = {3, 8}
for n, q in enumerate(questions(), 1):
    if n in SLOW:
        time.sleep(float(sys.argv[1]))
        send({"id": q["id"], "action": q["legal"][0]})
    else:
        send({"id": q["id"], "action": q["legal"][-1]})
""",
    "garbage": """
for n, q in enumerate(questions(), 1):
    kind = n % 6
    if kind == 0:
        print("this is not json", flush=True)
    elif kind == 1:
        print("[1, 2, 3]", flush=True)
    elif kind == 2:
        send({"id": q["id"]})
    elif kind == 3:
        send({"id": q["id"], "action": 7})
    elif kind == 4:
        send({"id": q["id"], "action": "0 frobnicate 5H"})
    else:
        send({"id": q["id"] + 1, "action": q["legal"][0]})
""",
    "illegal": """
for n, q in enumerate(questions(), 1):
    seat = q["view"]["seat"]
    if n % 2:
        send({"id": q["id"], "action": f"{seat} attach 99 AS"})
    else:
        rest = q["legal"][0].split(" ", 1)[1]
        send({"id": q["id"], "action": f"{(seat + 1) % q['view']['players']} {rest}"})
""",
    "exit": """
for n, q in enumerate(questions(), 1):
    if n == 6:
        print("giving up", file=sys.stderr, flush=True)
        sys.exit(3)
    send({"id": q["id"], "action": q["legal"][0]})
""",
    "deaf": """
line = sys.stdin.readline()
send({"id": json.loads(line)["id"], "name": "deaf", "ready": True})
time.sleep(60)
""",
    "rude": """
sys.stdin.readline()
print("no hello for you", flush=True)
time.sleep(60)
""",
}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Command lines of the misbehaving bots, written to a temporary directory."""
    folder = tmp_path_factory.mktemp("bots")
    commands = {}
    for name, body in SCRIPTS.items():
        path = folder / f"{name}_bot.py"
        path.write_text(PRELUDE + body, encoding="utf-8")
        commands[name] = f"{PYTHON} {shlex.quote(str(path))}"
    return commands


def play_smazzata(rules: Rules, bots: Sequence[Bot], seed: int) -> tuple[Smazzata, int]:
    """One smazzata through the engine; every applied action must be legal. (state, steps)"""
    state = Smazzata.new(rules, rng=random.Random(seed), first=seed % rules.players)
    steps = 0
    while not state.is_over:
        seat = state.current
        legal = state.legal_actions()
        action = bots[seat].choose(state.view(seat), legal)
        assert action in legal, f"{bots[seat].name} played {action}, not in {legal}"
        state.apply(action)
        steps += 1
        assert steps < 20_000, "the smazzata does not end"
    score = state.score()
    for bot in bots:
        notify = getattr(bot, "notify_result", None)
        if notify is not None:
            notify(score)
    return state, steps


def assert_cleaned_up(bot: ExternalBot) -> None:
    """The program has exited and was reaped (no zombie); its pipes are closed."""
    process = bot.process
    assert process is not None
    assert process.returncode is not None, "the program is still running or was not reaped"
    stat = Path(f"/proc/{process.pid}/stat")
    if stat.exists():  # the pid may have been reused; it must not be our zombie
        state, parent = stat.read_text().rsplit(")", 1)[1].split()[:2]
        assert not (state == "Z" and int(parent) == os.getpid()), "a zombie was left behind"
    for pipe in (process.stdin, process.stdout, process.stderr):
        assert pipe is None or pipe.closed
    assert not bot.alive


def versus_random(
    command: str, rules: Rules, seed: int, *, time_limit: float = 0.2
) -> tuple[ExternalBot, Smazzata, int]:
    """Seat 0 (and 2) the outside program, the others the built-in random bot."""
    external = ExternalBot(command, seed=seed, time_limit=time_limit)
    bots: list[Bot] = [
        external if seat % 2 == 0 else RandomBot(seed + seat) for seat in range(rules.players)
    ]
    try:
        state, steps = play_smazzata(rules, bots, seed)
    finally:
        external.close()
    assert_cleaned_up(external)
    return external, state, steps


# ------------------------------------------------------------------------------ the example bot


@pytest.mark.parametrize(
    ("preset", "players"), [("italian", 2), ("italian", 4), ("internazionale", 2)]
)
def test_example_bot_plays_whole_smazzate(preset: str, players: int) -> None:
    """One program per even seat (partners in 4-player games), the random bot elsewhere."""
    rules = find_rules(preset, players=players)
    command = f"{PYTHON} {shlex.quote(str(EXAMPLE))}"
    externals = [
        ExternalBot(command, seed=11 + seat, time_limit=2.0) for seat in range(0, players, 2)
    ]
    bots: list[Bot] = [
        externals[seat // 2] if seat % 2 == 0 else RandomBot(seat) for seat in range(players)
    ]
    try:
        for seed in (1, 2):
            state, _ = play_smazzata(rules, bots, seed)
            assert state.is_over
        for external in externals:
            assert external.decisions > 0
            assert sum(external.faults.values()) == 0, external.report()
            assert external.crashes == 0
            assert external.program_name == "example-random"
            assert len(external.times) == external.decisions
            assert all(0 <= t < 2.0 for t in external.times)
            # The result of the first smazzata was logged before the second one's questions.
            assert any("smazzata over" in line for line in external.stderr_tail)
    finally:
        for external in externals:
            external.close()
    for external in externals:
        assert_cleaned_up(external)
        assert external.process is not None and external.process.returncode == 0, "clean exit"


def test_example_bot_gets_a_new_hello_when_its_seat_changes() -> None:
    rules = find_rules("italian", players=2)
    external = ExternalBot(f"{PYTHON} {shlex.quote(str(EXAMPLE))}", seed=5, time_limit=2.0)
    try:
        play_smazzata(rules, [external, RandomBot(1)], 3)
        play_smazzata(rules, [RandomBot(2), external], 4)
        assert sum(external.faults.values()) == 0
        hellos = [line for line in external.stderr_tail if " of 2, italian" in line]
        assert any("seat 0 of 2" in line for line in hellos)
        assert any("seat 1 of 2" in line for line in hellos)
    finally:
        external.close()
    assert_cleaned_up(external)


def test_make_bot_runs_a_command() -> None:
    bot = make_bot(f"cmd:{PYTHON} {shlex.quote(str(EXAMPLE))}", seed=3)
    assert isinstance(bot, ExternalBot)
    assert bot.seed == 3
    state = Smazzata.new(find_rules("italian"), rng=random.Random(0))
    legal = state.legal_actions()
    assert bot.choose(state.view(0), legal) in legal
    bot.close()
    assert_cleaned_up(bot)


# ------------------------------------------------------------------------------ misbehaviour


def test_a_late_answer_is_discarded_not_taken_for_the_next_question(
    scripts: dict[str, str],
) -> None:
    limit, sleep = 0.5, 0.7
    bot = ExternalBot(f"{scripts['late']} {sleep}", time_limit=limit)
    state = Smazzata.new(find_rules("italian"), rng=random.Random(0))
    view, legal = state.view(0), state.legal_actions()
    assert [str(a) for a in legal] == ["0 draw", "0 pickup"]
    default = auto_play_choice(view, legal)
    assert str(default) == "0 draw"
    try:
        assert str(bot.choose(view, legal)) == "0 pickup"  # question 1, on time
        assert str(bot.choose(view, legal)) == "0 pickup"  # question 2, on time
        started = time.monotonic()
        assert bot.choose(view, legal) == default  # question 3: late, the default is played
        assert time.monotonic() - started < limit + 0.3, "waited past the limit"
        assert bot.faults["late"] == 1
        # The late "0 draw" for question 3 arrives while question 4 waits: it must be skipped,
        # and question 4 gets its own answer.
        assert str(bot.choose(view, legal)) == "0 pickup"
        assert bot.faults == {"late": 1}
    finally:
        bot.close()
    assert_cleaned_up(bot)


@pytest.mark.parametrize("players", [2, 4])
def test_late_bot_game_finishes(scripts: dict[str, str], players: int) -> None:
    bot, state, _ = versus_random(f"{scripts['late']} 0.3", find_rules(players=players), 21)
    assert state.is_over
    assert bot.faults["late"] >= 1
    assert bot.faults["nonsense"] == bot.faults["illegal"] == bot.faults["crashed"] == 0
    assert bot.crashes == 0


@pytest.mark.parametrize("players", [2, 4])
def test_garbage_answers_are_nonsense(scripts: dict[str, str], players: int) -> None:
    bot, state, _ = versus_random(scripts["garbage"], find_rules(players=players), 31)
    assert state.is_over
    assert bot.decisions > 6
    assert bot.faults == {"nonsense": bot.decisions}
    assert bot.crashes == 0


def test_illegal_answers_are_counted(scripts: dict[str, str]) -> None:
    bot, state, _ = versus_random(scripts["illegal"], find_rules(players=2), 41)
    assert state.is_over
    assert bot.decisions > 2
    assert bot.faults == {"illegal": bot.decisions}


@pytest.mark.parametrize("players", [2, 4])
def test_a_bot_that_exits_gets_the_default_for_the_rest(
    scripts: dict[str, str], players: int
) -> None:
    bot, state, _ = versus_random(scripts["exit"], find_rules(players=players), 51)
    assert state.is_over
    assert bot.crashes == 1
    assert bot.crash_reason is not None and "status 3" in bot.crash_reason
    assert bot.faults == {"crashed": bot.decisions - 5}
    assert "giving up" in bot.stderr_tail
    assert bot.process is not None and bot.process.returncode == 3


def test_a_bot_that_does_not_read_is_stopped(scripts: dict[str, str]) -> None:
    bot = ExternalBot(scripts["deaf"], time_limit=0.02)
    state = Smazzata.new(find_rules("italian"), rng=random.Random(0))
    view, legal = state.view(0), state.legal_actions()
    try:
        for _ in range(1000):
            assert bot.choose(view, legal) == auto_play_choice(view, legal)
            if bot.crashes:
                break
        assert bot.crashes == 1
        assert bot.crash_reason == "the program does not read its input"
        assert bot.faults["late"] > 0 and bot.faults["crashed"] == 1
        assert set(bot.faults) <= set(FAULT_KINDS)
    finally:
        bot.close()
    assert_cleaned_up(bot)


def test_a_failed_hello_is_a_crash(scripts: dict[str, str]) -> None:
    bot, state, _ = versus_random(scripts["rude"], find_rules(players=2), 61)
    assert state.is_over
    assert bot.crashes == 1
    assert bot.crash_reason is not None and "hello" in bot.crash_reason
    assert bot.faults == {"crashed": bot.decisions}


def test_a_missing_program_is_a_crash(tmp_path: Path) -> None:
    bot = ExternalBot(str(tmp_path / "no-such-bot"), time_limit=0.1)
    state = Smazzata.new(find_rules("italian"), rng=random.Random(0))
    legal = state.legal_actions()
    assert bot.choose(state.view(0), legal) == legal[0]
    assert bot.crashes == 1 and bot.faults == {"crashed": 1}
    assert bot.crash_reason is not None and "cannot start" in bot.crash_reason
    bot.close()
    assert bot.process is None


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="command"):
        ExternalBot("   ")
    with pytest.raises(ValueError, match="time limit"):
        ExternalBot("python x.py", time_limit=0)


def test_a_dropped_bot_does_not_leave_its_program_running(scripts: dict[str, str]) -> None:
    bot = ExternalBot(scripts["deaf"], time_limit=0.02)
    state = Smazzata.new(find_rules("italian"), rng=random.Random(0))
    bot.choose(state.view(0), state.legal_actions())
    process = bot.process
    assert process is not None and process.poll() is None
    del bot
    gc.collect()
    assert process.returncode is not None
    assert process.stdin is not None and process.stdin.closed


def test_stderr_can_go_to_a_file(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    bot = ExternalBot(
        f"{PYTHON} {shlex.quote(str(EXAMPLE))}", seed=1, time_limit=2.0, stderr_path=str(log)
    )
    with bot:
        play_smazzata(find_rules("italian"), [RandomBot(0), bot], 9)
    assert_cleaned_up(bot)
    text = log.read_text(encoding="utf-8")
    assert "seat 1 of 2, italian" in text and "smazzata over" in text
