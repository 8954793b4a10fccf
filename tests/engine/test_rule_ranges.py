"""Every ruleset parameter has a documented range that ``Rules`` itself checks (issue 19, M4),
so the engine, the records and the server agree on what a ruleset may be.

The property: a ruleset drawn with every integer parameter at an edge of its range (or just
past it) is either refused with a ``RulesError`` naming what is wrong, or plays a whole match of
random legal actions to its record, which writes, reads back equal and replays exactly.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco.engine import Rules, find_rules
from burraco.engine.errors import RulesError
from burraco.engine.game import Game
from burraco.engine.record import read_record, replay, write_record
from burraco.engine.rules import POZZETTO_SIZE_RANGE, RANGES, parameter_names
from tests.depth import examples

DOCS = Path(__file__).parents[2] / "docs" / "rules.md"
INT_FIELDS = {
    f.name: str(f.type)
    for f in dataclasses.fields(Rules)
    if str(f.type) in ("int", "int | None") and f.name != "name"
}


def test_every_integer_parameter_has_a_documented_range() -> None:
    assert set(RANGES) == set(INT_FIELDS)
    text = DOCS.read_text()
    for name in RANGES:
        assert f"`{name}`" in text, name
    assert "## Ranges" in text
    ranges = text.split("## Ranges", 1)[1].split("\n## ", 1)[0]
    for name, (low, high) in RANGES.items():
        assert f"`{name}` | {low} … {high}" in ranges, name


@pytest.mark.parametrize("name", sorted(INT_FIELDS))
def test_values_past_the_range_or_of_the_wrong_type_are_refused(name: str) -> None:
    low, high = RANGES[name]
    for bad in (low - 1, high + 1, 2**63, -(2**63), "7", 7.0, True):
        with pytest.raises(RulesError, match=name):
            find_rules("italian", **{name: bad})
    if INT_FIELDS[name] == "int":
        with pytest.raises(RulesError, match=f"{name} must be an integer, not None"):
            find_rules("italian", **{name: None})


@pytest.mark.parametrize(
    "name", ["pozzetto_sizes", "three_player_pozzetto_sizes", "three_player_late_pozzetto_sizes"]
)
def test_pozzetto_sizes_are_bounded(name: str) -> None:
    low, high = POZZETTO_SIZE_RANGE
    for bad in ((low - 1, 11), (high + 1, 11), (None, 11), [11, 11], None):
        with pytest.raises(RulesError, match=name):
            find_rules("italian", **{name: bad})


def test_bool_parameters_refuse_other_values() -> None:
    for name in parameter_names():
        if isinstance(getattr(Rules(), name), bool):
            for bad in (None, 1, "true"):
                with pytest.raises(RulesError, match=name):
                    find_rules("italian", **{name: bad})


@st.composite
def edge_rules(draw: st.DrawFn) -> dict[str, Any]:
    """Overrides with some integer parameters at an edge of their range."""
    names = draw(st.sets(st.sampled_from(sorted(set(RANGES) - {"players"})), max_size=6))
    overrides: dict[str, Any] = {}
    for name in sorted(names):
        low, high = RANGES[name]
        overrides[name] = draw(st.sampled_from((low, high)))
    return overrides


def _play(rules: Rules, seed: int) -> Game:
    """A whole match of random legal actions, stopped after a bounded number of smazzate."""
    rng = random.Random(seed)
    game = Game(rules, rng=random.Random(seed))
    for _ in range(20_000):
        if game.is_over or len(game.hands) >= 3:
            break
        legal = list(game.state.legal_actions())
        game.apply(rng.choice(legal))
    return game


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["italian", "classic", "reale", "internazionale"]),
    players=st.sampled_from([2, 3, 4]),
    overrides=edge_rules(),
    seed=st.integers(0, 2**32 - 1),
)
def test_rules_at_the_edges_play_to_a_record(
    preset: str, players: int, overrides: dict[str, Any], seed: int
) -> None:
    try:
        rules = find_rules(preset, players=players, **overrides)
    except RulesError as error:
        # Only the deal can refuse values inside their ranges: too many cards for the deck.
        assert "leaves no playable stock" in str(error) or "pozzetti" in str(error), error
        return
    game = _play(rules, seed)
    text = write_record(game.record())
    again = read_record(text)
    assert again == game.record()
    result = replay(again)
    assert result.error is None, result.error
    assert list(result.totals) == list(game.match.totals)
