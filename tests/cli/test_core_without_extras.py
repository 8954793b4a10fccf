"""``pip install burraco`` without extras: the engine, the bots, the tournament logic and the
offline commands work; the commands of an extra say, in one sentence, which extra to install.

Each scenario runs in a fresh Python whose import system refuses the extras' packages as if
they were not installed (a finder first on ``sys.meta_path`` raising ModuleNotFoundError) and
that records every such name it was asked for: the core must not even try them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from burraco.cli import extras
from burraco.cli.main import main
from tests.golden_records import GOLDEN, RECORDS

ROOT = Path(__file__).resolve().parents[2]
EVERY_EXTRA = [module for packages in extras.EXTRAS.values() for _, module in packages]
BLOCKED = [*EVERY_EXTRA, "starlette", "pydantic"]

# Runs ``main(argv)`` for each argv of its input (JSON) and prints, per run, the exit status, the
# two streams, and the refused names asked for so far; then whether any refused module loaded.
SCRIPT = """
import contextlib, io, json, sys

BLOCKED = set(json.loads(sys.argv[1]))
asked = []


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            asked.append(name)
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
import burraco.bots, burraco.engine, burraco.tournament
from burraco.cli.main import main

runs = []
for argv in json.loads(sys.stdin.read()):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    runs.append({"code": code, "out": out.getvalue(), "err": err.getvalue(), "asked": asked[:]})
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
print(json.dumps({"runs": runs, "loaded": loaded}))
"""


def run_without(blocked: list[str], *argvs: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(blocked)],
        input=json.dumps(argvs),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_the_core_and_the_offline_commands_need_no_extra(tmp_path: Path) -> None:
    record = str(RECORDS / "closing-clean-dirty.toml")
    played = str(tmp_path / "played.toml")
    arena = ["arena", "--bots", "greedy,random", "-n", "1", "-j", "1", "--bootstrap", "10"]
    result = run_without(
        BLOCKED,
        ["replay", "--json", record],
        ["replay", record],
        ["rules"],
        ["rules", "reale"],
        ["simulate", "-n", "2", "--bots", "greedy", "--records", str(tmp_path / "sim")],
        ["play", "--quiet", "--smazzate", "1", "--record", played],
        ["replay", "--json", played],
        [*arena, "--no-chart", "--quiet", "--out", str(tmp_path / "arena")],
        ["--help"],
        ["review", "--json", "--seconds", "0.01", record],
    )
    runs = result["runs"]
    for run in runs:
        assert run["code"] == 0, run["err"]
        assert run["asked"] == []
    assert json.loads(runs[0]["out"]) == GOLDEN["closing-clean-dirty.toml"]
    assert "Totals" in runs[1]["out"]
    assert "italian" in runs[2]["out"].split()
    assert "(differs from italian)" in runs[3]["out"]
    assert len(list((tmp_path / "sim").glob("*.toml"))) == 2
    assert json.loads(runs[6]["out"])["rules"] == "italian"
    assert (tmp_path / "arena" / "report.txt").exists()
    assert not (tmp_path / "arena" / "ratings.png").exists()
    assert "replay" in runs[8]["out"]
    assert "club" in runs[8]["out"]
    assert json.loads(runs[9]["out"])["format"] == "burraco-review/1"
    assert result["loaded"] == []


def test_the_commands_of_an_extra_name_it_in_one_sentence(tmp_path: Path) -> None:
    out = str(tmp_path / "arena")
    result = run_without(
        BLOCKED,
        ["serve"],
        ["serve", "--help"],
        ["db", "upgrade", "--data-dir", str(tmp_path)],
        ["club", "season", "list"],
        ["club", "--help"],
        ["arena", "--bots", "greedy,random", "-n", "1", "-j", "1", "--out", out],
    )
    server = "needs the server extra: pip install 'burraco[server]'\n"
    expected = [
        "burraco serve " + server,
        "burraco serve " + server,
        "burraco db " + server,
        "burraco club " + server,
        "burraco club " + server,
        "burraco arena's chart needs the charts extra: pip install 'burraco[charts]'"
        " (or pass --no-chart)\n",
    ]
    assert [run["err"] for run in result["runs"]] == expected
    assert [run["code"] for run in result["runs"]] == [2] * len(expected)
    assert [run["out"] for run in result["runs"]] == [""] * len(expected)
    assert not Path(out).exists()  # stopped before it played
    assert result["loaded"] == []


def test_a_postgresql_database_needs_the_postgres_extra(tmp_path: Path) -> None:
    url = "postgresql://nobody@127.0.0.1:1/none"
    result = run_without(
        ["asyncpg"],
        ["serve", "--database-url", url],
        ["db", "upgrade", "--database-url", url],
    )
    assert [run["err"] for run in result["runs"]] == [
        f"burraco {command} on PostgreSQL needs the postgres extra:"
        " pip install 'burraco[postgres]'\n"
        for command in ("serve", "db")
    ]
    assert [run["code"] for run in result["runs"]] == [2, 2]
    assert result["loaded"] == []


def test_a_missing_package_of_an_extra_met_while_running_is_the_same_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def needs_matplotlib(args: object) -> int:
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib.figure")

    import burraco.cli.rules_cmd

    monkeypatch.setattr(burraco.cli.rules_cmd, "run", needs_matplotlib)
    assert main(["rules"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "burraco rules needs the charts extra: pip install 'burraco[charts]'\n"


def test_any_other_missing_module_is_a_bug_and_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def needs_nothing_known(args: object) -> int:
        raise ModuleNotFoundError("No module named 'no_such_module'", name="no_such_module")

    import burraco.cli.rules_cmd

    monkeypatch.setattr(burraco.cli.rules_cmd, "run", needs_nothing_known)
    with pytest.raises(ModuleNotFoundError):
        main(["rules"])


def test_the_extras_checked_are_the_extras_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == []
    declared = project["optional-dependencies"]
    for extra, packages in extras.EXTRAS.items():
        names = {_distribution(requirement) for requirement in declared[extra]}
        assert names == {distribution for distribution, _ in packages}, extra
    dev = {_distribution(requirement) for requirement in declared["dev"]}
    assert "burraco" in dev
    assert f"burraco[{','.join(extras.EXTRAS)}]" in declared["dev"]


def _distribution(requirement: str) -> str:
    for stop in "[<>=~! ;":
        requirement = requirement.partition(stop)[0]
    return requirement.lower()
