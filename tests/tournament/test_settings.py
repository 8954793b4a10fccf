"""The settings of an online tournament: defaults, validation naming the field, and the stored
JSON (``TournamentSettings.to_json`` is what the store keeps, key for key)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from burraco.engine.vp import VP2, VP3, VP4
from burraco.tournament import (
    EntrantKind,
    TournamentSettings,
    TournamentSettingsError,
    TournamentSystem,
    pairing_system,
)

STORED_DEFAULTS: dict[str, Any] = {
    "kind": "individual",
    "system": "danish",
    "rounds": None,
    "rules": "italian",
    "options": None,
    "smazzate": 3,
    "round_seconds": None,
    "hand_seconds": None,
    "vp_table": "auto",
    "rematch_policy": "not_previous_round",
    "bracket": "redraw_each_round",
    "absent": "bot",
    "absent_seconds": None,
    "between_smazzate": 4.0,
    "min_players": 4,
    "elimination": None,
}
"""The JSON stored with a tournament of default settings (before this module existed too)."""


def test_the_defaults_are_stored_as_they_always_were() -> None:
    stored = TournamentSettings().to_json()
    assert stored == STORED_DEFAULTS
    assert list(stored) == list(STORED_DEFAULTS)  # the same keys in the same order


def test_the_stored_json_reads_back_to_the_same_settings() -> None:
    settings = TournamentSettings(
        kind="pairs",
        system="mitchell",
        rounds=5,
        options={"jokers": 2},
        smazzate=2,
        round_seconds=900.0,
        vp_table="VP-4",
        absent="forfeit",
        absent_seconds=30.0,
    )
    assert TournamentSettings.from_json(settings.to_json()) == settings
    danish = TournamentSettings(elimination={"1": 7, "2": 14})
    assert TournamentSettings.from_json(danish.to_json()).thresholds() == {1: 7, 2: 14}  # T21


def test_unknown_stored_keys_are_ignored_and_missing_ones_take_the_default() -> None:
    assert TournamentSettings.from_json({"system": "knockout", "later": 1}) == TournamentSettings(
        system="knockout"
    )


def test_the_settings_are_frozen_and_keyword_only() -> None:
    settings = TournamentSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.smazzate = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        TournamentSettings("pairs")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"kind": "teams"}, "kind", "kind is one of individual, pairs, individual_four"),
        ({"system": "swiss"}, "system", "system is one of danish, round_robin, mitchell"),
        (  # T2: the torneo individuale is paired Danish-style
            {"kind": "individual_four", "system": "knockout"},
            "kind",
            "single players at 4-player tables play the Danish system",
        ),
        ({"rounds": 0}, "rounds", "rounds must be between 1 and 20"),
        ({"rounds": 21}, "rounds", "rounds must be between 1 and 20"),
        ({"smazzate": 0}, "smazzate", "smazzate must be between 1 and 20"),
        ({"rematch_policy": "sometimes"}, "rematch_policy", "rematch_policy is allowed"),
        ({"bracket": "seeded"}, "bracket", "bracket is redraw_each_round or fixed_bracket"),
        ({"absent": "wait"}, "absent", "absent is bot or forfeit"),
        ({"absent_seconds": 0.5}, "absent_seconds", "absent_seconds must be between 1 and 600"),
        ({"min_players": 3}, "min_players", "min_players must be between 4 and 256"),
        ({"vp_table": "VP-9"}, "vp_table", "VP-9"),  # T16: a known table
        (  # T21 is a Danish variant
            {"system": "round_robin", "elimination": {"1": 10}},
            "elimination",
            "T21: partial elimination is for the Danish system",
        ),
        (  # T21: after the last round nobody is left to play
            {"elimination": {"3": 10}},
            "elimination",
            "T21: elimination after round 3: rounds 1 to 2",
        ),
        ({"elimination": {"x": 1}}, "elimination", "T21: 'x' is not a round number"),
        (
            {"elimination": {"1": 21}},
            "elimination",
            "T21: after round 1 the threshold is 0 to 20 VP",
        ),
        (
            {"elimination": {"1": True}},
            "elimination",
            "T21: after round 1 the threshold is 0 to 20 VP",
        ),
    ],
)
def test_a_bad_setting_is_refused_naming_its_field(
    fields: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(TournamentSettingsError, match=message) as refused:
        TournamentSettings(**fields)
    assert refused.value.field == field


def test_the_vp_table_follows_the_smazzate_unless_named() -> None:
    """T16: ``auto`` is VP-2/3/4 by smazzate per round, VP-3 otherwise; a named table wins."""
    assert TournamentSettings(smazzate=2).table() == VP2
    assert TournamentSettings(smazzate=3).table() == VP3
    assert TournamentSettings(smazzate=4).table() == VP4
    assert TournamentSettings(smazzate=6).table() == VP3
    assert TournamentSettings(smazzate=2, vp_table="VP-4").table() == VP4


def test_the_typed_views_of_the_settings() -> None:
    settings = TournamentSettings(kind="pairs", system="round_robin")
    assert settings.entrant_kind is EntrantKind.PAIRS and settings.seats == 4
    assert settings.pairing_system is TournamentSystem.ROUND_ROBIN
    assert pairing_system(settings).name is TournamentSystem.ROUND_ROBIN
    assert TournamentSettings().danish_rounds == 3  # T18: three rounds unless said
    assert TournamentSettings(kind="individual_four").min_entrants_to_pair == 4
