"""The ``burraco`` command as other programs use it: ``replay`` exactly as spec/record-format.md
says (exit status, one JSON object, one sentence on standard error), and smoke tests of
``simulate``, ``play`` and ``rules``.

The tests run the command in this process, through ``burraco.cli.main.main(argv)`` with its
standard streams captured and the records' folder as the working directory, which is what the
command sees as a program; the last ones run the installed ``burraco`` as a real process, to
check the entry point itself."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest

from burraco.cli.main import main
from burraco.engine.record import read_record, write_record
from tests.golden_records import BAD, CLASSIC, CLASSIC_TOTALS, CLASSIC_WINNER, GOLDEN, RECORDS

TOP_KEYS = {"format", "rules", "players", "hands", "totals"}
LINE_KEYS = {
    "seats",
    "melds",
    "burraco_bonus",
    "closing_bonus",
    "hand",
    "pozzetto_penalty",
    "score",
}
ENDINGS = {"closing", "stock", "stall", "timeout", "unfinished"}


@dataclass(frozen=True)
class Ran:
    """What a run of the command gave: its exit status and its two output streams."""

    returncode: int
    stdout: str
    stderr: str


class Burraco(Protocol):
    def __call__(self, *args: str, stdin: str | None = None) -> Ran: ...


@pytest.fixture
def burraco(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Burraco:
    """``burraco(*args, stdin=...)`` runs the command in this process, from the records' folder
    (an argparse error exits by SystemExit, whose code is the exit status)."""
    monkeypatch.chdir(RECORDS)

    def run(*args: str, stdin: str | None = None) -> Ran:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin if stdin is not None else ""))
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as stop:
            assert stop.code is None or isinstance(stop.code, int)
            code = stop.code or 0
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


def burraco_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The installed ``burraco`` (next to this Python) as a real process, from the records."""
    script = Path(sys.executable).with_name("burraco")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "burraco.cli.main"]
    return subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=RECORDS,
        timeout=120,
        check=False,
    )


def one_json_object(stdout: str) -> dict[str, Any]:
    """Standard output must be exactly one JSON object (one line) and nothing else."""
    assert stdout.endswith("\n")
    assert stdout.count("\n") == 1
    decoder = json.JSONDecoder()
    value, end = decoder.raw_decode(stdout)
    assert stdout[end:] == "\n"
    assert isinstance(value, dict)
    return value


def check_shape(out: dict[str, Any], *, target: bool) -> None:
    """The keys of the spec's JSON object, and nothing else."""
    assert set(out) == (TOP_KEYS | {"winner"} if target else TOP_KEYS)
    assert out["format"] == "burraco-record/1"
    sides = 3 if len(out["players"]) == 3 else 2
    assert len(out["totals"]) == sides
    for hand in out["hands"]:
        assert hand["ended"] in ENDINGS
        if hand["ended"] == "unfinished":
            assert set(hand) == {"ended", "closed_by"}
            continue
        assert set(hand) == {"ended", "closed_by", "lines"}
        assert (hand["closed_by"] is None) == (hand["ended"] != "closing")
        for line in hand["lines"]:
            assert set(line) == LINE_KEYS
            assert line["hand"] <= 0
            assert line["pozzetto_penalty"] in (0, -100)
            assert line["score"] == sum(line[k] for k in LINE_KEYS - {"seats", "score"})
    finished = [h for h in out["hands"] if h["ended"] != "unfinished"]
    if sides == 2:
        sums = [sum(h["lines"][i]["score"] for h in finished) for i in range(2)]
        assert sums == out["totals"]


def last_totals(stdout: str) -> list[int]:
    rows = [line for line in stdout.splitlines() if line.startswith("Totals")]
    assert rows
    return [int(x) for x in rows[-1].split()[1:]]


# ---------------------------------------------------------------------------------------- replay


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_replay_json_of_golden_records(name: str, burraco: Burraco) -> None:
    proc = burraco("replay", "--json", name)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = one_json_object(proc.stdout)
    check_shape(out, target=False)
    assert out == GOLDEN[name]


def test_replay_json_of_a_target_score_match(burraco: Burraco) -> None:
    proc = burraco("replay", "--json", CLASSIC)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = one_json_object(proc.stdout)
    check_shape(out, target=True)
    assert out["totals"] == CLASSIC_TOTALS
    assert out["winner"] == CLASSIC_WINNER


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_replay_score_sheet_of_golden_records(name: str, burraco: Burraco) -> None:
    proc = burraco("replay", name)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert last_totals(proc.stdout) == GOLDEN[name]["totals"]
    for number in range(1, len(GOLDEN[name]["hands"]) + 1):
        assert f"Smazzata {number} · " in proc.stdout


@pytest.mark.parametrize("name", sorted(BAD))
def test_replay_of_bad_records(name: str, burraco: Burraco) -> None:
    code, message = BAD[name]
    proc = burraco("replay", "--json", name)
    assert proc.returncode == code
    assert proc.stdout == ""
    assert proc.stderr == message + "\n"


@pytest.mark.parametrize("name", ["bad-closing-wild.toml", "bad-deck-107.toml"])
def test_replay_of_bad_records_without_json(name: str, burraco: Burraco) -> None:
    code, message = BAD[name]
    proc = burraco("replay", name)
    assert proc.returncode == code
    assert proc.stdout == ""
    assert proc.stderr == message + "\n"


def test_bad_record_sentences_name_the_place_and_the_rule() -> None:
    for name, (code, message) in BAD.items():
        if code == 1:
            assert re.match(r'hand \d+(, action \d+ "[^"]+")?: ', message), name
            if "action" in message:
                assert re.search(r"\((R\d+|3\.\d)\)$", message), name
        else:
            assert message.startswith(f"{name}: malformed: "), name
            assert re.search(r"hand \d+|line \d+|key|preset|\[options\]", message), name


def test_replay_of_a_missing_file(burraco: Burraco) -> None:
    proc = burraco("replay", "--json", "no-such-record.toml")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "no-such-record.toml: cannot read the file: No such file or directory\n"


def test_replay_of_a_directory_and_of_a_file_that_is_not_utf8(
    tmp_path: Path, burraco: Burraco
) -> None:
    proc = burraco("replay", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    latin = tmp_path / "latin1.toml"
    latin.write_bytes('players = ["Zoë"]\n'.encode("latin-1"))
    proc = burraco("replay", str(latin))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"{latin}: the file is not UTF-8 text\n"


def test_replay_reads_standard_input(burraco: Burraco) -> None:
    name = "closing-clean-dirty.toml"
    text = (RECORDS / name).read_text(encoding="utf-8")
    proc = burraco("replay", "--json", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert one_json_object(proc.stdout) == GOLDEN[name]


def test_replay_of_bad_records_from_standard_input(burraco: Burraco) -> None:
    bad = (RECORDS / "bad-open-two.toml").read_text(encoding="utf-8")
    proc = burraco("replay", "--json", "-", stdin=bad)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == BAD["bad-open-two.toml"][1] + "\n"
    proc = burraco("replay", "--json", "-", stdin="format = \n")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert re.fullmatch(r"-: malformed: invalid TOML: .*\(at line 1, column \d+\)\n", proc.stderr)


def test_replay_of_an_unfinished_last_hand(burraco: Burraco) -> None:
    record = read_record((RECORDS / "four-player-match.toml").read_text(encoding="utf-8"))
    first, second = record.hands
    short = type(record)(
        record.rules,
        record.players,
        (first, type(second)(second.first, second.actions[:6], deal=second.deal)),
        record.options,
        record.meta,
    )
    proc = burraco("replay", "--json", "-", stdin=write_record(short))
    assert proc.returncode == 0, proc.stderr
    out = one_json_object(proc.stdout)
    check_shape(out, target=False)
    assert out["hands"][1] == {"ended": "unfinished", "closed_by": None}
    assert out["totals"] == [395, -325]
    proc = burraco("replay", "-", stdin=write_record(short))
    assert proc.returncode == 0, proc.stderr
    assert "Smazzata 2 · unfinished" in proc.stdout
    assert last_totals(proc.stdout) == [395, -325]


def test_replay_without_a_file_is_a_usage_error(burraco: Burraco) -> None:
    proc = burraco("replay")
    assert proc.returncode == 2
    assert proc.stdout == ""


# -------------------------------------------------------------------------------------- simulate


@pytest.mark.parametrize(
    "preset", ["italian", "classic", "reale", "italian-semipulito", "internazionale"]
)
def test_simulate_every_preset_writes_records_that_replay(
    preset: str, tmp_path: Path, burraco: Burraco
) -> None:
    proc = burraco("simulate", "-n", "2", "--rules", preset, "--records", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert f"{preset} · 2 players" in proc.stdout
    assert "2 smazzate" in proc.stdout
    files = sorted(tmp_path.glob("*.toml"))
    assert len(files) == 2
    for path in files:
        replayed = burraco("replay", "--json", str(path))
        assert replayed.returncode == 0, replayed.stderr
        out = one_json_object(replayed.stdout)
        assert out["rules"] == preset
        assert len(out["hands"]) == 1
        assert out["hands"][0]["ended"] != "unfinished"


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "3", "--bots", "greedy"],
        ["--players", "4", "--rules", "reale"],
        ["--matches", "--smazzate", "2", "--players", "3", "--bots", "greedy,random,greedy"],
        ["--matches", "--rules", "classic", "--target", "505", "--bots", "greedy"],
        ["--matches", "--players", "4", "--bots", "greedy", "--option", "stall_limit=20"],
    ],
)
def test_simulate_records_replay(args: list[str], tmp_path: Path, burraco: Burraco) -> None:
    proc = burraco("simulate", "-n", "2", "--seed", "3", *args, "--records", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    files = sorted(tmp_path.glob("*.toml"))
    assert len(files) == 2
    for path in files:
        replayed = burraco("replay", "--json", str(path))
        assert replayed.returncode == 0, replayed.stderr
        out = one_json_object(replayed.stdout)
        check_shape(out, target="--target" in args)
        if "--target" in args:
            assert out["winner"] is not None
            assert max(out["totals"]) >= 505
        if "--matches" in args and "--smazzate" in args:
            assert len(out["hands"]) == 2


def test_simulate_reports_statistics(burraco: Burraco) -> None:
    proc = burraco("simulate", "-n", "4", "--bots", "greedy")
    assert proc.returncode == 0, proc.stderr
    assert "endings:" in proc.stdout
    assert "mean score per smazzata:" in proc.stdout


# ------------------------------------------------------------------------------------------ play


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "greedy,random"],
        ["--players", "3", "--bots", "greedy"],
        ["--players", "4", "--rules", "reale", "--bots", "greedy", "--smazzate", "2"],
        ["--rules", "classic", "--bots", "greedy"],
    ],
)
def test_play_record_replays_to_the_printed_totals(
    args: list[str], tmp_path: Path, burraco: Burraco
) -> None:
    path = tmp_path / "game.toml"
    proc = burraco("play", "--quiet", "--seed", "5", "--record", str(path), *args)
    assert proc.returncode == 0, proc.stderr
    printed = last_totals(proc.stdout)
    replayed = burraco("replay", "--json", str(path))
    assert replayed.returncode == 0, replayed.stderr
    out = one_json_object(replayed.stdout)
    check_shape(out, target="classic" in args)
    assert out["totals"] == printed
    assert all(h["ended"] != "unfinished" for h in out["hands"])
    if "classic" in args:
        assert out["winner"] is not None
        assert max(printed) >= 2005
        assert f"Winner: {out['players'][out['winner']]}" in proc.stdout


def test_play_refuses_a_record_that_toml_cannot_hold_before_playing(
    tmp_path: Path, burraco: Burraco
) -> None:
    path = tmp_path / "game.toml"
    args = ["--rules", "classic", "--option", "target_score=none", "--smazzate", "1"]
    proc = burraco("play", "--quiet", "--record", str(path), *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (
        "burraco play: [options]: target_score cannot be unset in a record (TOML has no null"
        " value)\n"
    )
    assert not path.exists()
    proc = burraco("simulate", "-n", "1", "--records", str(tmp_path / "dir"), *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert not (tmp_path / "dir").exists()


# ----------------------------------------------------------------------------------------- rules


def test_rules_lists_the_presets(burraco: Burraco) -> None:
    proc = burraco("rules")
    assert proc.returncode == 0, proc.stderr
    listed = proc.stdout.split()
    for preset in ("italian", "classic", "reale", "italian-semipulito", "internazionale"):
        assert preset in listed


def test_rules_shows_one_preset(burraco: Burraco) -> None:
    proc = burraco("rules", "reale")
    assert proc.returncode == 0, proc.stderr
    assert "initial_discard = False   (differs from italian)" in proc.stdout
    assert "jokers = 0   (differs from italian)" in proc.stdout
    unknown = burraco("rules", "no-such-preset")
    assert unknown.returncode == 2
    assert unknown.stdout == ""
    assert "unknown ruleset preset 'no-such-preset'" in unknown.stderr


# ------------------------------------------------------------------- the installed command


def test_installed_command_replays_a_record_as_one_json_object() -> None:
    name = "closing-clean-dirty.toml"
    proc = burraco_process("replay", "--json", name)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert one_json_object(proc.stdout) == GOLDEN[name]


def test_installed_command_reads_standard_input_and_reports_an_illegal_action() -> None:
    bad = (RECORDS / "bad-open-two.toml").read_text(encoding="utf-8")
    proc = burraco_process("replay", "--json", "-", stdin=bad)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == BAD["bad-open-two.toml"][1] + "\n"


def test_installed_command_exits_2_on_a_usage_error() -> None:
    proc = burraco_process("replay")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("usage: burraco replay")
