"""The arena's statistics, as pure functions (standard library only, no I/O).

- ``mean_ci``: the mean of a sample with a confidence interval from Student's t distribution
  (``t_quantile``; exact, computed from the regularized incomplete beta function).
- ``quantile``: sample quantiles with linear interpolation (type 7, as numpy's default).
- ``bradley_terry``: Bradley-Terry strengths fitted by maximum likelihood with the MM algorithm
  of Hunter (2004), ties counted as half a win for each side; ``elo_scale`` puts them on the Elo
  scale (400 × log10 of the strength) with an anchor.
- ``bootstrap_ratings``: percentile intervals for those ratings, resampling whole units (the
  arena's duplicate deals) with replacement within strata, from a seeded generator.
- ``vp_rounds``: consecutive deals grouped into rounds, their totals turned into Match Points and
  Victory Points (RULES.md R65, R66, 4.4).

docs/arena.md explains how the arena uses them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from burraco.engine.vp import VP3, RoundScore, VPTable, round_score

# ------------------------------------------------------------------------------ t distribution


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if not 0.0 <= x <= 1.0:
        raise ValueError("x must be between 0 and 1")
    if x in (0.0, 1.0):
        return x
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t distribution with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution (``t_quantile(0.975, 4)`` = 2.776...)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be strictly between 0 and 1")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


# ------------------------------------------------------------------------------ mean and CI


@dataclass(frozen=True, slots=True)
class Interval:
    """A sample mean with a two-sided confidence interval (nan bounds when n < 2)."""

    mean: float
    low: float
    high: float
    n: int
    sd: float
    """The sample standard deviation (n - 1 in the denominator)."""
    level: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0


def mean_ci(sample: Sequence[float], level: float = 0.95) -> Interval:
    """Mean of ``sample`` with its ``level`` confidence interval: mean ± t(1 - α/2, n - 1) · s/√n.

    The interval uses Student's t distribution with n - 1 degrees of freedom (not the normal
    approximation), so it is right for small samples too. An empty sample gives nan everywhere;
    one value gives an unbounded (nan) interval.
    """
    n = len(sample)
    if n == 0:
        nan = math.nan
        return Interval(nan, nan, nan, 0, nan, level)
    mean = math.fsum(sample) / n
    if n == 1:
        return Interval(mean, math.nan, math.nan, 1, math.nan, level)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in sample) / (n - 1))
    half = t_quantile(1.0 - (1.0 - level) / 2.0, n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, sd, level)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted values, interpolating linearly between order
    statistics (position (n - 1) · q; "type 7")."""
    if not sorted_values:
        return math.nan
    if not 0.0 <= q <= 1.0:
        raise ValueError("q must be between 0 and 1")
    pos = (len(sorted_values) - 1) * q
    below = math.floor(pos)
    above = min(below + 1, len(sorted_values) - 1)
    frac = pos - below
    return sorted_values[below] + (sorted_values[above] - sorted_values[below]) * frac


# ------------------------------------------------------------------------------ Bradley-Terry

WinMatrix = Sequence[Sequence[float]]
"""``wins[i][j]``: how many times i beat j (a tie counts as half a win for each)."""


def bradley_terry(
    wins: WinMatrix,
    *,
    virtual_ties: float = 0.0,
    start: Sequence[float] | None = None,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> list[float]:
    """Bradley-Terry strengths p (P(i beats j) = p_i / (p_i + p_j)) by maximum likelihood.

    The MM algorithm (Hunter 2004): p_i <- W_i / Σ_j n_ij / (p_i + p_j), where W_i is i's wins
    and n_ij the games between i and j, then rescale to a geometric mean of 1; repeat until no
    strength changes by more than ``tolerance`` (relative). ``virtual_ties`` adds that many tied
    games to every pair that played, which keeps the estimate finite when a player won (or lost)
    every game; 0 gives the plain maximum likelihood estimate. A player with no games keeps
    strength 1. Each group of players connected by games is only determined up to a factor;
    the rescaling fixes it for all players together.
    """
    k = len(wins)
    if any(len(row) != k for row in wins):
        raise ValueError("the win matrix must be square")
    games = [[0.0] * k for _ in range(k)]
    won = [0.0] * k
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            n = wins[i][j] + wins[j][i]
            if n > 0:
                n += virtual_ties
                won[i] += wins[i][j] + virtual_ties / 2.0
            games[i][j] = n
    active = [i for i in range(k) if any(games[i])]
    p = [1.0] * k if start is None else [float(x) for x in start]
    if any(won[i] <= 0 for i in active):
        raise ValueError(
            "a player without a win (or draw) has no finite Bradley-Terry strength;"
            " use virtual_ties > 0"
        )
    if any(won[i] >= sum(games[i]) for i in active):
        raise ValueError(
            "a player without a loss (or draw) has no finite Bradley-Terry strength;"
            " use virtual_ties > 0"
        )
    for _ in range(max_iterations):
        new = p[:]
        for i in active:
            denominator = sum(
                games[i][j] / (p[i] + p[j]) for j in range(k) if j != i and games[i][j]
            )
            new[i] = won[i] / denominator
        scale = math.exp(math.fsum(math.log(new[i]) for i in active) / len(active)) if active else 1
        for i in active:
            new[i] /= scale
        change = max((abs(new[i] - p[i]) / p[i] for i in active), default=0.0)
        p = new
        if change < tolerance:
            break
    return p


def elo_scale(strengths: Sequence[float], anchor: int | None = None) -> list[float]:
    """Strengths as Elo-scale ratings, 400 · log10(p): a 400-point gap means 10-to-1 odds.

    ``anchor``: the index of the player rated 0; None: the ratings have mean 0.
    """
    ratings = [400.0 * math.log10(p) for p in strengths]
    offset = ratings[anchor] if anchor is not None else math.fsum(ratings) / len(ratings)
    return [r - offset for r in ratings]


Unit = Sequence[tuple[int, int, float]]
"""One resampling unit (a duplicate deal): entries (i, j, wins of i over j)."""


@dataclass(frozen=True, slots=True)
class RatingIntervals:
    ratings: list[float]
    low: list[float]
    high: list[float]
    samples: int
    level: float


def win_matrix(units: Sequence[Unit], k: int) -> list[list[float]]:
    """Sum units into a k × k win matrix."""
    wins = [[0.0] * k for _ in range(k)]
    for unit in units:
        for i, j, w in unit:
            wins[i][j] += w
    return wins


def bootstrap_ratings(
    strata: Sequence[Sequence[Unit]],
    k: int,
    *,
    samples: int,
    rng: random.Random,
    anchor: int | None = None,
    virtual_ties: float = 0.5,
    level: float = 0.95,
) -> RatingIntervals:
    """Elo-scale Bradley-Terry ratings with percentile bootstrap intervals.

    Each bootstrap sample draws, in every stratum (an arena pairing), as many units as it holds,
    with replacement; the ratings are refitted on the resampled wins and anchored the same way;
    the interval is the (1 - level)/2 and (1 + level)/2 quantiles of the refitted ratings.
    """
    everything = [u for stratum in strata for u in stratum]
    point = bradley_terry(win_matrix(everything, k), virtual_ties=virtual_ties)
    ratings = elo_scale(point, anchor)
    draws: list[list[float]] = [[] for _ in range(k)]
    for _ in range(samples):
        chosen: list[Unit] = []
        for stratum in strata:
            n = len(stratum)
            chosen.extend(stratum[int(rng.random() * n)] for _ in range(n))
        fit = bradley_terry(
            win_matrix(chosen, k), virtual_ties=virtual_ties, start=point, tolerance=1e-8
        )
        for i, r in enumerate(elo_scale(fit, anchor)):
            draws[i].append(r)
    low: list[float] = []
    high: list[float] = []
    alpha = (1.0 - level) / 2.0
    for values in draws:
        values.sort()
        low.append(quantile(values, alpha))
        high.append(quantile(values, 1.0 - alpha))
    return RatingIntervals(ratings, low, high, samples, level)


# ------------------------------------------------------------------------------ VP rounds


def vp_rounds(
    deals: Sequence[tuple[float, float] | None], *, size: int = 3, table: VPTable = VP3
) -> list[RoundScore]:
    """Rounds of ``size`` consecutive deals (deals 0..size-1, then size..2·size-1, ...).

    ``deals[d]`` is the two sides' scores in deal d with one seat assignment (None: not played).
    Each round totals the scores, so MP = total(X) - total(Y) (R65) and VP from ``table`` (R66).
    A round with a deal missing, and the incomplete rounds at the end, are left out. Scores that
    are not whole numbers (averages of seats, 3 players) are rounded to the nearest integer.
    """
    rounds: list[RoundScore] = []
    for start in range(0, len(deals) - size + 1, size):
        chunk = deals[start : start + size]
        if any(d is None for d in chunk):
            continue
        x = sum(d[0] for d in chunk if d is not None)
        y = sum(d[1] for d in chunk if d is not None)
        rounds.append(round_score((round(x), round(y)), table))
    return rounds
