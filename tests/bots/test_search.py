"""The search bot: legal play everywhere, determinism, hidden information, the time budget, and
the pieces it is built from (plan variants, the evaluation)."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from types import FrameType

import pytest

from burraco.bots.base import Bot, RandomBot
from burraco.bots.evaluate import FEATURES, evaluate, final_difference, weights_for
from burraco.bots.heuristic import HeuristicBot, play_turn
from burraco.bots.plans.table import Table
from burraco.bots.registry import make_bot
from burraco.bots.search import SearchBot, plan_variants
from burraco.engine import DISCARD, Action, Smazzata, find_rules, preset_names
from burraco.engine.position import build_position
from burraco.engine.state import Phase
from burraco.engine.views import SeatView

from .helpers import choose_at, decision_views, play_checked, twin_states

ITALIAN = find_rules("italian")


def tiny(seed: int) -> SearchBot:
    return SearchBot(seed, iterations=6, depth=1)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", preset_names())
def test_only_legal_moves(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    lineup: list[Bot] = [tiny(1), HeuristicBot(2), tiny(3), RandomBot(4)]
    state, _ = play_checked(rules, lineup[:players], players)
    assert state.is_over
    everyone: list[Bot] = [tiny(10 + s) for s in range(players)]
    state, _ = play_checked(rules, everyone, 20 + players)
    assert state.is_over


def test_spec_options() -> None:
    bot = make_bot("search:iterations=20,depth=2", seed=3)
    assert isinstance(bot, SearchBot)
    assert bot.iterations == 20 and bot.depth == 2
    timed = make_bot("search:seconds=0.5", seed=3)
    assert isinstance(timed, SearchBot) and timed.seconds == 0.5
    with pytest.raises(ValueError):
        make_bot("search:iterations=0")


def test_deterministic_with_iterations() -> None:
    def game() -> list[str]:
        bots: list[Bot] = [SearchBot(7, iterations=12, depth=2), HeuristicBot(1)]
        _, played = play_checked(ITALIAN, bots, 3)
        return [str(a) for a in played]

    assert game() == game()


@pytest.mark.parametrize(("preset", "players"), [("italian", 2), ("italian", 4), ("reale", 3)])
def test_hidden_cards_do_not_matter(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    views = decision_views(rules, [HeuristicBot(s) for s in range(players)], 8, every=5)
    assert len(views) > 5
    for i, view in enumerate(views[:10]):
        one, two = twin_states(view, 50 + i)
        a = choose_at(SearchBot(4, iterations=10, depth=2), one)
        b = choose_at(SearchBot(4, iterations=10, depth=2), two, poison=True)
        assert a == b


class PeekingBot(RandomBot):
    """A cheat: it looks up its callers' frames for the full state and plays by the cards of the
    next seat's hand. The hidden-information tests must catch it."""

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            state = frame.f_locals.get("state")
            if isinstance(state, Smazzata):
                hand = state.hands[(view.seat + 1) % view.players]
                return legal[sum(i * k for i, k in enumerate(hand)) % len(legal)]
            frame = frame.f_back
        return super().choose(view, legal)


def test_a_bot_that_peeks_is_caught() -> None:
    views = decision_views(ITALIAN, [HeuristicBot(0), HeuristicBot(1)], 8, every=5)
    caught = 0
    for i, view in enumerate(views[:10]):
        one, two = twin_states(view, 50 + i)
        # the same view, other hidden cards: the peeking bot changes its mind at times
        caught += choose_at(PeekingBot(1), one) != choose_at(PeekingBot(1), two)
        one, _ = twin_states(view, 50 + i)
        caught += choose_at(PeekingBot(1), one) != choose_at(PeekingBot(1), one.copy(), poison=True)
    assert caught >= 5


def test_time_budget_is_respected() -> None:
    state = Smazzata.new(ITALIAN, rng=random.Random(21))
    heuristic = HeuristicBot(0)
    # play into the middle of the smazzata, then time the decisions that search
    for _ in range(30):
        legal = state.legal_actions()
        state.apply(heuristic.choose(state.view(state.current), legal))
    bot = SearchBot(5, seconds=0.2)
    longest = 0.0
    while bot.searches < 4 and not state.is_over:
        legal = state.legal_actions()
        view = state.view(state.current)
        searches = bot.searches
        start = time.perf_counter()
        action = bot.choose(view, legal)
        elapsed = time.perf_counter() - start
        assert elapsed < 0.3, f"{elapsed:.3f} s"
        if bot.searches > searches:
            longest = max(longest, elapsed)
        state.apply(action)
    assert bot.searches == 4
    assert longest > 0.1  # it does use its time (a search may stop early when one choice wins)


def test_plays_its_plan_without_searching_again() -> None:
    state = build_position(
        ITALIAN,
        hands=["5H 6H 7H 9C 9D 9S KD JK 2C QS 4C", "3C 3D 4D 5D 8S 8D"],
        stock_size=30,
        phase=Phase.PLAY,
        acquired="draw",
    )
    bot = SearchBot(2, iterations=30, depth=2)
    actions = []
    while state.current == 0 and not state.is_over:
        legal = state.legal_actions()
        actions.append(bot.choose(state.view(0), legal))
        assert actions[-1] in legal
        state.apply(actions[-1])
    assert bot.searches == 1
    assert actions[-1].verb == DISCARD


def test_plan_variants_are_distinct_and_start_legally() -> None:
    state = build_position(
        ITALIAN,
        hands=["5H 6H 7H 9C 9D KD JK QS 4C 8C", "3C 3D 4D 5D 8S 8D"],
        melds={0: ["3S 4S 5S 6S 7S 8S"]},
        stock_size=30,
        phase=Phase.PLAY,
        acquired="draw",
    )
    legal = state.legal_actions()
    plans = plan_variants(Table.of_state(state), legal)
    assert len(plans) >= 4
    assert len({p.actions for p in plans}) == len(plans)
    for plan in plans:
        assert plan.actions[0] in legal
        assert plan.actions[-1].verb == DISCARD
        trial = state.copy()
        for action in plan.actions:
            trial.apply(action)  # every plan is legal as a whole
    discards = {p.actions[-1].card for p in plans}
    assert len(discards) >= 3
    # one variant completes the six-card run into a burraco with the joker
    assert any(any(a.verb.word == "attach" and "JK" in str(a) for a in p.actions) for p in plans)


# --------------------------------------------------------------------------------- evaluation


def test_evaluation_is_exact_at_the_end() -> None:
    for players in (2, 4):
        state = Smazzata.new(find_rules("italian", players=players), rng=random.Random(players))
        while not state.is_over:
            play_turn(state)
        result = state.score().result
        assert evaluate(state, 0) == result[0] - result[1]
        assert evaluate(state, 1) == result[1] - result[0]
        assert final_difference(state, 0) == -final_difference(state, 1)


def test_evaluation_is_antisymmetric_and_prefers_melded_points() -> None:
    def position(melds: dict[int, list[str]], hands: list[str]) -> Smazzata:
        return build_position(ITALIAN, hands=hands, melds=melds, stock_size=30)

    even = position({}, ["5H 6H 7H KD", "5C 6C 7C KC"])
    assert evaluate(even, 0) == pytest.approx(-evaluate(even, 1), abs=1e-6)
    melded = position({0: ["5H 6H 7H"]}, ["KD", "5C 6C 7C KC"])
    assert evaluate(melded, 0) > evaluate(even, 0)
    burraco = position({0: ["3H 4H 5H 6H 7H 8H 9H"]}, ["KD", "5C 6C 7C KC"])
    six = position({0: ["3H 4H 5H 6H 7H 8H"]}, ["9D KD", "5C 6C 7C KC"])
    assert evaluate(burraco, 0) > evaluate(six, 0) > evaluate(even, 0)


def test_weights_cover_every_table() -> None:
    for preset in preset_names():
        for players in (2, 3, 4):
            weights = weights_for(find_rules(preset, players=players))
            assert len(weights) == len(FEATURES)
            assert weights[0] == 1.0  # banked points count as they are
