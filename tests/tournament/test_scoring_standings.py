"""Scoring a table (R65, R66, 4.4, T14, T16, T20) and the standings (T17)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from burraco.engine.vp import VP2, VP3, VP4
from burraco.tournament import (
    EntrantId,
    Outcome,
    OutcomeKind,
    Standings,
    TableResult,
    Total,
    choose_vp_table,
    competition_places,
    round_outcomes,
    score,
    sit_out,
)

from .helpers import ids, one_v_one


def test_vp_tables_by_name_or_bounds() -> None:
    assert choose_vp_table() is VP3
    assert choose_vp_table("VP-4") is VP4
    assert choose_vp_table("vp-2") is VP2
    custom = choose_vp_table([10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    assert score(TableResult(1, (1055, 1000)), custom).vp == (15, 5)  # 55 <= 60: bracket 5


def test_V1_round_mp_and_vp_with_each_table() -> None:
    """V1/V2 through the tournament layer: totals 555 v 70 -> MP +485; VP-3 14/6, VP-4 12/8."""
    result = TableResult(1, (555, 70))
    assert score(result).mp == (485, -485)
    assert score(result, VP3).vp == (14, 6)
    assert score(result, VP4).vp == (12, 8)


def test_T16_technical_score_keeps_its_minimum_with_any_table() -> None:
    for table in (VP2, VP3, VP4):
        rs = score(TableResult(1, (0, 100), timed_out=1), table)
        assert rs.mp == (355, -355) and rs.vp == (14, 6) and rs.technical


def test_round_outcomes_need_one_result_per_table() -> None:
    pairing = one_v_one(1, [("A", "B"), ("C", "D")], byes="E")
    with pytest.raises(ValueError, match=r"missing for tables \[2\]"):
        round_outcomes(pairing, [TableResult(1, (100, 0))])
    with pytest.raises(ValueError, match="two results"):
        round_outcomes(pairing, [TableResult(1, (100, 0)), TableResult(1, (100, 0))])
    got = round_outcomes(pairing, [TableResult(1, (100, 0)), TableResult(2, (0, 0))])
    assert [(o.entrant, o.vp, o.mp, o.kind) for o in got] == [
        ("A", 11, 100, OutcomeKind.PLAYED),
        ("B", 9, -100, OutcomeKind.PLAYED),
        ("C", 10, 0, OutcomeKind.PLAYED),
        ("D", 10, 0, OutcomeKind.PLAYED),
        ("E", 10, 0, OutcomeKind.BYE),
    ]
    assert got[0].opponents == ("B",)


def test_totals_must_be_multiples_of_five() -> None:
    with pytest.raises(ValueError, match="multiples of 5"):
        TableResult(1, (101, 0))


def test_T20_bye_vp_is_configurable() -> None:
    assert sit_out(EntrantId("A"), 3).vp == 10
    assert sit_out(EntrantId("A"), 3, vp=12) == Outcome(EntrantId("A"), 3, 12, 0, OutcomeKind.BYE)
    with pytest.raises(ValueError):
        sit_out(EntrantId("A"), 3, OutcomeKind.PLAYED)


def test_T17_standings_by_vp_then_mp_then_ex_aequo() -> None:
    a, b, c, d, e = ids("A B C D E")
    standings = Standings.from_totals(
        [Total(a, 30, 100), Total(b, 32, -50), Total(c, 30, 100), Total(d, 30, 250), Total(e, 12)]
    )
    assert [(r.place, r.entrant, r.tied) for r in standings.rows] == [
        (1, "B", False),
        (2, "D", False),
        (3, "A", True),
        (3, "C", True),
        (5, "E", False),
    ]
    assert [[r.entrant for r in g] for g in standings.ties] == [["A", "C"]]
    # prizes of the tied places are pooled and split (T17)
    assert standings.prizes([500, 300, 200, 100]) == {
        "B": Fraction(500),
        "D": Fraction(300),
        "A": Fraction(150),
        "C": Fraction(150),
        "E": Fraction(0),
    }
    # for pairing only, the exact tie is broken at random
    orders = {standings.pairing_order(random.Random(s)) for s in range(20)}
    assert orders == {ids("B D A C E"), ids("B D C A E")}


def test_T17_standings_from_outcomes_include_entrants_without_any() -> None:
    outcomes = [Outcome(EntrantId("A"), 1, 14, 400), Outcome(EntrantId("B"), 1, 6, -400)]
    standings = Standings.of(outcomes, ids("A B C"))
    assert standings.order == ids("A B C")
    assert standings.row(EntrantId("C")).total == Total(EntrantId("C"))


def test_competition_places() -> None:
    assert competition_places([5, 4, 4, 3, 3, 3, 1]) == [1, 2, 2, 4, 4, 4, 7]
    assert competition_places([]) == []
