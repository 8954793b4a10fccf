"""``burraco verify FILE``: check every smazzata of a record's ``[meta] fairness``
(docs/protocol.md, "Fair deals"): the deck and the salt give the commitment sent before the first
card, the deck is the one the hand was played with, and with the players' seeds the server's
secret and each seed give their commitments and together the deck.

Exit statuses as ``burraco replay``'s: 0 when every smazzata is verified, 1 when a check fails
(the record was tampered with, or the server cheated), 2 when the file cannot be read, is not a
valid record, or has no ``[meta] fairness`` of the documented shape. One line per smazzata goes
to standard output (on 0 and 1); on 1 and 2 one sentence goes to standard error.
"""

from __future__ import annotations

import argparse
import sys

from burraco.engine.errors import RecordError
from burraco.engine.fairness import FairnessFormatError, SmazzataCheck, check_fairness
from burraco.engine.record import read_record


def _line(check: SmazzataCheck) -> str:
    if not check.ok:
        return f"smazzata {check.number}: NOT VERIFIED: " + "; ".join(check.failures)
    text = f"smazzata {check.number}: verified"
    if check.seeded:
        used = ", ".join(str(s) for s in check.seeds_used) or "none"
        text += f" (seeds of seats: {used}"
        if check.missing:
            text += "; missing: " + ", ".join(str(s) for s in check.missing)
        text += ")"
        if not check.derived:
            text += "; " + "; ".join(check.notes)
    return text


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"{args.file}: cannot read the file: {error.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"{args.file}: the file is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        record = read_record(text)
        rules = record.ruleset()
    except RecordError as error:
        print(f"{args.file}: malformed: {error}", file=sys.stderr)
        return 2
    if "fairness" not in record.meta:
        print(f"{args.file}: the record has no [meta] fairness to verify", file=sys.stderr)
        return 2
    if not record.hands:
        print(f"{args.file}: the record has no smazzata to verify", file=sys.stderr)
        return 2
    try:
        checks = check_fairness(
            record.meta["fairness"],
            [hand.deck for hand in record.hands],
            players=rules.players,
            jokers=rules.jokers,
        )
    except FairnessFormatError as error:
        print(f"{args.file}: malformed: {error}", file=sys.stderr)
        return 2
    for check in checks:
        print(_line(check))
    failed = [c for c in checks if not c.ok]
    if failed:
        first = failed[0]
        print(
            f"{args.file}: smazzata {first.number} is not verified: {first.failures[0]}",
            file=sys.stderr,
        )
        return 1
    return 0
