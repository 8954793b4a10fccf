"""Seconds per test file from a JUnit XML report, for ``SLOW`` in tests/conftest.py.

    .venv/bin/pytest -n auto --dist worksteal --cov --junitxml=/tmp/run.xml  # or make test
    .venv/bin/python -m tests.slow_files /tmp/run.xml            # the files of 30 s or more

prints the files whose tests took at least ``--min`` seconds in all (set-up and tear-down
included), longest first, as the lines of the dict.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def file_of(classname: str) -> str:
    """``tests.cluster.test_failures`` (or ``....TestSomething``) -> its file's path."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        if parts[end - 1].startswith("test_") or parts[end - 1] == "tests":
            return "/".join(parts[:end]) + ".py"
    return classname


def seconds_per_file(report: Path) -> dict[str, float]:
    seconds: defaultdict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        seconds[file_of(case.get("classname", ""))] += float(case.get("time", "0") or 0)
    return dict(seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--min", type=float, default=30.0, help="seconds (default 30)")
    args = parser.parse_args(argv)
    seconds = seconds_per_file(args.report)
    print(f"# {sum(seconds.values()):.0f} s in {len(seconds)} files")
    for name, total in sorted(seconds.items(), key=lambda item: -item[1]):
        if total >= args.min:
            print(f'    "{name}": {total:.0f}.0,')


if __name__ == "__main__":
    main()
