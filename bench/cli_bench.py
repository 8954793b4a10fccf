"""How long the ``burraco`` command takes to start: ``--help`` and the replay of a short record.

Each measure is the wall time of one whole process, from its spawn to its exit (interpreter
start-up, ``site``, the imports, the work, the exit), taken with ``time.perf_counter`` around
``subprocess.run`` with the output thrown away. Four processes are timed, in turn, round after
round, so that load from other processes falls on all of them alike:

1. ``python -c pass``: the floor, a process that starts Python and does nothing;
2. ``python -c "import burraco.engine"``: what the engine costs to import;
3. ``burraco --help``;
4. ``burraco replay RECORD`` (a one-smazzata record by default).

The figures are the medians of the rounds (with min and max) and the ratios of the command's
medians to the two baselines. ``python`` is this interpreter; ``burraco`` is the console script
next to it unless ``--command`` says otherwise (``--command "python -m burraco.cli.main"`` runs
the sources that ``PYTHONPATH`` puts first, which is how a work tree is measured without
installing it). The environment is passed on unchanged: ``PYTHONPATH`` decides which sources
both the engine baseline and the command import. ``--write`` puts the results in the marked
section of ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "bench" / "README.md"
RECORD = ROOT / "tests" / "data" / "records" / "closing-clean-dirty.toml"
START, END = "<!-- cli-bench:start -->", "<!-- cli-bench:end -->"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=30, help="rounds (default 30)")
    parser.add_argument(
        "--command",
        default=str(Path(sys.executable).with_name("burraco")),
        help="the command to time, split as a shell would (default: burraco next to python)",
    )
    parser.add_argument("--record", type=Path, default=RECORD, help="the record to replay")
    parser.add_argument("--write", action="store_true", help="update bench/README.md")
    args = parser.parse_args(argv)
    if args.rounds < 20:
        parser.error("--rounds must be at least 20")
    command = shlex.split(args.command)
    python = sys.executable
    cases = {
        "python -c pass": [python, "-c", "pass"],
        'python -c "import burraco.engine"': [python, "-c", "import burraco.engine"],
        "burraco --help": [*command, "--help"],
        "burraco replay RECORD": [*command, "replay", str(args.record)],
    }
    for argv_ in cases.values():
        _check(argv_)
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, argv_ in cases.items():
            times[name].append(_time(argv_))
    load_after = os.getloadavg()
    text = _report(args, times, load_before, load_after)
    print(text)
    if args.write:
        _write(text)
    return 0


def _check(argv: list[str]) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} exited {proc.returncode}: {proc.stderr.strip()}")


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _report(
    args: argparse.Namespace,
    times: dict[str, list[float]],
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> str:
    medians = {name: statistics.median(values) for name, values in times.items()}
    floor = medians["python -c pass"]
    engine = medians['python -c "import burraco.engine"']
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    record = args.record.relative_to(ROOT) if args.record.is_relative_to(ROOT) else args.record
    lines = [
        f"Last run: **{now}**, `python bench/cli_bench.py -n {args.rounds}`, command"
        f" `{_shown(args.command)}`, record `{record}`.",
        "",
        f"- Machine: {_cpu_model()}, {os.cpu_count()} logical cores (nproc)",
        f"- Software: CPython {platform.python_version()}, {platform.system()}"
        f" {platform.release()}; burraco sources {_sources()}",
        "- Load average (1 / 5 / 15 min): "
        + " / ".join(f"{x:.2f}" for x in load_before)
        + " before, "
        + " / ".join(f"{x:.2f}" for x in load_after)
        + " after",
        f"- Method: {args.rounds} rounds of the four processes in turn; wall time per process",
        "",
        "| Process | Median | Min | Max | ÷ `python -c pass` | ÷ `import burraco.engine` |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, values in times.items():
        median = medians[name]
        lines.append(
            f"| `{name}` | {_ms(median)} | {_ms(min(values))} | {_ms(max(values))}"
            f" | {median / floor:.2f} | {median / engine:.2f} |"
        )
    return "\n".join(lines)


def _shown(command: str) -> str:
    """The command as run, with this interpreter's folder written as a placeholder."""
    return command.replace(str(Path(sys.executable).parent), "<venv>/bin")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _sources() -> str:
    """Where this interpreter, in this environment, imports burraco from, and its commit."""
    code = "import burraco, os; print(os.path.dirname(burraco.__file__))"
    where = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    folder = where.stdout.strip()
    git = ["git", "-C", folder or ".", "describe", "--always", "--dirty"]
    commit = subprocess.run(git, capture_output=True, text=True, check=False).stdout.strip()
    return f"{folder or 'unknown'} (commit {commit or 'unknown'})"


def _write(text: str) -> None:
    write_section(text, START, END, "bench/cli_bench.py --write")


def write_section(text: str, start_mark: str, end_mark: str, generator: str) -> None:
    """Put ``text`` between the two marks of ``bench/README.md`` (``generator`` wrote it)."""
    readme = README.read_text(encoding="utf-8")
    before, start, rest = readme.partition(start_mark)
    _, end, after = rest.partition(end_mark)
    if not start or not end:
        raise SystemExit(f"{README}: no {start_mark} ... {end_mark} section")
    generated = f"<!-- Generated by {generator}: the next run replaces this. -->"
    README.write_text(f"{before}{start}\n{generated}\n\n{text}\n{end}{after}", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
