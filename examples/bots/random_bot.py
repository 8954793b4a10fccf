#!/usr/bin/env python3
"""An example outside bot for the Burraco platform (protocol: docs/bot-protocol.md).

Standard library only. It reads one JSON message per line on stdin and answers on stdout:

* ``hello``  -> ``{"id": ..., "name": "example-random", "ready": true}``
* ``decide`` -> ``{"id": ..., "action": "<one of the legal action strings>"}``
* ``result`` -> nothing (the score sheet of the smazzata just played)
* ``bye``    -> nothing; the program exits

It plays a little better than uniformly at random: it draws from the stock more often than it
picks up the pile, it makes the largest meld it can, and it discards at random. Logs go to stderr.

    burraco arena --bot "cmd:python examples/bots/random_bot.py" --bot random
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

NAME = "example-random"


def log(text: str) -> None:
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(legal: list[str], rng: random.Random) -> str:
    """Pick one of the legal action strings ("0 draw", "0 open 5H 6H 7H", "0 discard KC"...)."""
    verbs = [text.split()[1] for text in legal]
    if "draw" in verbs:  # start of the turn: draw or pick up the discard pile
        if "pickup" in verbs and rng.random() < 0.2:
            return legal[verbs.index("pickup")]
        return legal[verbs.index("draw")]
    melds = [text for text, verb in zip(legal, verbs, strict=True) if verb in ("open", "attach")]
    if melds:
        most = max(len(text.split()) for text in melds)
        return rng.choice([text for text in melds if len(text.split()) == most])
    return rng.choice(legal)


def main() -> int:
    rng = random.Random()
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng = random.Random(message.get("seed"))
            log(
                f"seat {message['seat']} of {message['players']}, {message['rules']['name']},"
                f" seed {message.get('seed')}"
            )
            send({"id": message["id"], "name": NAME, "ready": True})
        elif kind == "decide":
            send({"id": message["id"], "action": choose(message["legal"], rng)})
        elif kind == "result":
            log(f"smazzata over ({message['ended']}): {message['result']}")
        elif kind == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
