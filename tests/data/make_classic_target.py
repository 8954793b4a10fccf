"""Write tests/data/records/classic-target-2005.toml: a classic match to 2005 (RULES.md 3.1, 3.6).

The match is played by two greedy bots on decks shuffled from seeded generators; the script tries
seeds in order and keeps the first match that ends within a few smazzate, so the golden file stays
short. The record holds every deck and action and each smazzata's ``result`` as the engine scored
it; the comment at its top lists the running totals, which the test checks by addition. Run it
again (``python tests/data/make_classic_target.py``) only to rebuild the file on purpose.
"""

from __future__ import annotations

import random
from pathlib import Path

from burraco.bots import GreedyBot
from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.record import Record, write_record

OUT = Path(__file__).parent / "records" / "classic-target-2005.toml"
MAX_SMAZZATE = 6


def play(seed: int) -> Game:
    rules = find_rules("classic")
    game = Game(rules, ["Anna", "Bruno"], rng=random.Random(seed), first=0)
    bots = [GreedyBot(seed * 10 + seat) for seat in range(2)]
    while not game.is_over and len(game.hands) < MAX_SMAZZATE:
        state = game.state
        game.apply(bots[state.current].choose(state.view(state.current), state.legal_actions()))
    return game


def header(record: Record) -> str:
    lines = [
        "Golden record: a classic match to 2005 (RULES.md 3.1, 3.6), written by",
        "tests/data/make_classic_target.py (greedy bots, seeded decks). Running totals:",
    ]
    totals = [0, 0]
    for number, hand in enumerate(record.hands, start=1):
        assert hand.result is not None
        before = list(totals)
        totals = [t + r for t, r in zip(totals, hand.result, strict=True)]
        lines.append(
            f"  hand {number}: {hand.result[0]:+d} / {hand.result[1]:+d}"
            f"   totals {before[0]} {hand.result[0]:+d} = {totals[0]},"
            f" {before[1]} {hand.result[1]:+d} = {totals[1]}"
        )
    leader = 0 if totals[0] > totals[1] else 1
    lines.append(f"The match is decided after hand {len(record.hands)}: line {leader} wins with")
    lines.append(f"{totals[leader]} >= 2005 (the other line has {totals[1 - leader]}).")
    return "".join(f"# {line}\n" for line in lines)


def main() -> None:
    for seed in range(1000):
        game = play(seed)
        if game.is_over:
            record = game.record()
            OUT.write_text(header(record) + write_record(record), encoding="utf-8")
            print(f"seed {seed}: {len(record.hands)} smazzate, totals {game.match.totals}")
            return
    raise SystemExit("no seed gave a short enough match")


if __name__ == "__main__":
    main()
