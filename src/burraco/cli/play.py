"""``burraco play``: a match between bots, shown live in the terminal.

Each turn is one line (what the player took, melded and discarded); each smazzata ends with the
table and its score sheet; the match ends with the totals, the winner and, for a fixed number of
smazzate between two lines, the Match Points and Victory Points.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from burraco.engine import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action
from burraco.engine.events import Event, LineFormed, PickedUp, PozzettoTaken
from burraco.engine.game import Game
from burraco.engine.record import write_record
from burraco.engine.state import Smazzata
from burraco.engine.vp import vp_table

from .common import bots_from_args, rules_from_args
from .sheet import smazzata_sheet, totals_sheet

NAMES = ("Anna", "Bruno", "Carla", "Dario")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if rules.target_score is None and rules.smazzate is None:
        rules = rules.replace(smazzate=3)  # a tournament round by default (R63)
    rng = random.Random(args.seed)
    bots = bots_from_args(args, rules.players, args.seed)
    names = [f"{NAMES[i]} ({bot.name})" for i, bot in enumerate(bots)]
    delay = args.delay if args.delay is not None else (0.02 if sys.stdout.isatty() else 0.0)
    game = Game(rules, names, rng=rng, meta={"event": "burraco play", "seed": args.seed})
    if args.record:
        write_record(game.record())  # a ruleset the record cannot hold fails now, not at the end
    goal = (
        f"to {rules.target_score} points"
        if rules.target_score is not None
        else f"{rules.smazzate} smazzate"
    )
    print(f"Burraco · {rules.name} · {rules.players} players · {goal}")
    print("Seats: " + ", ".join(f"{i} {n}" for i, n in enumerate(names)))
    number = 1
    while not game.is_over:
        state = game.state
        if not args.quiet:
            print(f"\n── Smazzata {number} · {names[state.first]} plays first ──")
        turn: list[str] = []
        while not state.is_over:
            seat = state.current
            action = bots[seat].choose(state.view(seat), state.legal_actions())
            events = game.apply(action)
            turn.append(_describe(action, events))
            if action.verb == DISCARD or state.is_over:
                if not args.quiet:
                    print(f"  {names[seat]:<20} " + " · ".join(turn), flush=True)
                    if delay:
                        time.sleep(delay)
                turn = []
        score = state.score()
        if not args.quiet:
            _print_table(state, names)
        print()
        print(smazzata_sheet(number, score, score.ended, names))
        print()
        print(totals_sheet(game.match.totals, names, winner=None, decided=False))
        number += 1
    print()
    print("═" * 60)
    print(totals_sheet(game.match.totals, names, winner=game.match.winner, decided=True))
    if rules.players != 3 and rules.smazzate in (2, 3, 4) and rules.target_score is None:
        rs = game.match.round_score(vp_table("auto", smazzate=rules.smazzate))
        print(
            f"Match Points: {rs.mp[0]:+d} / {rs.mp[1]:+d}   Victory Points: {rs.vp[0]} - {rs.vp[1]}"
        )
    if args.record:
        text = write_record(game.record())
        with open(args.record, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"Record written to {args.record} (replay it with: burraco replay {args.record})")
    return 0


def _describe(action: Action, events: Sequence[Event]) -> str:
    if action.verb == DRAW:
        text = "draws"
    elif action.verb == PICKUP:
        picked = events[0]
        assert isinstance(picked, PickedUp)
        text = f"picks up {len(picked.cards)} card(s)"
    elif action.verb == OPEN:
        text = "opens " + " ".join(str(c) for c in action.cards)
    elif action.verb == ATTACH:
        text = f"attaches {' '.join(str(c) for c in action.cards)} to meld {action.meld}"
    else:
        text = f"discards {action.card}"
    for event in events:
        if isinstance(event, PozzettoTaken):
            text += " → pozzetto " + ("in diretta" if event.direct else "con scarto")
        elif isinstance(event, LineFormed):
            text += " → the other two now play as a pair"
    return text


def _print_table(state: Smazzata, names: list[str]) -> None:
    print("  Table:")
    for seats in state.lines():
        line = state.line_of[seats[0]]
        who = " & ".join(names[s] for s in seats)
        melds = state.melds[line]
        shown = "   ".join(f"[{m.notation()}]" for m in melds) or "(no melds)"
        print(f"    {who}: {shown}")
