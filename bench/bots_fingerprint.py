"""A fingerprint of the bots' play, to show that a refactoring changes no decision.

    .venv/bin/python bench/bots_fingerprint.py [cheap] [presets] [search]

Plays seeded smazzate (deck and first seat from ``random.Random("fp:RULES:PLAYERS:GAME")``, the
bot of seat s seeded ``1000 * GAME + s``) and prints, per group, the SHA-256 (first 16 hex
digits) of every action and the result of every smazzata, then the hash of them all:

- ``cheap``: heuristic against greedy (either seat order), italian and reale, 2 and 4 players;
- ``presets``: heuristic against greedy in the other presets;
- ``search``: ``search:iterations=24,depth=2`` (an iteration budget, so deterministic) against
  the heuristic, 30 smazzate for 2 and 4 players.

Run it before and after a change: equal hashes mean identical play. About a minute on one core.
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from burraco.bots import make_bot  # noqa: E402
from burraco.engine import Smazzata, find_rules  # noqa: E402
from burraco.engine.deal import shuffled_deck  # noqa: E402


def play(specs: Sequence[str], players: int, game: int, preset: str) -> str:
    """Every action of one seeded smazzata, one a line, and its result."""
    rules = find_rules(preset, players=players)
    rng = random.Random(f"fp:{preset}:{players}:{game}")
    first = rng.randrange(players)
    state = Smazzata.new(rules, deck=shuffled_deck(rules, rng), first=first)
    bots = [make_bot(specs[s % len(specs)], 1000 * game + s) for s in range(players)]
    out = []
    while not state.is_over:
        seat = state.current
        action = bots[seat].choose(state.view(seat), tuple(state.legal_actions()))
        state.apply(action)
        out.append(str(action))
    for bot in bots:
        bot.close()
    out.append(repr(state.score().result))
    return "\n".join(out)


def group(label: str, specs: Sequence[str], players: int, games: int, preset: str) -> str:
    digest = hashlib.sha256()
    for game in range(games):
        digest.update(play(specs, players, game, preset).encode())
        digest.update(b"\0")
    print(f"{label:45s} {digest.hexdigest()[:16]}", flush=True)
    return digest.hexdigest()


def main(which: Sequence[str]) -> None:
    total = hashlib.sha256()
    hg, gh = ["heuristic", "greedy"], ["greedy", "heuristic"]
    for players in (2, 4):
        for preset in ("italian", "reale") if "cheap" in which else ():
            total.update(
                group(
                    f"heuristic-greedy {preset} {players}p x300", hg, players, 300, preset
                ).encode()
            )
            total.update(
                group(
                    f"greedy-heuristic {preset} {players}p x100", gh, players, 100, preset
                ).encode()
            )
    for players in (2, 4) if "presets" in which else ():
        for preset in ("classic", "italian-semipulito", "internazionale"):
            total.update(
                group(
                    f"heuristic-greedy {preset} {players}p x150", hg, players, 150, preset
                ).encode()
            )
    for players in (2, 4) if "search" in which else ():
        specs = ["search:iterations=24,depth=2", "heuristic"]
        total.update(
            group(f"search-heuristic {players}p x30", specs, players, 30, "italian").encode()
        )
    print("total", total.hexdigest())


if __name__ == "__main__":
    main(sys.argv[1:] or ["cheap", "presets", "search"])
