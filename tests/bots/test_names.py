"""Bot names a person reads, and the order of the levels (issue 15, defect 7)."""

from __future__ import annotations

from burraco.bots import BOT_LEVELS, display_name, levels_by_strength


def test_levels_are_listed_weakest_first() -> None:
    assert levels_by_strength()[:4] == ["random", "greedy", "heuristic", "search"]
    assert set(levels_by_strength()) == set(BOT_LEVELS)


def test_display_names_are_human_and_never_the_level_id() -> None:
    assert display_name("random") == "Bot Beginner"
    assert display_name("greedy", 3) == "Bot Easy 3"
    assert display_name("heuristic") == "Bot Expert"
    assert display_name("search:seconds=0.5") == "Bot Champion"
    assert display_name("cmd:python my_bot.py") == "Bot"
    for level in BOT_LEVELS:
        assert level not in display_name(level)
