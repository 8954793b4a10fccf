"""Same-cards tournaments (docs/tournaments.md, "Same cards"): the round's fixed deals, the
comparison with the field, and the state's outcomes (R65, R66, T14, T17)."""

from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.engine import find_rules
from burraco.engine.cards import standard_deck
from burraco.engine.vp import VP3
from burraco.tournament import (
    EntrantId,
    PlayedTable,
    RoundRecord,
    TableRecord,
    TableVerdict,
    TournamentSettings,
    TournamentSettingsError,
    TournamentState,
    compare,
    preset,
    round_deals,
)
from burraco.tournament.samecards import round_half_away
from tests.depth import examples

RULES = find_rules("italian")


def test_round_deals_are_fixed_by_the_seed_and_committed() -> None:
    a = round_deals(42, 1, RULES, 3)
    assert a == round_deals(42, 1, RULES, 3)  # the same after a restart
    assert a != round_deals(42, 2, RULES, 3)
    assert a != round_deals(43, 1, RULES, 3)
    assert len(a.deals) == 3 and len({d.text for d in a.deals}) == 3
    for deal in a.deals:
        assert Counter(deal.deck) == Counter(standard_deck(RULES.jokers))  # R7: the full deck
        expected = hashlib.sha256(f"{deal.text} {deal.salt}".encode()).hexdigest()
        assert deal.commitment == expected
    assert 0 <= a.first < RULES.players
    assert a.commitments == tuple(d.commitment for d in a.deals)


def test_commitment_is_the_servers() -> None:
    from burraco.server.fairness import commitment_of

    deal = round_deals(7, 1, RULES, 1).deals[0]
    assert commitment_of(deal.text, deal.salt) == deal.commitment


def test_worked_example_of_the_docs() -> None:
    """docs/tournaments.md: three tables, two deals."""
    tables = [
        PlayedTable(1, ((600, 200), (150, 500))),
        PlayedTable(2, ((450, 250), (300, 300))),
        PlayedTable(3, ((300, 400), (100, 250))),
    ]
    out = compare(tables, VP3)
    one = out[1]
    assert [d.mp for d in one.deals] == [400, -350]
    assert one.deals[0].field == Fraction(50)  # (200 + -100) / 2
    assert one.deals[1].field == Fraction(-75)  # (0 + -150) / 2
    assert one.exact == Fraction(350 - 275)
    assert one.mp == (75, -75) and one.vp == (11, 9)
    assert out[2].deals[0].difference == Fraction(200 - 150)  # (400 + -100) / 2
    assert out[2].deals[1].difference == Fraction(0 + 250)  # (-350 + -150) / 2
    assert out[2].mp == (300, -300) and out[2].vp == (13, 7)
    assert out[3].mp == (-375, 375) and out[3].vp == (6, 14)


def test_a_table_alone_or_out_of_the_comparison() -> None:
    out = compare([PlayedTable(1, ((500, 0),)), PlayedTable(2, ((0, 0),), compared=False)], VP3)
    assert set(out) == {1}
    assert out[1].deals[0].field is None and out[1].mp == (0, 0) and out[1].vp == (10, 10)
    with pytest.raises(ValueError, match="two results"):
        compare([PlayedTable(1, ()), PlayedTable(1, ())], VP3)


def test_rounding_halves_away_from_zero() -> None:
    assert round_half_away(Fraction(5, 2)) == 3
    assert round_half_away(Fraction(-5, 2)) == -3
    assert round_half_away(Fraction(7, 3)) == 2
    assert round_half_away(Fraction(0)) == 0


scores = st.integers(-200, 400).map(lambda x: x * 5)
deal = st.tuples(scores, scores)


@st.composite
def rounds(draw: st.DrawFn) -> list[PlayedTable]:
    n = draw(st.integers(2, 7))
    k = draw(st.integers(1, 4))
    return [
        PlayedTable(t + 1, tuple(draw(st.lists(deal, min_size=k, max_size=k)))) for t in range(n)
    ]


@settings(max_examples=examples(150), deadline=None)
@given(rounds())
def test_the_field_sums_to_zero_and_tables_to_twenty(tables: list[PlayedTable]) -> None:
    out = compare(tables, VP3)
    for k in range(len(tables[0].deals)):
        assert sum(out[t.table].deals[k].difference for t in tables) == 0  # each seat's field
    assert sum(c.exact for c in out.values()) == 0
    for c in out.values():
        assert c.mp[0] == -c.mp[1] and sum(c.vp) == 20
        assert abs(c.mp[0] - c.exact) <= Fraction(1, 2)


@settings(max_examples=examples(100), deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_permuting_tables_does_not_change_results(tables: list[PlayedTable], rng: object) -> None:
    out = compare(tables, VP3)
    shuffled = list(tables)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert compare(shuffled, VP3) == out
    # Renumbering the tables moves their results with them.
    renamed = [PlayedTable(100 + t.table, t.deals) for t in tables]
    again = compare(renamed, VP3)
    assert all(again[100 + n].mp == c.mp for n, c in out.items())


@settings(max_examples=examples(100), deadline=None)
@given(rounds(), st.integers(-100, 100).map(lambda x: x * 5))
def test_the_same_swing_everywhere_cancels(tables: list[PlayedTable], shift: int) -> None:
    """The cards, not the line: adding the same points to line 0 of one deal at every table
    changes nobody's comparison."""
    out = compare(tables, VP3)
    moved = [
        PlayedTable(t.table, ((t.deals[0][0] + shift, t.deals[0][1]), *t.deals[1:])) for t in tables
    ]
    assert {n: c.mp for n, c in compare(moved, VP3).items()} == {n: c.mp for n, c in out.items()}


def test_settings_and_presets() -> None:
    assert preset("same_cards").same_cards
    assert preset("same_cards_pairs").seats == 4
    with pytest.raises(TournamentSettingsError) as error:
        TournamentSettings(same_cards=True, system="knockout")
    assert error.value.field == "same_cards"
    with pytest.raises(TournamentSettingsError):
        preset("nope")
    s = TournamentSettings(same_cards=True, system="round_robin")
    assert TournamentSettings.from_json(s.to_json()) == s


def _verdict(deals: tuple[tuple[int, int], ...], ended: str = "complete") -> TableVerdict:
    totals = (sum(d[0] for d in deals), sum(d[1] for d in deals))
    mp = totals[0] - totals[1]
    return TableVerdict(
        totals=totals,
        timed_out=1 if ended == "timeout" else None,
        closings=(0, 0),
        ended=ended,
        mp=(mp, -mp) if ended == "complete" else (355, -355),
        vp=VP3.split(mp) if ended == "complete" else (14, 6),
        deals=deals,
    )


def test_state_counts_a_round_once_it_is_over() -> None:
    ids = [EntrantId(x) for x in "abcdef"]
    tables = (
        TableRecord(1, ((ids[0],), (ids[1],)), _verdict(((600, 200), (150, 500)))),
        TableRecord(2, ((ids[2],), (ids[3],)), _verdict(((450, 250), (300, 300)))),
        TableRecord(3, ((ids[4],), (ids[5],)), _verdict(((300, 400), (100, 250)))),
    )
    settings_ = TournamentSettings(same_cards=True, smazzate=2, vp_table="VP-3")
    playing = TournamentState(settings_, 1, tuple(ids), (RoundRecord(1, False, tables),))
    assert playing.outcomes == ()  # nothing shows while other tables may still play the cards
    assert playing.comparison(1) == {}
    done = TournamentState(settings_, 1, tuple(ids), (RoundRecord(1, True, tables),))
    by = {str(o.entrant): o for o in done.outcomes}
    assert (by["a"].mp, by["a"].vp, by["b"].mp, by["b"].vp) == (75, 11, -75, 9)
    assert (by["e"].mp, by["e"].vp, by["f"].vp) == (-375, 6, 14)
    assert sum(o.vp for o in done.outcomes) == 60
    assert done.standings().rows[0].entrant == "f"


def test_a_timeout_keeps_t14_and_leaves_the_field() -> None:
    ids = [EntrantId(x) for x in "abcd"]
    tables = (
        TableRecord(1, ((ids[0],), (ids[1],)), _verdict(((600, 200), (150, 500)))),
        TableRecord(2, ((ids[2],), (ids[3],)), _verdict(((450, 250),), "timeout")),
    )
    settings_ = TournamentSettings(same_cards=True, smazzate=2)
    state = TournamentState(settings_, 1, tuple(ids), (RoundRecord(1, True, tables),))
    by = {str(o.entrant): o for o in state.outcomes}
    assert (by["a"].mp, by["a"].vp) == (0, 10)  # no other table to compare with: average
    assert (by["c"].mp, by["c"].vp, by["d"].vp) == (355, 14, 6)  # T14
    assert by["d"].timed_out
