"""``burraco simulate``: many seeded smazzate (or whole matches) between bots, with statistics.

Game ``i`` is dealt from ``random.Random(f"{seed}:{i}")``, so any single game can be played again
on its own, and ``--records DIR`` writes each one as a game record.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from burraco.bots import Bot
from burraco.engine import Rules
from burraco.engine.deal import shuffled_deck
from burraco.engine.game import Game, options_of
from burraco.engine.record import HandRecord, Record, write_record
from burraco.engine.scoring import SmazzataScore
from burraco.engine.state import Smazzata

from .common import bots_from_args, rules_from_args
from .progress import Progress


@dataclass
class Stats:
    smazzate: int = 0
    decisions: int = 0
    ended: Counter[str] = field(default_factory=Counter)
    burrachi: Counter[str] = field(default_factory=Counter)
    scores: list[list[int]] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    pozzetti_taken: int = 0
    closed_by_seat: Counter[int] = field(default_factory=Counter)
    match_winners: Counter[str] = field(default_factory=Counter)

    def add(self, state: Smazzata, score: SmazzataScore) -> None:
        self.smazzate += 1
        self.ended[score.ended] += 1
        for line in score.lines:
            self.burrachi.update(line.burrachi)
            self.pozzetti_taken += line.pozzetto_penalty == 0
        while len(self.scores) < len(score.result):
            self.scores.append([])
        for i, points in enumerate(score.result):
            self.scores[i].append(points)
        self.turns.append(state.turns + 1)
        if score.closed_by is not None:
            self.closed_by_seat[score.closed_by] += 1


def play_smazzata(
    rules: Rules, bots: list[Bot], rng: random.Random, first: int
) -> tuple[Smazzata, HandRecord, int]:
    deck = shuffled_deck(rules, rng)
    state = Smazzata.new(rules, deck=deck, first=first)
    actions = []
    while not state.is_over:
        seat = state.current
        action = bots[seat].choose(state.view(seat), state.legal_actions())
        state.apply(action)
        actions.append(action)
    hand = HandRecord(first, tuple(actions), tuple(deck), result=state.score().result)
    return state, hand, len(actions)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.matches and rules.target_score is None and rules.smazzate is None:
        rules = rules.replace(smazzate=3)
    names = tuple(f"Seat {i}" for i in range(rules.players))
    if args.records:
        # A ruleset that a record cannot hold fails now, not after the first game.
        write_record(Record(rules.name, names, options=options_of(rules)))
        os.makedirs(args.records, exist_ok=True)
    stats = Stats()
    unit = "matches" if args.matches else "smazzate"
    start = time.perf_counter()
    with Progress(args.games, unit, force=args.progress) as bar:
        for i in range(args.games):
            rng = random.Random(f"{args.seed}:{i}")
            bots = bots_from_args(args, rules.players, args.seed * 100_003 + i)
            if args.matches:
                record = _play_match(rules, bots, rng, names, stats)
            else:
                state, hand, decisions = play_smazzata(rules, bots, rng, i % rules.players)
                stats.decisions += decisions
                stats.add(state, state.score())
                record = Record(rules.name, names, (hand,), options_of(rules), {"game": i})
            if args.records:
                path = os.path.join(args.records, f"game-{i + 1:05d}.toml")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(write_record(record))
            bar.advance()
    elapsed = time.perf_counter() - start
    _report(args, rules, stats, elapsed)
    return 0


def _play_match(
    rules: Rules, bots: list[Bot], rng: random.Random, names: tuple[str, ...], stats: Stats
) -> Record:
    game = Game(rules, names, rng=rng)
    while not game.is_over:
        state = game.state
        seat = state.current
        action = bots[seat].choose(state.view(seat), state.legal_actions())
        game.apply(action)
        stats.decisions += 1
        if state.is_over:
            stats.add(state, state.score())
    winner = game.match.winner
    label = "draw" if winner is None else ("line " if rules.players != 3 else "seat ") + str(winner)
    stats.match_winners[label] += 1
    return game.record()


def _report(args: argparse.Namespace, rules: Rules, stats: Stats, elapsed: float) -> None:
    n = stats.smazzate
    print(f"{rules.name} · {rules.players} players · bots {args.bots} · seed {args.seed}")
    games = args.games
    unit = "matches" if args.matches else "smazzate"
    print(
        f"{games} {unit} ({n} smazzate, {stats.decisions} decisions) in {elapsed:.2f} s:"
        f" {n / elapsed:,.1f} smazzate/s, {stats.decisions / elapsed:,.0f} decisions/s"
    )
    ended = ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in stats.ended.most_common())
    print(f"endings: {ended}")
    per = ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(stats.burrachi.items()))
    print(f"burrachi per smazzata: {sum(stats.burrachi.values()) / n:.2f} ({per or 'none'})")
    print(f"turns per smazzata: mean {statistics.mean(stats.turns):.1f}")
    sides = "seat" if rules.players == 3 else "line"
    means = ", ".join(f"{sides} {i} {statistics.mean(s):.1f}" for i, s in enumerate(stats.scores))
    print(f"mean score per smazzata: {means}")
    if stats.closed_by_seat:
        closers = ", ".join(f"seat {k} {v}" for k, v in sorted(stats.closed_by_seat.items()))
        print(f"closings by seat: {closers}")
    if stats.match_winners:
        wins = ", ".join(f"{k} {v}" for k, v in sorted(stats.match_winners.items()))
        print(f"match winners: {wins}")
