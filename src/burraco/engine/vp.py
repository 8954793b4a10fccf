"""Match Points, Victory Points and the technical score (RULES.md R65, R66, 4.4, T14, T16)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .errors import RulesError

TECHNICAL_MP: Final = 355
"""T14: the fixed technical score, whatever VP table is in use (T16)."""
TECHNICAL_VP: Final = 14


@dataclass(frozen=True, slots=True)
class VPTable:
    """A Victory Point table: ``bounds[i]`` is the largest MP difference worth ``10 + i`` VP to
    the winner; a larger difference than the last bound is worth 20 (RULES.md 4.4)."""

    name: str
    bounds: tuple[int, ...]
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.bounds) != 10:
            raise RulesError(
                f"VP table {self.name!r} needs 10 bounds (10 to 19 VP), not {len(self.bounds)}"
            )
        if any(b < 0 for b in self.bounds) or list(self.bounds) != sorted(set(self.bounds)):
            raise RulesError(f"VP table {self.name!r}: bounds must be increasing and non-negative")

    def winner_vp(self, difference: int) -> int:
        """VP of the line ahead by ``difference`` MP (R66): 10 + the first bracket that holds it."""
        margin = abs(difference)
        for i, bound in enumerate(self.bounds):
            if margin <= bound:
                return 10 + i
        return 20

    def split(self, mp_a: int) -> tuple[int, int]:
        """VP of lines A and B when A's signed MP is ``mp_a`` (B's is ``-mp_a``)."""
        vp = self.winner_vp(mp_a)
        return (vp, 20 - vp) if mp_a >= 0 else (20 - vp, vp)

    def rows(self) -> list[tuple[str, int, int]]:
        """The table as printed before a tournament (T16): (MP range, winner VP, loser VP)."""
        out = []
        low = 0
        for i, bound in enumerate(self.bounds):
            out.append((f"{low} – {bound}", 10 + i, 10 - i))
            low = bound + 5
        out.append((f"≥ {low}", 20, 0))
        return out


VP3: Final = VPTable(
    "VP-3", (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500), "rounds of 3 smazzate (W1, W2)"
)
VP4: Final = VPTable(
    "VP-4", (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000), "rounds of 4 smazzate (W1)"
)
VP2: Final = VPTable(
    "VP-2",
    (40, 100, 170, 240, 340, 440, 540, 670, 840, 1000),
    "proposed placeholder for rounds of 2 smazzate (official FIBur table not found)",
)
VP_TABLES: Final[Mapping[str, VPTable]] = {"VP-2": VP2, "VP-3": VP3, "VP-4": VP4}


def vp_table(name_or_bounds: str | Sequence[int], *, smazzate: int | None = None) -> VPTable:
    """A named table (``VP-3``), ``auto`` (by smazzate per round: 2, 3 or 4), or custom bounds."""
    if isinstance(name_or_bounds, str):
        name = name_or_bounds.upper()
        if name == "AUTO":
            if smazzate not in (2, 3, 4):
                raise RulesError(
                    f"no default VP table for rounds of {smazzate} smazzate; give one explicitly"
                )
            return VP_TABLES[f"VP-{smazzate}"]
        if name not in VP_TABLES:
            raise RulesError(f"unknown VP table {name_or_bounds!r} (known: VP-2, VP-3, VP-4)")
        return VP_TABLES[name]
    return VPTable("custom", tuple(name_or_bounds), "custom")


@dataclass(frozen=True, slots=True)
class RoundScore:
    """MP and VP of the two lines of a round (R65, R66, T14)."""

    totals: tuple[int, int]
    mp: tuple[int, int]
    vp: tuple[int, int]
    technical: bool = False


def round_score(totals: Sequence[int], table: VPTable) -> RoundScore:
    """MP (signed differences) and VP of a completed round between two lines."""
    a, b = totals
    mp_a = a - b
    return RoundScore((a, b), (mp_a, -mp_a), table.split(mp_a))


def technical_score(completed_totals: Sequence[int], timed_out: int, table: VPTable) -> RoundScore:
    """T14: line ``timed_out`` ran out of time; the other line gets at least +355 MP and 14 VP,
    or more if the completed smazzate give it more. The line that timed out always loses."""
    if timed_out not in (0, 1):
        raise ValueError("timed_out must be line 0 or 1")
    other = 1 - timed_out
    d = completed_totals[other] - completed_totals[timed_out]
    mp_other = max(TECHNICAL_MP, d)
    vp_other = max(TECHNICAL_VP, table.winner_vp(max(d, 0)))
    mp = [0, 0]
    vp = [0, 0]
    mp[other], mp[timed_out] = mp_other, -mp_other
    vp[other], vp[timed_out] = vp_other, 20 - vp_other
    return RoundScore(
        (completed_totals[0], completed_totals[1]), (mp[0], mp[1]), (vp[0], vp[1]), True
    )
