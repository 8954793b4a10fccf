"""A seat's match in figures, for the profiles (issue 16): from the score sheets of the
smazzate played (server ``score_json``: per line its seats, score, burrachi and whether it took
its pozzetto; who closed). Pure: the server stores the figures at the match's end.

- ``mp``: per smazzata, the seat's line score minus the best other line's, summed (the points
  of the match the seat's side made over its opponents; mean per smazzata on the profile).
- burrachi: a line's, counted for each of its seats (partners share their melds, R1); clean
  are ``clean``, ``nobile`` and ``reale``, dirty the others (``dirty``, ``semiclean``).
- ``pozzetti``: smazzate in which the seat's line took its pozzetto; ``closings``: smazzate the
  seat closed himself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

CLEAN: Final = frozenset({"clean", "nobile", "reale"})


@dataclass(frozen=True, slots=True)
class SeatSummary:
    smazzate: int
    mp: int
    burrachi_clean: int
    burrachi_dirty: int
    pozzetti: int
    closings: int


def summarize(scores: Sequence[Mapping[str, Any]], seat: int) -> SeatSummary:
    smazzate = mp = clean = dirty = pozzetti = closings = 0
    for sheet in scores:
        lines = sheet["lines"]
        mine = next((line for line in lines if seat in line["seats"]), None)
        if mine is None:
            continue
        smazzate += 1
        others = [line["score"] for line in lines if line is not mine]
        mp += mine["score"] - (max(others) if others else 0)
        for kind in mine.get("burrachi", ()):
            if kind in CLEAN:
                clean += 1
            else:
                dirty += 1
        pozzetti += bool(mine.get("pozzetto"))
        closings += sheet.get("closed_by") == seat
    return SeatSummary(smazzate, mp, clean, dirty, pozzetti, closings)
