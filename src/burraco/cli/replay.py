"""``burraco replay [--json] FILE``: replay a game record (spec/record-format.md).

Exit 0 when every action was legal and every given result matched, 1 for an illegal action or a
wrong result, 2 when the file cannot be read or is malformed. On 1 and 2 one sentence goes to
standard error and nothing to standard output.
"""

from __future__ import annotations

import argparse
import json
import sys

from burraco.engine.errors import RecordError
from burraco.engine.record import read_record, replay

from .sheet import smazzata_sheet, totals_sheet


def read_text(file: str) -> str | None:
    """The text of ``file`` (``-``: standard input), or None after one sentence on standard
    error saying why it cannot be read (the commands' exit 2)."""
    try:
        if file == "-":
            return sys.stdin.read()
        with open(file, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        print(f"{file}: cannot read the file: {error.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"{file}: the file is not UTF-8 text", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    if text is None:
        return 2
    try:
        record = read_record(text)
        result = replay(record)
    except RecordError as error:
        print(f"{args.file}: malformed: {error}", file=sys.stderr)
        return 2
    if result.error is not None:
        print(str(result.error), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
        return 0
    names = record.players
    seats = ", ".join(f"{name} (seat {i})" for i, name in enumerate(names))
    print(f"{record.rules} · {len(names)} players · {seats}")
    for hand in result.hands:
        print()
        print(smazzata_sheet(hand.number, hand.score, hand.ended, names))
    print()
    print(
        totals_sheet(
            result.totals,
            names,
            winner=result.winner,
            decided=result.target is not None and result.winner is not None,
        )
    )
    return 0
