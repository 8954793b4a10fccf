"""The replay endpoint's computation (server/replay.py): the public views of a finished match,
step by step, from its record, as the replay viewer shows them."""

from __future__ import annotations

import random

from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.record import replay, write_record
from burraco.server.replay import replay_json


def test_replay_views_follow_the_record_step_by_step() -> None:
    rng = random.Random(5)
    rules = find_rules("italian", players=2, smazzate=2)
    game = Game(rules, ("Anna", "bot greedy"), rng=rng)
    while not game.is_over:
        game.apply(rng.choice(game.state.legal_actions()))
    text = write_record(game.record())
    data = replay_json(text)
    expected = replay(game.record())
    assert data["players"] == ["Anna", "bot greedy"]
    assert data["totals"] == list(expected.totals)
    assert len(data["hands"]) == 2
    for hand, recorded in zip(data["hands"], game.record().hands, strict=True):
        steps = hand["steps"]
        assert len(steps) == len(recorded.actions) + 1
        assert steps[0]["action"] is None
        assert [s["action"] for s in steps[1:]] == [str(a) for a in recorded.actions]
        for step in steps:
            view = step["view"]
            assert view["seat"] == -1 and view["hand"] == []  # public view only
            assert [len(h) for h in step["hands"]] == view["hand_sizes"]
        assert steps[-1]["view"]["phase"] == "over"
        assert hand["score"]["result"] == list(recorded.result or ())
