"""Refit the weights of the search bot's evaluation (src/burraco/bots/evaluate.py).

    .venv/bin/python bench/fit_eval.py [--games N] [--family 2p ...]

Plays heuristic self-play smazzate for each family of tables, records at (about half of) the
turn starts the feature differences of line 0 against the other lines (``feature_difference``)
with the final score difference of the smazzata (``final_difference``), and fits the weights by
least squares, with three of them held fixed (banked points 1, hand points -1, missing pozzetto
-100) and the constant ``structure`` feature left out (see the module doc of evaluate.py). Prints
the R^2 and the weights, ready to paste into evaluate.py. Standard library only (normal equations
solved by Gaussian elimination). The weights in the code came from 4,000 (2 players), 3,000 (4),
2,500 (3) and 1,500 per preset (the clean-closing families) smazzate.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from burraco.bots.evaluate import FEATURES, feature_difference, final_difference
from burraco.bots.heuristic import play_turn
from burraco.engine import Smazzata, find_rules

FAMILIES: dict[str, list[tuple[str, int]]] = {
    "2p": [("italian", 2)],
    "3p": [("italian", 3)],
    "4p": [("italian", 4)],
    "2pc": [("internazionale", 2), ("reale", 2)],
    "4pc": [("reale", 4), ("internazionale", 4)],
}
FIXED = {"table": 1.0, "hand_points": -1.0, "no_pozzetto": -100.0}
LEFT_OUT = {"structure"}


def samples(
    preset: str, players: int, games: int, seed: int
) -> tuple[list[list[float]], list[float]]:
    rules = find_rules(preset, players=players)
    rng = random.Random(f"{seed}:{preset}:{players}")
    xs: list[list[float]] = []
    ys: list[float] = []
    for game in range(games):
        state = Smazzata.new(rules, rng=rng, first=game % players)
        rows = []
        while not state.is_over:
            if rng.random() < 0.5:
                rows.append(feature_difference(state, 0))
            play_turn(state)
        result = final_difference(state, 0)
        xs.extend(rows)
        ys.extend([result] * len(rows))
    return xs, ys


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (a small, symmetric positive definite system) by Gaussian elimination."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            m[col][col] = 1e-12
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(xs: list[list[float]], ys: list[float]) -> tuple[list[float], float]:
    fixed = {FEATURES.index(name): value for name, value in FIXED.items()}
    free = [i for i, name in enumerate(FEATURES) if i not in fixed and name not in LEFT_OUT]
    k = len(free)
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        target = y - sum(x[i] * v for i, v in fixed.items())
        row = [x[i] for i in free]
        for p in range(k):
            rp = row[p]
            if rp:
                xty[p] += rp * target
                line = xtx[p]
                for q in range(p, k):
                    line[q] += rp * row[q]
    for p in range(k):
        for q in range(p):
            xtx[p][q] = xtx[q][p]
    solution = solve(xtx, xty)
    weights = [0.0] * len(FEATURES)
    for i, v in fixed.items():
        weights[i] = v
    for i, w in zip(free, solution, strict=True):
        weights[i] = w
    mean = sum(ys) / len(ys)
    total = sum((y - mean) ** 2 for y in ys)
    residual = sum(
        (y - sum(w * v for w, v in zip(weights, x, strict=True))) ** 2
        for x, y in zip(xs, ys, strict=True)
    )
    return weights, 1 - residual / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="smazzate per preset")
    parser.add_argument("--family", nargs="*", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for family in args.family:
        start = time.time()
        xs: list[list[float]] = []
        ys: list[float] = []
        for preset, players in FAMILIES[family]:
            x, y = samples(preset, players, args.games, args.seed)
            xs += x
            ys += y
        weights, r2 = fit(xs, ys)
        print(f"# {family}: {len(xs)} samples, R^2 {r2:.3f}, {time.time() - start:.0f} s")
        for name, w in zip(FEATURES, weights, strict=True):
            print(f"    {w:.3f},  # {name}")


if __name__ == "__main__":
    main()
