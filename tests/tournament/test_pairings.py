"""Pairing systems: Danish (T18-T20), round robin, Mitchell (T22), knockout (T23-T25) and
individuals at 4-player tables (T2)."""

from __future__ import annotations

import itertools
import random

import pytest

from burraco.tournament import (
    BracketMode,
    EntrantId,
    History,
    Knockout,
    Mitchell,
    Pairing,
    RematchPolicy,
    bracket_size,
    choose_byes,
    danish_round,
    first_round,
    individual_round,
    partial_elimination,
    round_robin,
    round_robin_round,
    seat_fours,
)
from burraco.tournament.standings import Standings, Total

from .helpers import fours, ids, one_v_one


def pairs_of(pairing: Pairing) -> list[str]:
    return ["-".join(t.entrants) for t in pairing.tables]


# ---------------------------------------------------------------------------------- Danish


def test_T21_danish_with_partial_elimination() -> None:
    # RULES.md T21's example: a 3-round event eliminating below 7 VP after round 1 and below
    # 14 after round 2. Eight entrants after round 1 (VP of VP-3: 20-0, 17-3, 10-10, 13-7).
    after_one = Standings.from_totals(
        Total(EntrantId(e), vp=vp, mp=mp, played=1)
        for e, vp, mp in [
            ("A", 20, 900), ("B", 0, -900), ("C", 17, 400), ("D", 3, -400),
            ("E", 10, 0), ("F", 10, 0), ("G", 13, 150), ("H", 7, -150),
        ]
    )  # fmt: skip
    thresholds = {1: 7, 2: 14}
    out = partial_elimination(after_one, after_round=1, thresholds=thresholds)
    assert sorted(out) == ["B", "D"]  # below 7; H with exactly 7 stays in
    # The next round pairs the others, in standings order (E and F tied: drawn).
    survivors = [e for e in after_one.pairing_order(random.Random(1)) if e not in out]
    second = danish_round(survivors, History(), round=2)
    assert {frozenset(t.entrants) for t in second.tables} == {
        frozenset(p) for p in (("A", "C"), ("G", survivors[3]), (survivors[4], "H"))
    }
    assert not second.byes
    # A round without a threshold eliminates nobody; thresholds are checked.
    assert partial_elimination(after_one, after_round=3, thresholds=thresholds) == ()
    with pytest.raises(ValueError, match="T21"):
        partial_elimination(after_one, after_round=0, thresholds=thresholds)
    with pytest.raises(ValueError, match="T21"):
        partial_elimination(after_one, after_round=1, thresholds={0: 7})


def test_T18_round_one_in_registration_order_or_at_random() -> None:
    players = ids("A B C D E F")
    assert pairs_of(first_round(players, None)) == ["A-B", "C-D", "E-F"]
    drawn = {tuple(pairs_of(first_round(players, random.Random(s)))) for s in range(10)}
    assert len(drawn) > 1
    assert first_round(players, random.Random(1)) == first_round(players, random.Random(1))


def test_T20_round_one_bye_goes_to_the_last_of_the_order() -> None:
    pairing = first_round(ids("A B C D E"), None)
    assert pairs_of(pairing) == ["A-B", "C-D"] and pairing.byes == ids("E")


def test_T19_never_policy_avoids_every_earlier_opponent() -> None:
    order = ids("A B C D E F")
    history = History.of(
        [
            one_v_one(1, [("A", "B"), ("C", "D"), ("E", "F")]),
            one_v_one(2, [("A", "C"), ("B", "E"), ("D", "F")]),
        ]
    )
    got = danish_round(order, history, round=3, last_round=True, policy=RematchPolicy.NEVER)
    assert pairs_of(got) == ["A-D", "B-F", "C-E"]
    assert not got.relaxed
    # modified Danish only forbids the previous round: A-B is allowed again
    mod = danish_round(order, history, round=3, policy=RematchPolicy.NOT_PREVIOUS_ROUND)
    assert pairs_of(mod) == ["A-B", "C-D", "E-F"]


def test_T19_relaxes_to_allowed_when_no_complete_pairing_exists() -> None:
    order = ids("A B C D")
    history = History.of(round_robin(order))  # everyone has met everyone
    got = danish_round(order, history, round=4, policy=RematchPolicy.NEVER)
    assert got.relaxed
    assert pairs_of(got) == ["A-B", "C-D"]
    two = ids("A B")
    again = danish_round(two, History.of([one_v_one(1, [("A", "B")])]), round=2)
    assert again.relaxed and pairs_of(again) == ["A-B"]


def test_T20_byes_go_to_the_lowest_ranked_without_one_then_the_fewest() -> None:
    order = ids("A B C D E")
    assert choose_byes(order, {}) == ids("E")
    assert choose_byes(order, {EntrantId("E"): 1, EntrantId("D"): 1}) == ids("C")
    everyone = dict.fromkeys(order, 1)
    assert choose_byes(order, everyone) == ids("E")
    assert choose_byes(order, {**everyone, EntrantId("E"): 2}) == ids("D")
    assert choose_byes(order, {}, count=3) == ids("E D C")


# ---------------------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
def test_round_robin_meets_everyone_once(n: int) -> None:
    players = tuple(EntrantId(f"E{i}") for i in range(n))
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = [frozenset(p) for r in rounds for p in r.opponent_pairs()]
    assert sorted(map(sorted, met)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(players, 2)))
    )
    for r in rounds:
        assert sorted(r.entrants) == sorted(players)
    byes = [b for r in rounds for b in r.byes]
    assert sorted(byes) == (sorted(players) if n % 2 else [])
    with pytest.raises(ValueError, match="rounds 1 to"):
        round_robin_round(players, len(rounds) + 1)


# ------------------------------------------------------------------------------- Mitchell


def test_T22_mitchell_ns_stay_and_ew_move_one_table_up() -> None:
    m = Mitchell.seat(ids("N1 E1 N2 E2 N3 E3"))
    assert m.ns == ids("N1 N2 N3") and m.ew == ids("E1 E2 E3")
    assert pairs_of(m.round(1)) == ["N1-E1", "N2-E2", "N3-E3"]
    assert pairs_of(m.round(2)) == ["N1-E3", "N2-E1", "N3-E2"]
    assert pairs_of(m.round(3)) == ["N1-E2", "N2-E3", "N3-E1"]
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        m.round(4)


def test_T22_mitchell_with_an_odd_number_of_lines() -> None:
    m = Mitchell.seat(ids("A B C D E"))
    assert m.ew == (EntrantId("B"), EntrantId("D"), None)
    byes = [m.round(r).byes for r in (1, 2, 3)]
    assert byes == [ids("E"), ids("A"), ids("C")]
    # a table keeps its physical number even when its neighbour sits out
    assert [t.number for t in m.round(2).tables] == [2, 3]


# ------------------------------------------------------------------------------- knockout


@pytest.mark.parametrize(("n", "size"), [(2, 2), (3, 4), (8, 8), (9, 16), (31, 32), (33, 64)])
def test_T24_bracket_is_the_next_power_of_two(n: int, size: int) -> None:
    assert bracket_size(n) == size


def present(slots: tuple[EntrantId | None, ...]) -> list[EntrantId]:
    return [e for e in slots if e is not None]


def play_out(ko: Knockout, rng: random.Random) -> Knockout:
    while ko.current is not None:
        winners = [t.lines[rng.randrange(2)][0] for t in ko.current.pairing().tables]
        ko = ko.advance(winners, rng)
    return ko


def test_T25_final_ranking_by_round_of_elimination() -> None:
    players = tuple(EntrantId(f"E{i:02}") for i in range(13))
    rng = random.Random(25)
    ko = play_out(Knockout.draw(players, rng), rng)
    ranking = ko.ranking()
    assert [place for place, _ in ranking] == [1, 2, 3, 5, 9]
    assert [len(group) for _, group in ranking] == [1, 1, 2, 4, 5]  # 3 byes in round 1
    assert sorted(e for _, g in ranking for e in g) == sorted(players)
    assert ranking[0][1] == (ko.champion,)


def test_T24_fixed_bracket_keeps_the_draw() -> None:
    players = ids("A B C D E F G H")
    ko = Knockout.draw(players, random.Random(1), BracketMode.FIXED_BRACKET)
    winners = present(ko.rounds[0].slots[0::2])  # the NS entrant of each match wins
    ko = ko.advance(winners)
    assert ko.rounds[1].slots == tuple(winners)  # match 1 v match 2, match 3 v match 4
    ko = ko.advance([winners[0], winners[3]])
    assert ko.rounds[2].slots == (winners[0], winners[3])
    ko = ko.advance([winners[3]])
    assert ko.champion == winners[3] and ko.current is None
    with pytest.raises(ValueError, match="over"):
        ko.advance([])


def test_T24_knockout_refuses_wrong_winners() -> None:
    ko = Knockout.draw(ids("A B C D"), random.Random(2))
    both = present(ko.rounds[0].slots[:2])
    with pytest.raises(ValueError, match="exactly one winner"):
        ko.advance(both, random.Random(1))
    with pytest.raises(ValueError, match="did not play"):
        ko.advance([*present(ko.rounds[0].slots[0::2]), EntrantId("Z")], random.Random(1))
    with pytest.raises(ValueError, match="needs a random"):
        ko.advance(present(ko.rounds[0].slots[0::2]))


# ------------------------------------------------------------- individuals, 4-player tables


def test_T2_individual_danish_seats_consecutive_players_with_new_partners() -> None:
    order = ids("A B C D E F G H")
    first = individual_round(order, History(), round=1)
    assert [t.lines for t in first.tables] == [
        (ids("A D"), ids("B C")),  # 1st + 4th v 2nd + 3rd
        (ids("E H"), ids("F G")),
    ]
    second = individual_round(order, History.of([first]), round=2)
    assert [t.lines for t in second.tables] == [
        (ids("A C"), ids("B D")),
        (ids("E G"), ids("F H")),
    ]
    third = individual_round(order, History.of([first, second]), round=3)
    assert [t.lines for t in third.tables] == [(ids("A B"), ids("C D")), (ids("E F"), ids("G H"))]
    # Round 4: the same fours would repeat a partnership; the search mixes the tables instead.
    fourth = individual_round(order, History.of([first, second, third]), round=4)
    assert not fourth.relaxed
    partners = {frozenset(p) for r in (first, second, third) for p in r.partner_pairs()}
    assert not partners & {frozenset(p) for p in fourth.partner_pairs()}


def test_T2_four_players_can_only_have_three_different_partnerships() -> None:
    order = ids("A B C D")
    rounds: list[Pairing] = []
    for r in range(1, 5):
        rounds.append(individual_round(order, History.of(rounds), round=r))
    assert [p.relaxed for p in rounds] == [False, False, False, True]
    _, repeats = seat_fours(order, History.of(rounds[:3]))
    assert repeats == 2  # both lines of the only table repeat a partnership


def test_T2_individual_round_gives_byes_beyond_a_multiple_of_four() -> None:
    got = individual_round(ids("A B C D E F"), History(), round=1)
    assert got.byes == ids("F E") and len(got.tables) == 1


def test_score_independent_seating_avoids_earlier_opponents() -> None:
    order = ids("A B C D E F G H")
    g1 = fours(1, ["AD-BC", "EH-FG"])
    seated, repeats = seat_fours(order, History.of([g1]), avoid_opponents=True)
    assert repeats == 0
    history = History.of([g1])
    for l0, l1 in seated:
        for a in l0:
            for b in l1:
                assert history.met(a, b) == 0
