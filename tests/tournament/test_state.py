"""The pure state of an online tournament: what ``TournamentState`` decides from the settings,
the entrants and the results so far (RULES.md T1-T25), without a server, a store or a clock.

These are the decisions the live tests (tests/server/test_tournament_*.py) watch through the
server, checked here directly and for many more fields."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.engine.vp import TECHNICAL_MP, TECHNICAL_VP, VP3
from burraco.tournament import (
    MAX_EXTRA_SMAZZATE,
    ClosingsUnknown,
    EarlierMatch,
    EntrantId,
    FinishedTable,
    RoundRecord,
    TableRecord,
    TableVerdict,
    TournamentSettings,
    TournamentState,
    decide,
    decide_by_lots,
    double_forfeit_score,
)
from tests.depth import examples

from .helpers import ids

SETTINGS = settings(max_examples=examples(60), deadline=None)


def state(n: int, seed: int = 7, **fields: object) -> TournamentState:
    return TournamentState(
        TournamentSettings(**fields),  # type: ignore[arg-type]
        seed,
        ids(" ".join(f"E{i}" for i in range(1, n + 1))),
    )


def finished(
    totals: tuple[int, int],
    *,
    ended: str = "complete",
    winner: int | None = None,
    closings: tuple[int, int] | None = (0, 0),
    earlier: tuple[EarlierMatch, ...] = (),
    table_id: str = "t1",
) -> FinishedTable:
    if winner is None and ended == "complete" and totals[0] != totals[1]:
        winner = 0 if totals[0] > totals[1] else 1
    return FinishedTable(table_id, totals, winner, ended, closings, earlier)


def play_round(current: TournamentState, rng: random.Random) -> TournamentState:
    """Pair the next round and finish each of its tables with random totals (a tied knockout
    match goes on, T23, until the totals differ)."""
    step = current.next_round()
    assert step.draw is not None
    tables = []
    for table in step.draw.pairing.tables:
        earlier: tuple[EarlierMatch, ...] = ()
        while True:
            totals = (rng.randrange(0, 200) * 5, rng.randrange(0, 200) * 5)
            closings = (rng.randrange(3), rng.randrange(3))
            table_id = f"r{step.number}t{table.number}.{len(earlier)}"
            settled = current.settle(
                finished(totals, closings=closings, earlier=earlier, table_id=table_id)
            )
            if isinstance(settled, TableVerdict):
                break
            earlier = (*earlier, settled)
        tables.append(TableRecord(table.number, table.lines, settled))
    pairing = step.draw.pairing
    record = RoundRecord(
        step.number, True, tuple(tables), pairing.byes, pairing.relaxed, step.draw.slots
    )
    return replace(current, rounds=(*current.rounds, record))


def play_out(current: TournamentState, rng: random.Random) -> TournamentState:
    while current.next_round().draw is not None:
        current = play_round(current, rng)
        assert len(current.rounds) <= 20, "a tournament ends"
    return current


# ----------------------------------------------------------------------- every system


@SETTINGS
@given(
    n=st.integers(2, 14),
    system=st.sampled_from(["danish", "round_robin", "mitchell", "knockout"]),
    seed=st.integers(0, 2**32),
)
def test_every_system_seats_each_entrant_once_a_round_and_ends(
    n: int, system: str, seed: int
) -> None:
    """T18-T24: in every round each entrant plays at one table or has a bye (T20), and the
    tournament ends after the system's rounds (T22: Mitchell at most one per table)."""
    played = play_out(state(n, seed, system=system), random.Random(seed))
    if system != "knockout":
        assert len(played.rounds) == played.total_rounds()
    for rnd in played.rounds:
        seated = Counter(rnd.pairing.entrants)
        assert all(count == 1 for count in seated.values())
        if system != "knockout":
            assert set(seated) == set(played.admitted)
    ranking = played.ranking()
    assert sorted(r.row.entrant for r in ranking) == sorted(played.admitted)


@SETTINGS
@given(n=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_a_round_robin_meets_everyone_once(n: int, seed: int) -> None:
    """Round robin: every two entrants meet exactly once; with an odd number everyone has one
    bye (T20)."""
    played = play_out(state(n, seed, system="round_robin"), random.Random(seed))
    met = Counter(frozenset(p) for r in played.rounds for p in r.pairing.opponent_pairs())
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    byes = Counter(b for r in played.rounds for b in r.byes)
    assert byes == (Counter(played.admitted) if n % 2 else Counter())


@SETTINGS
@given(n=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_a_mitchell_never_repeats_a_meeting(n: int, seed: int) -> None:
    """T22: EW moves one table up each round and rounds <= tables, so nobody meets twice."""
    played = play_out(state(n, seed, system="mitchell"), random.Random(seed))
    met = Counter(frozenset(p) for r in played.rounds for p in r.pairing.opponent_pairs())
    assert set(met.values()) <= {1}
    assert len(played.rounds) == (n + 1) // 2


@SETTINGS
@given(n=st.integers(2, 16), seed=st.integers(0, 2**32))
def test_a_knockout_ends_with_a_champion_ranked_by_round_of_elimination(n: int, seed: int) -> None:
    """T24: a bracket of the next power of two; T25: the winner 1st, the finalist 2nd, then ex
    aequo by the round of elimination."""
    played = play_out(state(n, seed, system="knockout"), random.Random(seed))
    size = 1 << (n - 1).bit_length()
    assert len(played.rounds) == played.total_rounds() == size.bit_length() - 1
    bracket = played.knockout()
    assert bracket is not None and bracket.champion is not None
    places = [r.place or 0 for r in played.ranking()]
    assert places[0] == 1 and 0 not in places and places == sorted(places)
    if n > 2:
        assert places[1] == 2


def test_the_same_seed_draws_the_same_rounds_after_a_restart() -> None:
    """The draws come from the tournament's seed (T18, T24): a state rebuilt from the stored
    rounds pairs the next round exactly as before."""
    for system in ("danish", "round_robin", "mitchell", "knockout"):
        first = play_round(state(8, 42, system=system), random.Random(1))
        rebuilt = TournamentState(first.settings, first.seed, first.admitted, first.rounds)
        assert rebuilt.next_round() == first.next_round()
        assert state(8, 42, system=system).pair(1) == state(8, 42, system=system).pair(1)


# ----------------------------------------------------------------- scores of one table


def test_t_e4_a_timeout_gives_the_technical_score_of_the_engine() -> None:
    """T14 (case T-E4): B's clock hits 0 while A leads by 200: A +355 MP / 14 VP, B the
    opposite, from the engine's TECHNICAL_MP and TECHNICAL_VP."""
    verdict = state(4).settle(finished((400, 200), ended="timeout", winner=0))
    assert isinstance(verdict, TableVerdict)
    assert verdict.timed_out == 1 and verdict.technical
    assert verdict.mp == (TECHNICAL_MP, -TECHNICAL_MP)
    assert verdict.vp == (TECHNICAL_VP, 20 - TECHNICAL_VP)


def test_t_e6_the_line_out_of_time_loses_even_when_ahead() -> None:
    """T14 (case T-E6): B ran out of time leading by 900: B still loses 355 / 6."""
    verdict = state(4).settle(finished((0, 900), ended="timeout", winner=0))
    assert isinstance(verdict, TableVerdict)
    assert verdict.mp == (TECHNICAL_MP, -TECHNICAL_MP) and verdict.vp == (14, 6)


def test_a_double_forfeit_gives_both_lines_the_losing_technical_score() -> None:
    """T14: both lines forfeited: each gets -355 MP and 6 VP, whatever the VP table (T16)."""
    assert double_forfeit_score() == ((-TECHNICAL_MP, -TECHNICAL_MP), (6, 6))
    for vp_table in ("VP-2", "VP-3", "VP-4"):
        verdict = state(4, vp_table=vp_table).settle(finished((0, 0), ended="forfeit"))
        assert isinstance(verdict, TableVerdict) and verdict.double_forfeit
        assert verdict.mp == (-355, -355) and verdict.vp == (6, 6)
        assert verdict.to_json()["double_forfeit"] is True


def test_a_played_table_is_scored_with_the_tournament_vp_table() -> None:
    """R65, R66: MP is the signed difference; VP from the table (VP-3 for 3 smazzate)."""
    verdict = state(4).settle(finished((1200, 700)))
    assert isinstance(verdict, TableVerdict) and not verdict.technical
    assert verdict.mp == (500, -500) and verdict.vp == VP3.split(500)
    assert verdict.winner is None and "winner" not in verdict.to_json()  # no match winner


def test_the_stored_result_keeps_its_keys_and_their_order() -> None:
    """The JSON stored with a table (and shown by the HTTP view) is the one of before."""
    vp_result = state(4).settle(finished((300, 100), closings=(1, 0)))
    assert isinstance(vp_result, TableVerdict)
    assert vp_result.to_json() == {
        "totals": [300, 100],
        "timed_out": None,
        "closings": [1, 0],
        "ended": "complete",
        "mp": [200, -200],
        "vp": [12, 8],
    }
    assert list(vp_result.to_json()) == ["totals", "timed_out", "closings", "ended", "mp", "vp"]
    ko = state(4, system="knockout").settle(finished((0, 0), ended="forfeit"))
    assert isinstance(ko, TableVerdict)
    assert list(ko.to_json()) == [
        *("totals", "timed_out", "closings", "ended", "double_forfeit", "winner", "mp", "vp")
    ]
    assert TableVerdict.from_json(ko.to_json()) == ko
    assert TableVerdict.from_json(vp_result.to_json()) == vp_result


# ------------------------------------------------------------- knockout decisions (T23)


def test_t23_a_tie_on_totals_goes_to_the_line_with_more_closings() -> None:
    verdict = state(4, system="knockout").settle(finished((300, 300), closings=(1, 2)))
    assert isinstance(verdict, TableVerdict) and verdict.winner == 1


def test_t23_a_tie_on_totals_and_closings_plays_one_more_smazzata_and_adds_up() -> None:
    """T23: tied on both: one more smazzata; its totals and closings add to the match's."""
    ko = state(4, system="knockout")
    tied = ko.settle(finished((300, 300), closings=(1, 1), table_id="first"))
    assert tied == EarlierMatch("first", (300, 300), (1, 1))
    assert tied.to_json() == {"table_id": "first", "totals": [300, 300], "closings": [1, 1]}
    verdict = ko.settle(finished((0, 45), closings=(0, 1), earlier=(tied,), table_id="second"))
    assert isinstance(verdict, TableVerdict)
    assert verdict.winner == 1 and verdict.totals == (300, 345) and verdict.closings == (1, 2)


def _settle_zero_ties(ko: TournamentState, first: str) -> tuple[TableVerdict, int]:
    """Every smazzata at this pairing ties 0-0 with no closings (all values 0, issue 19): the
    verdict and how many extra smazzate were played to reach it."""
    earlier: tuple[EarlierMatch, ...] = ()
    for extra in range(MAX_EXTRA_SMAZZATE + 2):  # a bound of its own: never loops for ever
        table_id = first if extra == 0 else f"{first}.{extra}"
        settled = ko.settle(finished((0, 0), closings=(0, 0), earlier=earlier, table_id=table_id))
        if isinstance(settled, TableVerdict):
            return settled, extra
        earlier = (*earlier, settled)
    raise AssertionError("the tie chain did not end")


def test_t23_a_tie_after_the_last_extra_smazzata_is_decided_by_lots() -> None:
    """Issue 19: T23's extra smazzate are bounded: still tied after MAX_EXTRA_SMAZZATE (3) of
    them, a draw seeded by the tournament's seed and the pairing's first table decides."""
    assert MAX_EXTRA_SMAZZATE == 3
    ko = state(4, system="knockout")
    verdict, extras = _settle_zero_ties(ko, "first")
    assert extras == MAX_EXTRA_SMAZZATE
    assert verdict.winner in (0, 1) and verdict.totals == (0, 0)
    assert verdict.closings == (0, 0) and not verdict.technical
    # The same after a restart (a pure function of the tournament's seed and the table) ...
    assert _settle_zero_ties(state(4, system="knockout"), "first") == (verdict, extras)
    # ... and a fair draw: both lines win some pairings, and other seeds draw otherwise.
    winners = {_settle_zero_ties(ko, f"p{i}")[0].winner for i in range(20)}
    assert winners == {0, 1}
    by_seed = {
        _settle_zero_ties(state(4, i, system="knockout"), "first")[0].winner for i in range(20)
    }
    assert by_seed == {0, 1}


def test_t23_lots_never_override_the_totals_or_the_closings() -> None:
    assert decide((0, 5), extra_smazzate=MAX_EXTRA_SMAZZATE).reason == "total"
    assert decide((0, 0), (1, 0), extra_smazzate=MAX_EXTRA_SMAZZATE).reason == "closings"
    assert decide((0, 0), extra_smazzate=MAX_EXTRA_SMAZZATE - 1).play_another_smazzata
    lots = decide((0, 0), extra_smazzate=MAX_EXTRA_SMAZZATE, lots="s")
    assert lots == decide_by_lots("s") and lots.reason == "lots" and lots.winner in (0, 1)


def test_t15_in_a_knockout_the_line_out_of_time_loses_and_t14_is_recorded() -> None:
    """T15 (case T-E7): the line that ran out of time loses the match whatever the score; the
    VP recorded are T14's."""
    verdict = state(4, system="knockout").settle(finished((200, 500), ended="timeout", winner=0))
    assert isinstance(verdict, TableVerdict)
    assert verdict.winner == 0 and verdict.timed_out == 1 and verdict.mp == (355, -355)


def test_a_knockout_double_forfeit_is_drawn_the_same_way_after_a_restart() -> None:
    ko = state(4, system="knockout")
    winners = {
        ko.settle(finished((0, 0), ended="forfeit", table_id=f"t{i}")).winner  # type: ignore[union-attr]
        for i in range(20)
    }
    assert winners == {0, 1}
    again = ko.settle(finished((0, 0), ended="forfeit", table_id="t3"))
    assert again == ko.settle(finished((0, 0), ended="forfeit", table_id="t3"))


def test_t23_unknown_closings_never_decide_a_tied_knockout_match() -> None:
    """A match whose record could not be read has no closings: a tie on totals cannot be
    broken (T23) and is refused, rather than read as 0 closings each (which would have played
    another smazzata, or, with earlier closings, crowned the wrong line)."""
    ko = state(4, system="knockout")
    earlier = (EarlierMatch("first", (300, 300), (2, 1)),)
    with pytest.raises(ClosingsUnknown, match="closings"):
        ko.settle(finished((100, 100), closings=None, earlier=earlier))
    with pytest.raises(ClosingsUnknown):
        ko.settle(finished((0, 0), closings=None))
    # The totals (or the clock, T15) decide without them; the verdict says they are unknown.
    verdict = ko.settle(finished((100, 50), closings=None, earlier=earlier))
    assert isinstance(verdict, TableVerdict) and verdict.winner == 0
    assert verdict.closings is None and verdict.to_json()["closings"] is None
    # In a VP system the closings decide nothing.
    assert isinstance(state(4).settle(finished((0, 0), closings=None)), TableVerdict)


# --------------------------------------------------------------- partial elimination (T21)


def test_t21_those_below_the_threshold_go_out_and_sit_out_the_next_rounds() -> None:
    """T21: after round 1, whoever has fewer than 10 VP (lost the table) is out: told once, in
    no later pairing, and still ranked with the VP they had."""
    current = state(8, 3, elimination={"1": 10})
    assert current.next_round().eliminated == ()
    current = play_round(current, random.Random(5))
    losers = {
        e
        for t in current.rounds[0].tables
        for i, line in enumerate(t.lines)
        if t.verdict is not None and t.verdict.vp[i] < 10
        for e in line
    }
    assert losers and current.eliminated() == dict.fromkeys(losers, 1)
    step = current.next_round()
    assert set(step.eliminated) == losers  # told after the round they went out
    assert step.draw is not None and not losers & set(step.draw.pairing.entrants)
    current = play_round(current, random.Random(6))
    assert current.next_round().eliminated == ()  # told only once
    assert {r.row.entrant for r in current.ranking()} == set(current.admitted)


def test_t21_leaving_fewer_than_one_table_ends_the_tournament() -> None:
    """T21: when too few entrants are left for a table, the ranking is final (here after round
    1 of 3, only the one line with 20 VP is still in)."""
    current = state(4, 3, elimination={"1": 20})
    e1, e2, e3, e4 = current.admitted

    def verdict(mp: int, vp: int) -> TableVerdict:
        return TableVerdict((mp, 0), None, (0, 0), "complete", (mp, -mp), (vp, 20 - vp))

    round_1 = RoundRecord(
        1,
        True,
        (
            TableRecord(1, ((e1,), (e2,)), verdict(2000, 20)),
            TableRecord(2, ((e3,), (e4,)), verdict(200, 12)),
        ),
    )
    current = replace(current, rounds=(round_1,))
    assert current.eliminated() == {e2: 1, e3: 1, e4: 1}
    step = current.next_round()
    assert step.draw is None and set(step.eliminated) == {e2, e3, e4}
    assert [r.row.entrant for r in current.ranking()] == [e1, e3, e4, e2]  # T17, VP kept


def test_no_round_is_paired_for_fewer_than_two_entrants() -> None:
    assert state(1).total_rounds() == 0 and state(1).next_round().draw is None
    assert state(0).ranking() == ()


def test_the_round_of_an_entrant_list_is_typed() -> None:
    assert state(2).admitted == (EntrantId("E1"), EntrantId("E2"))
