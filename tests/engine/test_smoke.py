"""A first end-to-end check: seeded random games of every preset finish and score."""

import random

import pytest

from burraco.engine import Smazzata, find_rules, preset_names


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_smazzata_finishes(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    rng = random.Random(f"{preset}{players}")
    state = Smazzata.new(rules, rng=rng, first=1)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    score = state.score()
    assert score.ended in ("closing", "stock", "stall")
    assert sorted(state.all_cards()) == sorted(
        c for c in range(53) for _ in range(2 if c < 52 else rules.jokers)
    )
