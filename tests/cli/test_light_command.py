"""``burraco.cli.main`` is light: importing it, building the parser and ``burraco --help`` load
``burraco.cli.main``, ``parsers`` and ``extras`` and nothing else of the project nor any
third-party package; a command loads its own module only when it runs. And the lazy parts
change nothing that is shown: the help is the one the full parser gives."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from burraco.bots import BOT_LEVELS
from burraco.cli.main import build_parser, command_of
from burraco.engine import preset_names

LIGHT = {"burraco", "burraco.cli", "burraco.cli.main", "burraco.cli.parsers", "burraco.cli.extras"}

# Prints the modules loaded after each step, as JSON lists of names.
SCRIPT = """
import contextlib, io, json, sys

before = set(sys.modules)
steps = {}
import burraco.cli.main
steps["import"] = sorted(set(sys.modules) - before)
burraco.cli.main.build_parser().parse_args(["replay", "x.toml"])
burraco.cli.main.build_parser().parse_args(["simulate", "--rules", "reale", "--bots", "greedy"])
steps["parse"] = sorted(set(sys.modules) - before)
for argv in (["--help"], ["replay", "--help"], ["serve", "--help"], ["--version"]):
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            burraco.cli.main.main(argv)
        except SystemExit:
            pass
steps["help"] = sorted(set(sys.modules) - before)
print(json.dumps(steps))
"""


def test_the_command_loads_nothing_heavy_to_parse_or_to_show_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    steps = json.loads(proc.stdout)
    allowed = sys.stdlib_module_names | {"burraco"}
    for step, loaded in steps.items():
        ours = {name for name in loaded if name.partition(".")[0] == "burraco"}
        assert ours <= LIGHT, (step, sorted(ours - LIGHT))
        assert not [m for m in loaded if m.partition(".")[0] not in allowed], step


def test_the_top_level_help_is_the_same_with_club_built_or_not() -> None:
    assert build_parser().format_help() == build_parser("club").format_help()


@pytest.mark.parametrize("command", ["play", "simulate", "arena"])
def test_the_help_names_every_preset_and_bot_level(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    shown = "".join(capsys.readouterr().out.split())  # argparse wraps lines, at hyphens too
    levels = ",".join(BOT_LEVELS)
    assert f"(levels:{levels});" in shown if command == "arena" else f"({levels})" in shown
    if command != "arena":
        assert f"rulesetpreset:{','.join(preset_names())}(default:italian)" in shown


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        ([], None),
        (["--help"], None),
        (["--version", "club"], None),
        (["replay", "club"], "replay"),
        (["club", "season", "list"], "club"),
    ],
)
def test_the_command_is_the_first_word(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command
