"""Score sheets as text: one smazzata's breakdown by line (RULES.md R60) and the match totals."""

from __future__ import annotations

from collections.abc import Sequence

from burraco.engine.scoring import SmazzataScore

_ROWS = (
    ("melds", "melds"),
    ("burraco bonus", "burraco_bonus"),
    ("closing bonus", "closing_bonus"),
    ("cards in hand", "hand"),
    ("no pozzetto", "pozzetto_penalty"),
)


def line_name(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def smazzata_sheet(
    number: int, score: SmazzataScore | None, ended: str, names: Sequence[str]
) -> str:
    """The breakdown of one smazzata, one column per line."""
    if score is None:
        return f"Smazzata {number} · {ended}"
    how = {
        "closing": "closed by {}",
        "stock": "stock exhausted",
        "stall": "stall",
        "timeout": "time ran out",
    }.get(score.ended, score.ended)
    if score.closed_by is not None:
        how = how.format(names[score.closed_by])
    headers = [line_name(names, ls.seats) for ls in score.lines]
    width = max(12, *(len(h) + 2 for h in headers))
    out = [f"Smazzata {number} · {how}"]
    out.append(" " * 18 + "".join(h.rjust(width) for h in headers))
    for label, attr in _ROWS:
        values = [getattr(ls, attr) for ls in score.lines]
        out.append(f"  {label:<16}" + "".join(str(v).rjust(width) for v in values))
    out.append(f"  {'score':<16}" + "".join(str(ls.score).rjust(width) for ls in score.lines))
    burrachi = [", ".join(ls.burrachi) if ls.burrachi else "-" for ls in score.lines]
    out.append(f"  {'burrachi':<16}" + "".join(b.rjust(width) for b in burrachi))
    if len(score.result) == 3:
        shares = ", ".join(f"{names[s]} {score.result[s]}" for s in range(3))
        out.append(f"  shares: {shares}")
    return "\n".join(out)


def totals_sheet(
    totals: Sequence[int], names: Sequence[str], *, winner: int | None, decided: bool
) -> str:
    """Match totals by line (2 and 4 players) or by seat (3 players), and the winner."""
    if len(totals) == 3:
        sides = [names[s] for s in range(3)]
    elif len(names) == 4:
        sides = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    else:
        sides = list(names)
    width = max(12, *(len(s) + 2 for s in sides))
    out = [" " * 18 + "".join(s.rjust(width) for s in sides)]
    out.append(f"{'Totals':<18}" + "".join(str(t).rjust(width) for t in totals))
    if decided:
        out.append(f"Winner: {sides[winner]}" if winner is not None else "Result: a draw")
    return "\n".join(out)
