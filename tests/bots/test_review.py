"""Review by the bot (issue 18): built positions where a clearly bad choice is marked and a
clearly good one is not, the review reading only the seat's view, the decisions of a record and
the JSON."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.bots import review as review_module
from burraco.bots.heuristic import HeuristicBot
from burraco.bots.review import (
    DEFAULT_SECONDS,
    DEFAULT_THRESHOLDS,
    FORMAT,
    REFERENCE_RATE,
    Decision,
    Review,
    ReviewError,
    SmazzataReview,
    Thresholds,
    decision_points,
    review_decision,
    review_record,
    review_text,
    seat_of,
)
from burraco.engine import Action, Rules, Smazzata, find_rules
from burraco.engine.game import Game
from burraco.engine.position import build_position
from burraco.engine.record import HandRecord, Record, replay, write_record
from burraco.engine.rules import PRESETS
from burraco.engine.state import Phase
from burraco.engine.views import SeatView
from tests.depth import examples

from .helpers import twin_states

ITALIAN = find_rules("italian", players=2)
BUDGET = round(DEFAULT_SECONDS * REFERENCE_RATE)
NAMES = ("Anna", "Bruno", "Carla", "Dario")


def verdict_of(state: Smazzata, played: str, seed: int = 0) -> tuple[str, float, list[str]]:
    """The verdict, the cost and the best choice of the review for ``played`` (seat 0)."""
    estimate = review_decision(
        state.view(0), [Action.parse(played)], budget=BUDGET, rng=random.Random(seed)
    )
    verdict = DEFAULT_THRESHOLDS.verdict(estimate.cost, estimate.low)
    return verdict, estimate.cost, [str(a) for a in estimate.best]


# ------------------------------------------------------------------------------ built positions


def feeding() -> Smazzata:
    """The opponents' clean run of six spades: a 4S discarded completes their burraco (R32)."""
    return build_position(
        ITALIAN,
        hands=["4S KC 10D JD 5H", "QD 3C 8H 9D AC"],
        melds={1: ["5S 6S 7S 8S 9S 10S"], 0: ["9C 10C JC"]},
        stock_size=16,
        phase=Phase.PLAY,
        acquired="draw",
    )


def wild_discard() -> Smazzata:
    """A joker in hand that would complete the own burraco, and the opponents' six spades."""
    return build_position(
        ITALIAN,
        hands=["JK 9D KH QS", "4C 8D 10H JC QC"],
        melds={0: ["3H 4H 5H 6H 7H 8H"], 1: ["5S 6S 7S 8S 9S 10S"]},
        stock_size=20,
        phase=Phase.PLAY,
        acquired="draw",
    )


def stranding() -> Smazzata:
    """A pile of unrelated high cards while the opponents (pozzetto taken, a burraco, one card
    in hand) may close at any turn: picking it up leaves the cards to be counted (R60)."""
    return build_position(
        ITALIAN,
        hands=["5D 9C", "KD"],
        melds={1: ["3H 4H 5H 6H 7H 8H 9H"], 0: ["3C 4C 5C"]},
        taken={1: 1},
        pile="KC QD JH 10S AH 9D 8S",
        stock_size=10,
    )


BAD_AND_GOOD = [
    pytest.param(feeding, "0 discard 4S", "0 discard KC", id="feeding-a-burraco"),
    pytest.param(wild_discard, "0 discard JK", "0 discard 9D", id="discarding-a-wild"),
    pytest.param(stranding, "0 pickup", "0 draw", id="stranding-pickup"),
]


@pytest.mark.parametrize(("position", "bad", "good"), BAD_AND_GOOD)
def test_a_clearly_bad_choice_is_marked(
    position: Callable[[], Smazzata], bad: str, good: str
) -> None:
    verdict, cost, best = verdict_of(position(), bad)
    assert verdict in ("mistake", "blunder"), (verdict, cost, best)
    assert best != [bad]


@pytest.mark.parametrize(("position", "bad", "good"), BAD_AND_GOOD)
def test_a_clearly_good_choice_is_not(
    position: Callable[[], Smazzata], bad: str, good: str
) -> None:
    verdict, cost, _ = verdict_of(position(), good)
    assert verdict == "ok", cost


def test_the_bots_own_choice_costs_nothing() -> None:
    # a single candidate (the played plan is the only one): no playout at all
    state = build_position(
        ITALIAN, hands=["5H 6H 7H KD", "5C"], stock_size=20, phase=Phase.PLAY, acquired="draw"
    )
    view = state.view(0)
    plans = review_module.candidates_of(view)
    estimate = review_decision(view, plans[0], budget=BUDGET, rng=random.Random(1))
    assert estimate.cost == estimate.low == 0.0
    assert estimate.best == plans[0]


def test_the_review_sees_only_the_seats_view() -> None:
    # two full states the seat cannot tell apart give the same estimate for the same seed
    one, two = twin_states(feeding().view(0), seed=3)
    played = [Action.parse("0 discard 4S")]
    first = review_decision(one.view(0), played, budget=2000, rng=random.Random(7))
    second = review_decision(two.view(0), played, budget=2000, rng=random.Random(7))
    assert first == second


# ------------------------------------------------------------------------------ records


def played_record(rules: Rules, seed: int, actions: int | None = None) -> Record:
    """One smazzata between heuristic bots (its first ``actions`` actions only if given)."""
    names = NAMES[: rules.players]
    game = Game(rules, names, rng=random.Random(seed), first=0)
    bots = [HeuristicBot(seed + s) for s in range(rules.players)]
    played: list[Action] = []
    while not game.hands and (actions is None or len(played) < actions):
        state = game.state
        action = bots[state.current].choose(state.view(state.current), state.legal_actions())
        game.apply(action)
        played.append(action)
    record = game.record()
    return Record(
        rules=record.rules,
        players=record.players,
        hands=record.hands[:1],
        options=record.options,
        meta=record.meta,
    )


def test_decisions_follow_the_record() -> None:
    # every turn of the seat gives an acquire (unless forced) and one play decision (a pozzetto
    # in diretta starts another); played texts are the record's actions from action_index
    record = played_record(ITALIAN, seed=4)
    actions = [str(a) for a in record.hands[0].actions]
    points = decision_points(record, 1)
    assert points, "the seat decided something"
    for point in points:
        assert point.view.seat == 1
        assert isinstance(point.view, SeatView)
        texts = [str(a) for a in point.played]
        assert actions[point.action_index : point.action_index + len(texts)] == texts
        assert all(a.seat == 1 for a in point.played)
    turns = [p.turn for p in points]
    assert turns == sorted(turns)
    assert {p.turn % 2 for p in points} == {0}  # seat 1 plays the even turns, seat 0 first


def test_a_pozzetto_in_diretta_starts_a_new_decision() -> None:
    # the seat cannot know the pozzetto's cards (R46): what it plays after taking them is a
    # second play decision of the same turn
    state = build_position(
        ITALIAN,
        hands=["5H 6H 7H", "5C 6C 7C KD"],
        stock_size=30,
        phase=Phase.PLAY,
        acquired="draw",
    )
    opening = Action.parse("0 open 5H 6H 7H")
    after = state.copy()
    after.apply(opening)
    assert after.current == 0 and after.sizes[0] == ITALIAN.pozzetto_sizes[0]
    discard = next(a for a in after.legal_actions() if a.verb.word == "discard")
    points = review_module._hand_points(1, state, [opening, discard], 0)
    assert [(p.phase, p.action_index, p.played) for p in points] == [
        ("play", 0, (opening,)),
        ("play", 1, (discard,)),
    ]
    assert points[0].turn == points[1].turn
    assert sum(points[1].view.hand) == ITALIAN.pozzetto_sizes[0]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_ruleset_and_table(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    record = played_record(rules, seed=players, actions=12 * players)
    seen: list[tuple[int, int]] = []
    review = review_record(
        record, seat=1, seconds=0.02, seed=5, progress=lambda d, t: seen.append((d, t))
    )
    decisions = review.smazzate[0].decisions
    assert decisions
    assert seen == [(i, len(decisions)) for i in range(1, len(decisions) + 1)]
    assert review.player == NAMES[1]
    assert all(d.played[0].startswith("1 ") for d in decisions)
    assert Review.from_json(json.loads(json.dumps(review.to_json()))) == review


def test_deterministic_for_a_seed() -> None:
    record = played_record(ITALIAN, seed=2, actions=30)
    one = review_record(record, seat=0, seconds=0.05, seed=9)
    two = review_record(record, seat=0, seconds=0.05, seed=9)
    assert one == two
    assert review_text(write_record(record), seat=0, seconds=0.05, seed=9) == one.to_json()


def test_review_text_runs_in_a_worker_process() -> None:
    # as the server calls it: a plain function of the record's text, in a process pool
    text = write_record(played_record(ITALIAN, seed=3, actions=10))
    with ProcessPoolExecutor(max_workers=1) as pool:
        remote = pool.submit(review_text, text, seat=1, seconds=0.02, seed=4).result()
        failed = pool.submit(review_text, text, seat=5)
        with pytest.raises(ReviewError, match="no seat 5"):
            failed.result()
    assert remote == review_text(text, seat=1, seconds=0.02, seed=4)


def test_the_review_gets_only_views(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = review_module.review_decision

    def spy(view: Any, played: Any, **kwargs: Any) -> Any:
        calls.append(view)
        return real(view, played, **kwargs)

    monkeypatch.setattr(review_module, "review_decision", spy)
    review_record(played_record(ITALIAN, seed=6, actions=20), seat=1, seconds=0.01)
    assert calls
    assert all(type(view) is SeatView and view.seat == 1 for view in calls)


def test_hidden_cards_do_not_change_the_review() -> None:
    # two records alike but for two stock cards nobody drew: the same review for the same seed
    record = played_record(ITALIAN, seed=8, actions=24)
    states = replay(record, keep_states=True).states
    deal, left = states[0].deal, states[0].stock_size
    stock = list(deal.stock)
    other = next(i for i in range(len(stock) - left, len(stock)) if stock[i] != stock[-1])
    stock[other], stock[-1] = stock[-1], stock[other]
    hand = HandRecord(
        first=record.hands[0].first,
        actions=record.hands[0].actions,
        deal=dataclasses.replace(deal, stock=tuple(stock), deck=None),
    )
    twin = dataclasses.replace(record, hands=(hand,))
    assert replay(twin).error is None
    one = review_record(record, seat=0, seconds=0.03, seed=2)
    two = review_record(twin, seat=0, seconds=0.03, seed=2)
    assert one == two
    assert one.smazzate[0].decisions


def test_seats_by_number_or_name() -> None:
    record = played_record(ITALIAN, seed=1, actions=4)
    assert seat_of(record, 1) == 1
    assert seat_of(record, "1") == 1
    assert seat_of(record, "Bruno") == 1
    assert seat_of(record, "anna") == 0
    with pytest.raises(ReviewError, match="no seat 2"):
        seat_of(record, 2)
    with pytest.raises(ReviewError, match="no player 'Zed'"):
        seat_of(record, "Zed")


def test_an_illegal_record_is_refused() -> None:
    record = played_record(ITALIAN, seed=1, actions=4)
    hand = record.hands[0]
    bad = HandRecord(
        first=hand.first, actions=(*hand.actions, Action.parse("1 discard JK")), deck=hand.deck
    )
    broken = Record(rules=record.rules, players=record.players, hands=(bad,))
    with pytest.raises(ReviewError) as caught:
        review_record(broken, seat=0, seconds=0.01)
    assert caught.value.code == 1
    back = pickle.loads(pickle.dumps(caught.value))  # from a worker process, whole
    assert (type(back), str(back), back.code) == (ReviewError, str(caught.value), 1)
    with pytest.raises(ReviewError, match="malformed"):
        review_text("format = 1", seat=0)
    with pytest.raises(ValueError, match="positive"):
        review_record(record, seat=0, seconds=0)


# ------------------------------------------------------------------------------ verdicts, JSON


def test_verdicts_follow_the_thresholds() -> None:
    t = Thresholds(inaccuracy=30, mistake=60, blunder=150)
    assert t.verdict(29.9, 10) == "ok"
    assert t.verdict(30, 10) == "inaccuracy"
    assert t.verdict(60, 10) == "mistake"
    assert t.verdict(150, 10) == "blunder"
    assert t.verdict(500, 0) == "ok"  # the interval reaches 0: no clear loss
    with pytest.raises(ValueError, match="thresholds"):
        Thresholds(inaccuracy=70, mistake=60)


def test_json_matches_the_contract() -> None:
    decision = Decision(
        turn=12,
        phase="acquire",
        action_index=37,
        played=("0 draw",),
        best=("0 pickup",),
        cost=90.0,
        low=60.0,
        high=120.0,
        playouts=240,
        verdict="mistake",
    )
    review = Review(
        seat=0,
        player="Anna",
        rules="italian",
        seconds=1.0,
        smazzate=(SmazzataReview(number=1, decisions=(decision,)),),
    )
    assert review.to_json() == {
        "format": FORMAT,
        "seat": 0,
        "player": "Anna",
        "rules": "italian",
        "seconds": 1.0,
        "thresholds": {"inaccuracy": 30, "mistake": 60, "blunder": 150},
        "mp_lost": 90,
        "smazzate": [
            {
                "number": 1,
                "mp_lost": 90,
                "decisions": [
                    {
                        "turn": 12,
                        "phase": "acquire",
                        "action_index": 37,
                        "played": ["0 draw"],
                        "best": ["0 pickup"],
                        "cost": 90.0,
                        "low": 60.0,
                        "high": 120.0,
                        "playouts": 240,
                        "verdict": "mistake",
                    }
                ],
            }
        ],
    }
    with pytest.raises(ValueError, match="format"):
        Review.from_json({**review.to_json(), "format": "other"})


actions_text = st.lists(
    st.sampled_from(["0 draw", "0 pickup", "0 discard QC", "0 open 5H 6H 7H", "0 attach 2 8H"]),
    min_size=1,
    max_size=4,
).map(tuple)


@st.composite
def decisions(draw: st.DrawFn) -> Decision:
    low = draw(st.floats(0, 500, allow_nan=False).map(lambda x: round(x, 1)))
    cost = low + draw(st.floats(0, 200).map(lambda x: round(x, 1)))
    high = cost + draw(st.floats(0, 200).map(lambda x: round(x, 1)))
    return Decision(
        turn=draw(st.integers(1, 200)),
        phase=draw(st.sampled_from(["acquire", "play"])),
        action_index=draw(st.integers(0, 1000)),
        played=draw(actions_text),
        best=draw(actions_text),
        cost=cost,
        low=low,
        high=high,
        playouts=draw(st.integers(0, 10**6)),
        verdict=DEFAULT_THRESHOLDS.verdict(cost, low),
    )


reviews = st.builds(
    Review,
    seat=st.integers(0, 3),
    player=st.text(min_size=1, max_size=12),
    rules=st.sampled_from(list(PRESETS)),
    seconds=st.floats(0.01, 10),
    smazzate=st.lists(
        st.builds(
            SmazzataReview,
            number=st.integers(1, 20),
            decisions=st.lists(decisions(), max_size=5).map(tuple),
        ),
        max_size=4,
    ).map(tuple),
)


@settings(max_examples=examples(60), deadline=None)
@given(reviews)
def test_json_round_trip(review: Review) -> None:
    data = json.loads(json.dumps(review.to_json()))
    assert Review.from_json(data) == review
    assert data["mp_lost"] == sum(s["mp_lost"] for s in data["smazzate"])
    for sm in data["smazzate"]:
        costs = [d["cost"] for d in sm["decisions"] if d["verdict"] != "ok"]
        assert sm["mp_lost"] == round(sum(costs))
