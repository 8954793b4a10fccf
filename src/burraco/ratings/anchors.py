"""The bots' ratings: fixed anchors of the pool, so that a person reads "Bot Esperto ~1650" and
the scale cannot drift (a bot's rating never moves; a person's moves against it as against any
player of that strength).

The gaps come from the arena's measured strength (bench/README.md, 2026-11-29, rounds of three
smazzate): the expert (heuristic) won 92% of its rounds against the easy bot (greedy) and the
champion (search at 1 s) 88% against the expert in 2 players, 77% in 4. On Elo's scale
(``400 * log10(p / (1 - p))``) that is +424, +346 and +210 points. The expert is set at 1650;
the beginner (random), which never won a round against the expert in 666, is put 800 points
below it (a floor, not a measurement). Three players were not measured: they use the 2-player
figures."""

from __future__ import annotations

from typing import Final

from .mode import Mode
from .value import Rating

_ANCHOR_SIGMA: Final = 40.0
"""Small: the anchors are well measured, and ``rate`` never changes them anyway."""

BOT_ANCHORS: Final[dict[Mode, dict[str, float]]] = {
    Mode.TWO: {"random": 850.0, "greedy": 1226.0, "heuristic": 1650.0, "search": 1996.0},
    Mode.THREE: {"random": 850.0, "greedy": 1226.0, "heuristic": 1650.0, "search": 1996.0},
    Mode.FOUR: {"random": 850.0, "greedy": 1226.0, "heuristic": 1650.0, "search": 1860.0},
}


def bot_rating(mode: Mode, spec: str) -> Rating | None:
    """The fixed rating of a bot level (``heuristic``, ``search:seconds=1``), or None for an
    outside program or an unknown level (such a table is not rated)."""
    level = spec.partition(":")[0].strip()
    mu = BOT_ANCHORS[mode].get(level)
    return None if mu is None else Rating(mu, _ANCHOR_SIGMA)
