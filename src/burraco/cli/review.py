"""``burraco review [--seat S] [--seconds T] [--seed N] [--json] FILE`` (docs/review.md).

Exit codes as ``burraco replay``'s: 0 when the review is printed, 1 when the record has an
illegal action or a wrong result, 2 when the file cannot be read or is malformed, or the seat is
not at the table; on 1 and 2 one sentence goes to standard error and nothing to standard output.
"""

from __future__ import annotations

import argparse
import json
import sys

from burraco.bots.review import DEFAULT_SECONDS, Decision, Review, ReviewError, review_record
from burraco.engine.actions import DISCARD, Action
from burraco.engine.errors import RecordError
from burraco.engine.record import Record, read_record, replay

from .progress import Progress
from .replay import read_text
from .sheet import smazzata_sheet


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    if text is None:
        return 2
    seconds = DEFAULT_SECONDS if args.seconds is None else args.seconds
    if not seconds > 0:
        print("burraco review: --seconds must be positive", file=sys.stderr)
        return 2
    try:
        record = read_record(text)
    except RecordError as error:
        print(f"{args.file}: malformed: {error}", file=sys.stderr)
        return 2
    bar: Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total, "decisions", force=args.progress).__enter__()
        bar.advance(done - bar.done)

    try:
        review = review_record(
            record, seat=args.seat, seconds=seconds, seed=args.seed, progress=progress
        )
    except ReviewError as error:
        # an illegal action or a wrong result: the sentence of ``burraco replay``
        print(error if error.code == 1 else f"burraco review: {error}", file=sys.stderr)
        return error.code
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False))
    else:
        print(review_report(record, review))
    return 0


def review_report(record: Record, review: Review) -> str:
    """The text report: per smazzata its score sheet, the MP lost and the marked decisions."""
    names = record.players
    result = replay(record)
    sheets = {h.number: h for h in result.hands}
    out = [
        f"{record.rules} · review of {review.player} (seat {review.seat}) · "
        f"{review.seconds:g} s per decision · {review.mp_lost} MP lost in all"
    ]
    for sm in review.smazzate:
        out.append("")
        hand = sheets.get(sm.number)
        if hand is not None:
            out.append(smazzata_sheet(hand.number, hand.score, hand.ended, names))
        marked = [d for d in sm.decisions if d.verdict != "ok"]
        out.append(
            f"  {review.player}: {sm.mp_lost} MP lost in {len(sm.decisions)} decisions,"
            f" {len(marked)} marked"
        )
        out += [f"  - {decision_line(d)}" for d in marked]
    return "\n".join(out)


def decision_line(d: Decision) -> str:
    """``turn 12, discard: played 0 discard QC, better 0 discard 5H, costs about 90 MP
    (60-120), mistake``."""
    return (
        f"turn {d.turn}, {_label(d)}: played {', '.join(d.played)}, better {', '.join(d.best)},"
        f" costs about {d.cost:.0f} MP ({d.low:.0f}-{d.high:.0f}), {d.verdict}"
    )


def _label(d: Decision) -> str:
    if d.phase == "acquire":
        return "draw or pick up"
    if len(d.played) == 1 and Action.parse(d.played[0]).verb == DISCARD:
        return "discard"
    return "play"
