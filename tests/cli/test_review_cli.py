"""``burraco review`` (docs/review.md): its output, its JSON and its exit codes, which are
``burraco replay``'s (spec/record-format.md): 1 for an illegal action or a wrong result, 2 for a
file that cannot be read or is malformed, and for a seat not at the table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from burraco.bots.review import DEFAULT_SECONDS, FORMAT, Decision
from burraco.cli import review as review_cli
from burraco.cli.main import main
from tests.golden_records import BAD, RECORDS

GOOD = RECORDS / "closing-clean-dirty.toml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_is_the_annotated_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(GOOD), "--seconds", "0.02", "--seat", "1")
    assert code == 0, err
    assert "Smazzata 1" in out
    assert re.search(r"review of \S+ \(seat 1\) · 0.02 s per decision · \d+ MP lost", out)
    assert re.search(r"\d+ MP lost in \d+ decisions, \d+ marked", out)


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(GOOD), "--seconds", "0.02", "--json", "--seed", "3")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == FORMAT
    assert data["seat"] == 0
    assert data["seconds"] == 0.02
    assert [s["number"] for s in data["smazzate"]] == [1]
    for d in data["smazzate"][0]["decisions"]:
        assert d["played"][0].startswith("0 ")
        assert d["verdict"] in ("ok", "inaccuracy", "mistake", "blunder")
    _, again, _ = run(capsys, str(GOOD), "--seconds", "0.02", "--json", "--seed", "3")
    assert again == out  # deterministic for a seed


def test_seat_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    players = re.search(r"players = \[(.*)\]", GOOD.read_text(encoding="utf-8"))
    assert players is not None
    name = json.loads(f"[{players.group(1)}]")[1]
    code, out, _ = run(capsys, str(GOOD), "--seconds", "0.01", "--json", "--seat", name)
    assert code == 0
    assert json.loads(out)["seat"] == 1


@pytest.mark.parametrize(("name", "expected"), sorted(BAD.items()))
def test_bad_records_as_replay(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    expected: tuple[int, str],
) -> None:
    # the same exit code and sentence as burraco replay, nothing on standard output
    monkeypatch.chdir(RECORDS)
    code, out, err = run(capsys, name, "--seconds", "0.01")
    assert (code, err.strip()) == expected
    assert out == ""


def test_other_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, str(tmp_path / "missing.toml"))
    assert code == 2
    assert "cannot read the file" in err
    assert out == ""
    code, out, err = run(capsys, str(GOOD), "--seat", "7")
    assert (code, out) == (2, "")
    assert err.strip() == "burraco review: there is no seat 7 at a 2-player table"
    code, _, err = run(capsys, str(GOOD), "--seat", "Nobody")
    assert code == 2
    assert "no player 'Nobody'" in err
    code, _, err = run(capsys, str(GOOD), "--seconds", "0")
    assert code == 2
    assert "--seconds must be positive" in err


def test_the_help_names_the_default_budget(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    assert f"(default {DEFAULT_SECONDS:g})" in capsys.readouterr().out


def test_decision_line() -> None:
    d = Decision(
        turn=12,
        phase="play",
        action_index=3,
        played=("0 discard QC",),
        best=("0 discard 5H",),
        cost=90.0,
        low=60.0,
        high=120.0,
        playouts=100,
        verdict="mistake",
    )
    assert review_cli.decision_line(d) == (
        "turn 12, discard: played 0 discard QC, better 0 discard 5H,"
        " costs about 90 MP (60-120), mistake"
    )
