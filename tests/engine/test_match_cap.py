"""Issue 19 ("a table that never ends"): a target-score match lasts at most ``MAX_SMAZZATE``
smazzate (decision D14, docs/rules.md); at the cap the higher total wins, equal totals draw, and
the record replays to the same result."""

from __future__ import annotations

import dataclasses
import random

import pytest

from burraco.bots import GreedyBot, RandomBot
from burraco.bots.base import Bot
from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.match import Match
from burraco.engine.record import read_record, replay, write_record
from burraco.engine.rules import MAX_SMAZZATE, RANGES, Rules
from burraco.engine.scoring import SmazzataScore

ZERO = {
    "joker_value": 0,
    "two_value": 0,
    "ace_value": 0,
    "high_value": 0,
    "low_value": 0,
    "bonus_clean": 0,
    "bonus_dirty": 0,
    "closing_bonus": 0,
    "no_pozzetto_penalty": 0,
}
"""The black-box test's options: no line can ever score a point."""


def _play(rules: Rules, seed: int, kind: type[RandomBot] | type[GreedyBot]) -> Game:
    game = Game(rules, ["North", "South"], rng=random.Random(seed))
    bots: list[Bot] = [kind(seed * 10 + seat) for seat in range(rules.players)]
    while not game.is_over and len(game.hands) <= MAX_SMAZZATE:  # without the cap: no hang
        state = game.state
        game.apply(bots[state.current].choose(state.view(state.current), state.legal_actions()))
    return game


def test_the_cap_is_the_bound_of_smazzate() -> None:
    assert MAX_SMAZZATE == RANGES["smazzate"][1] == 100


@pytest.mark.parametrize("kind", [RandomBot, GreedyBot])
def test_a_target_match_where_no_points_can_be_made_ends_at_the_cap_as_a_draw(
    kind: type[RandomBot] | type[GreedyBot],
) -> None:
    rules = find_rules("italian", target_score=100, **ZERO)
    game = _play(rules, 3, kind)
    assert game.is_over
    assert len(game.match.scores) == MAX_SMAZZATE
    assert game.match.totals == [0, 0]
    assert game.match.capped and not game.match.decided
    assert game.match.winner is None  # equal totals at the cap: a draw
    result = replay(read_record(write_record(game.record())))
    assert result.error is None
    assert list(result.totals) == [0, 0]
    assert len(result.hands) == MAX_SMAZZATE
    assert result.as_json()["winner"] is None


def test_at_the_cap_the_higher_total_wins_and_the_record_agrees() -> None:
    # Only the penalty for no pozzetto scores: totals only fall, the target is never reached.
    rules = find_rules("italian", target_score=100, **{**ZERO, "no_pozzetto_penalty": 100})
    game = _play(rules, 5, RandomBot)
    match = game.match
    assert len(match.scores) == MAX_SMAZZATE and max(match.totals) < 100
    replayed = replay(read_record(write_record(game.record())))
    assert replayed.error is None
    assert list(replayed.totals) == match.totals
    if match.totals[0] != match.totals[1]:
        assert match.winner == match.totals.index(max(match.totals))
    assert replayed.winner == match.winner
    assert replayed.as_json()["winner"] == match.winner


def test_a_hand_after_the_cap_is_illegal_in_a_record() -> None:
    rules = find_rules("italian", target_score=100, **ZERO)
    game = _play(rules, 3, RandomBot)
    record = game.record()
    extra = dataclasses.replace(record, hands=(*record.hands, record.hands[-1]))
    result = replay(read_record(write_record(extra)))
    assert result.error is not None
    assert result.error.hand == MAX_SMAZZATE + 1
    assert "at most 100 smazzate (D14)" in result.error.reason


def test_smazzate_set_with_a_target_caps_the_match_earlier() -> None:
    match = Match(find_rules("italian", target_score=100, smazzate=3, **ZERO))
    assert match.cap == 3
    for _ in range(3):
        assert not match.is_over
        match.add(SmazzataScore("stock", None, (), (0, 0)))
    assert match.is_over and match.winner is None


def test_free_play_with_neither_target_nor_smazzate_has_no_cap() -> None:
    assert Match(find_rules("italian")).cap is None
    assert Match(find_rules("classic")).cap == MAX_SMAZZATE
