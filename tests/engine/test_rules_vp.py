"""RULES.md 6.8 (round totals and VP, V1-V5), 6.9 (technical score, T-E4..T-E6) and 6.10 P8
(target-score match). Python names cannot hold a hyphen: T-E4 is written ``T_E4``."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from burraco.engine import SmazzataScore, find_rules
from burraco.engine.match import Match
from burraco.engine.vp import VP3, VP4, RoundScore, round_score, technical_score, vp_table


def smazzata(*result: int) -> SmazzataScore:
    """A finished smazzata's score as a match counts it (only ``result`` matters)."""
    return SmazzataScore(ended="closing", closed_by=0, lines=(), result=tuple(result))


def play_match(results: Sequence[tuple[int, int]], smazzate: int) -> Match:
    match = Match(find_rules("italian", smazzate=smazzate))
    for a, b in results:
        assert not match.is_over
        match.add(smazzata(a, b))
    return match


# V1 / V2: smazzata 1 = X1 (A 420, B 40), smazzata 2 = X3 (A 170, B -230), smazzata 3: A -35,
# B 260.
ROUND = [(420, 40), (170, -230), (-35, 260)]


def test_V1_three_smazzata_round_with_VP3() -> None:
    """V1: 3-smazzata round, totals A 555, B 70 -> MP(A) = +485, MP(B) = -485; VP-3 -> 14 / 6."""
    match = play_match(ROUND, smazzate=3)
    assert match.is_over
    assert match.totals == [555, 70]
    assert match.winner == 0
    result = match.round_score()  # auto: rounds of 3 smazzate use VP-3
    assert result == RoundScore(totals=(555, 70), mp=(485, -485), vp=(14, 6))
    assert round_score((555, 70), VP3) == result
    assert round_score((70, 555), VP3) == RoundScore((70, 555), (-485, 485), (6, 14))


def test_V2_same_totals_with_VP4() -> None:
    """V2: same totals, 4-smazzata table VP-4: 305-500 -> A 12, B 8."""
    assert vp_table("auto", smazzate=4) is VP4
    result = round_score((555, 70), VP4)
    assert result.mp == (485, -485)
    assert result.vp == (12, 8)
    match = play_match([*ROUND, (0, 0)], smazzate=4)
    assert match.totals == [555, 70]
    assert match.round_score() == RoundScore((555, 70), (485, -485), (12, 8))


@pytest.mark.parametrize(
    ("difference", "vp"),
    [(0, (10, 10)), (50, (10, 10)), (55, (11, 9)), (1500, (19, 1)), (1505, (20, 0))],
)
def test_V3_VP3_bracket_edges(difference: int, vp: tuple[int, int]) -> None:
    """V3: differences 0, 50, 55, 1500, 1505 with VP-3 -> 10-10, 10-10, 11-9, 19-1, 20-0."""
    result = round_score((1000 + difference, 1000), VP3)
    assert result.mp == (difference, -difference)
    assert result.vp == vp
    assert round_score((1000, 1000 + difference), VP3).vp == (vp[1], vp[0])


@pytest.mark.parametrize(("difference", "vp"), [(2000, (19, 1)), (2005, (20, 0))])
def test_V4_VP4_top_brackets(difference: int, vp: tuple[int, int]) -> None:
    """V4: difference 2000 / 2005 with VP-4 -> 19-1 / 20-0."""
    result = round_score((difference, 0), VP4)
    assert result.mp == (difference, -difference)
    assert result.vp == vp


def test_V5_equal_totals() -> None:
    """V5: equal totals (0) -> 10-10, MP 0 each."""
    for table in (VP3, VP4, vp_table("VP-2")):
        assert round_score((555, 555), table) == RoundScore((555, 555), (0, 0), (10, 10))
    match = play_match([(300, 200), (-50, 50)], smazzate=2)
    assert match.totals == [250, 250]
    assert match.winner is None
    assert match.round_score().mp == (0, 0)
    assert match.round_score().vp == (10, 10)


# T-E4..T-E6: Danish VP-3; B's clock (line 1) hits 0, or in T-E6 B timed out while leading.


def test_T_E4_timeout_with_a_small_lead_gives_the_technical_score() -> None:
    """T-E4: Danish VP-3; B's clock hits 0; A leads by 200 -> A +355 MP 14 VP, B -355 MP 6 VP."""
    result = technical_score((700, 500), timed_out=1, table=VP3)
    assert result == RoundScore((700, 500), (355, -355), (14, 6), technical=True)


def test_T_E5_timeout_with_a_large_lead_keeps_the_better_table_score() -> None:
    """T-E5: same, A leads by 650 -> A +650 MP, 15 VP (table beats technical); B -650, 5 VP."""
    result = technical_score((900, 250), timed_out=1, table=VP3)
    assert result == RoundScore((900, 250), (650, -650), (15, 5), technical=True)


def test_T_E6_the_player_who_timed_out_loses_even_when_ahead() -> None:
    """T-E6: same, B (who timed out) leads by 900 -> B -355 MP / 6 VP, A +355 / 14."""
    result = technical_score((100, 1000), timed_out=1, table=VP3)
    assert result == RoundScore((100, 1000), (355, -355), (14, 6), technical=True)
    # Symmetric: line A timing out while ahead by 900.
    mirrored = technical_score((1000, 100), timed_out=0, table=VP3)
    assert mirrored == RoundScore((1000, 100), (-355, 355), (6, 14), technical=True)


def test_P8_target_score_both_past_the_target_higher_total_wins() -> None:
    """P8: target 2005: A 2070, B 2110 -> B wins; equal totals >= 2005 -> another smazzata."""
    classic = find_rules("classic")
    assert classic.target_score == 2005

    match = Match(classic)
    match.add(smazzata(1000, 1000))
    assert not match.is_over
    match.add(smazzata(1070, 1110))
    assert match.totals == [2070, 2110]
    assert match.is_over
    assert match.decided
    assert match.winner == 1
    with pytest.raises(ValueError, match="over"):
        match.deal(rng=random.Random(1))

    # Equal totals at or above the target: no winner yet, another smazzata is dealt.
    tied = Match(classic)
    tied.add(smazzata(2010, 2010))
    assert tied.totals == [2010, 2010]
    assert not tied.is_over
    assert tied.winner is None
    state = tied.deal(rng=random.Random(1))
    assert state.first == 1  # R6: the next smazzata starts one seat clockwise
    tied.add(smazzata(40, 0))
    assert tied.is_over
    assert tied.winner == 0

    # Below the target nothing is decided, whoever leads.
    short = Match(classic)
    short.add(smazzata(2000, 100))
    assert not short.is_over
    assert short.winner is None
