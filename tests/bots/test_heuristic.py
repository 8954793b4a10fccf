"""The heuristic bot: legal play everywhere, determinism, hidden information, its plans."""

from __future__ import annotations

import random

import pytest

from burraco.bots.base import Bot, RandomBot
from burraco.bots.heuristic import HeuristicBot, play_turn
from burraco.bots.plans.pickup import pickup_gain
from burraco.bots.plans.table import Table
from burraco.bots.plans.turn import PlanOptions, plan_turn
from burraco.bots.registry import make_bot
from burraco.engine import DISCARD, OPEN, Action, Smazzata, find_rules, preset_names
from burraco.engine.cards import Card
from burraco.engine.position import build_position
from burraco.engine.state import Phase

from .helpers import choose_at, decision_views, play_checked, twin_states

ITALIAN = find_rules("italian")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", preset_names())
def test_only_legal_moves(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    for seed in range(3):
        lineup: list[Bot] = [
            HeuristicBot(seed),
            RandomBot(seed),
            HeuristicBot(seed + 7),
            RandomBot(seed),
        ]
        state, _ = play_checked(rules, lineup[:players], seed)
        assert state.is_over
        everyone = [HeuristicBot(seed + s) for s in range(players)]
        state, _ = play_checked(rules, everyone, 100 + seed)
        assert state.is_over


def test_registered() -> None:
    assert isinstance(make_bot("heuristic", seed=1), HeuristicBot)


def test_deterministic() -> None:
    rules = find_rules("italian")
    _, first = play_checked(rules, [HeuristicBot(3), RandomBot(4)], 11)
    _, second = play_checked(rules, [HeuristicBot(3), RandomBot(4)], 11)
    assert first == second


@pytest.mark.parametrize(("preset", "players"), [("italian", 2), ("italian", 4), ("reale", 4)])
def test_hidden_cards_do_not_matter(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    views = decision_views(rules, [HeuristicBot(s) for s in range(players)], 5, every=3)
    assert len(views) > 10
    for i, view in enumerate(views):
        one, two = twin_states(view, 1000 + i)
        a = choose_at(HeuristicBot(9), one)
        b = choose_at(HeuristicBot(9), two, poison=True)
        assert a == b


def test_heuristic_rollout_turns_finish_games() -> None:
    for preset in preset_names():
        for players in (2, 3, 4):
            state = Smazzata.new(find_rules(preset, players=players), rng=random.Random(players))
            turns = 0
            while not state.is_over:
                play_turn(state)
                turns += 1
                assert turns < 500
            assert state.phase == Phase.OVER


def test_beats_random_clearly() -> None:
    rules = find_rules("italian")
    margin = 0
    for seed in range(6):
        state, _ = play_checked(rules, [HeuristicBot(seed), RandomBot(seed)], seed)
        result = state.score().result
        margin += result[0] - result[1]
    assert margin > 6 * 200


# ----------------------------------------------------------------------- hand-built positions


def play_position(
    hands: list[str],
    *,
    melds: dict[int, list[str]] | None = None,
    pile: str = "QD",
    taken: dict[int, int] | None = None,
    stock_size: int = 30,
) -> Smazzata:
    return build_position(
        ITALIAN,
        hands=hands,
        melds=melds,
        pile=pile,
        stock_size=stock_size,
        taken=taken,
        phase=Phase.PLAY,
        acquired="draw",
    )


def plan_of(state: Smazzata, options: PlanOptions | None = None) -> list[str]:
    plan = plan_turn(Table.of_state(state), options or PlanOptions())
    assert plan is not None
    return [a.text(seat=False) for a in plan.actions]


def test_opens_natural_melds_and_keeps_wilds() -> None:
    state = play_position(["5H 6H 7H 9C 9D 9S KD JK 2C QS 4C", "3C 3D 4D 5D 8S 8D"])
    plan = plan_of(state)
    assert "open 5H 6H 7H" in plan
    assert "open 9C 9D 9S" in plan
    assert all("JK" not in a and "2C" not in a for a in plan)
    assert plan[-1].startswith("discard")


def test_empties_the_hand_for_the_pozzetto_with_a_wild() -> None:
    state = play_position(["5H 6H 7H 9C 9D JK", "3C 3D 4D 5D 8S 8D"])
    plan = plan_of(state)
    # every card melded: the pozzetto in diretta, so no discard
    assert not plan[-1].startswith("discard")
    assert sum(len(a.split()) - 1 for a in plan) == 6


def test_attaches_to_own_melds() -> None:
    state = play_position(
        ["8H 9H KC KD 4S 7C", "3C 3D 4D 5D 8S 8D"], melds={0: ["5H 6H 7H", "KS KH KH"]}
    )
    plan = plan_of(state)
    assert "attach 1 8H 9H" in plan
    assert "attach 2 KC KD" in plan


def test_never_feeds_the_opponents_melds() -> None:
    # 9S would extend the opponent's run, QC his set; 4D and 10H are dead weight
    state = play_position(
        ["9S QC 4D 10H 2C", "3C 3D 4D 5D 8S 8D"],
        melds={1: ["6S 7S 8S", "QD QH QS"]},
    )
    plan = plan_of(state)
    assert plan[-1] in ("discard 4D", "discard 10H")


def test_closes_when_ahead() -> None:
    state = play_position(
        ["5C 6C 7C KD", "3C 3D 4D 5D 8S 8D 9S"],
        melds={0: ["3H 4H 5H 6H 7H 8H 9H", "QS QH QD"]},
        taken={0: 0},
    )
    plan = plan_turn(Table.of_state(state))
    assert plan is not None and plan.closes
    assert [a.text(seat=False) for a in plan.actions] == ["open 5C 6C 7C", "discard KD"]
    # asked not to close, it keeps two cards
    kept = plan_turn(Table.of_state(state), PlanOptions(close=-1))
    assert kept is not None and not kept.closes and len(kept.left) >= 2


def test_no_closing_without_a_burraco() -> None:
    state = play_position(
        ["5C 6C 7C KD", "3C 3D 4D 5D 8S 8D 9S"], melds={0: ["3H 4H 5H 6H"]}, taken={0: 0}
    )
    plan = plan_turn(Table.of_state(state))
    assert plan is not None and not plan.closes
    assert len(plan.left) >= 2


def test_pickup_when_the_pile_melds() -> None:
    hands = ["5H 6H 9C 9D KS 4C 8D", "3C 3D 4D 5D 8S 8D 9S"]
    useful = build_position(ITALIAN, hands=hands, pile="3S 7H 9S", stock_size=30)
    junk = build_position(ITALIAN, hands=hands, pile="JD", stock_size=30)
    assert pickup_gain(Table.of_state(useful)) > 0
    assert pickup_gain(Table.of_state(junk)) < 0
    bot = HeuristicBot(1)
    assert bot.choose(useful.view(0), useful.legal_actions()).verb.word == "pickup"
    assert bot.choose(junk.view(0), junk.legal_actions()).verb.word == "draw"


def test_bot_plays_its_plan_over_several_calls() -> None:
    state = play_position(["5H 6H 7H 9C 9D 9S KD JK 2C QS 4C", "3C 3D 4D 5D 8S 8D"])
    bot = HeuristicBot(0)
    verbs = []
    while state.current == 0 and not state.is_over:
        legal = state.legal_actions()
        action = bot.choose(state.view(0), legal)
        assert action in legal
        verbs.append(action.verb)
        state.apply(action)
    assert verbs.count(OPEN) == 2 and verbs[-1] == DISCARD


def test_the_single_picked_card_is_not_discarded() -> None:
    state = build_position(
        ITALIAN,
        hands=["KD QC 4S 9H", "3C 3D 4D 5D 8S 8D"],
        pile="",
        stock_size=30,
        phase=Phase.PLAY,
        acquired="pickup",
        lock="KD",
    )
    action = HeuristicBot(0).choose(state.view(0), state.legal_actions())
    assert action != Action(0, DISCARD, (Card.parse("KD"),))
