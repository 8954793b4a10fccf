"""RULES.md 6.10 cases P1-P8 and 6.9 cases T-E4..T-E7, as the tournament layer applies them.
Python names cannot hold a hyphen: T-E4 is written ``T_E4``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from burraco.engine import SmazzataScore, find_rules
from burraco.engine.match import Match
from burraco.engine.vp import VP3
from burraco.tournament import (
    BYE_VP,
    BracketMode,
    EntrantId,
    Evening,
    EveningConfig,
    EveningRanking,
    EveningType,
    History,
    Knockout,
    Outcome,
    OutcomeKind,
    Pairing,
    RematchPolicy,
    Standings,
    TableResult,
    Total,
    danish_round,
    decide,
    first_round,
    round_outcomes,
    table_outcomes,
)

from .helpers import ids, one_v_one

P = ids("P1 P2 P3 P4 P5 P6 P7 P8")
STANDINGS_AFTER_2 = {"P1": 28, "P2": 26, "P3": 24, "P4": 21, "P5": 19, "P6": 16, "P7": 15, "P8": 11}
ROUND_2 = one_v_one(2, [("P1", "P2"), ("P3", "P5"), ("P4", "P6"), ("P7", "P8")])


def p1_p2_order() -> tuple[EntrantId, ...]:
    standings = Standings.from_totals(
        Total(EntrantId(e), vp, 0) for e, vp in STANDINGS_AFTER_2.items()
    )
    order = standings.pairing_order(random.Random(0))
    assert order == P  # no ties: the rng changes nothing
    return order


def pairs_of(pairing: Pairing) -> list[tuple[str, str]]:
    return [(t.lines[0][0], t.lines[1][0]) for t in pairing.tables]


def test_P1_modified_danish_backtracks_to_avoid_the_previous_round_rematch() -> None:
    """P1: Danish, 8 players after round 2 (not the last), P1 28 ... P8 11 VP; round 2 was
    P1-P2, P3-P5, P4-P6, P7-P8; policy not_previous_round -> P1-P3, P2-P4, then P5-P6 would force
    P7-P8 (a rematch) -> backtrack -> P5-P7, P6-P8."""
    history = History.of([first_round(P, None), ROUND_2])
    pairing = danish_round(p1_p2_order(), history, round=3, policy=RematchPolicy.NOT_PREVIOUS_ROUND)
    assert pairs_of(pairing) == [("P1", "P3"), ("P2", "P4"), ("P5", "P7"), ("P6", "P8")]
    assert not pairing.relaxed
    assert pairing.byes == ()


def test_P2_last_round_allows_the_pure_danish_pairing() -> None:
    """P2: same standings, round 3 is the last round -> P1-P2, P3-P4, P5-P6, P7-P8."""
    history = History.of([first_round(P, None), ROUND_2])
    pairing = danish_round(p1_p2_order(), history, round=3, last_round=True)
    assert pairs_of(pairing) == [("P1", "P2"), ("P3", "P4"), ("P5", "P6"), ("P7", "P8")]
    # Pure Danish gives the same pairing in any round.
    pure = danish_round(p1_p2_order(), history, round=3, policy=RematchPolicy.ALLOWED)
    assert pairs_of(pure) == pairs_of(pairing)


def test_P3_danish_with_nine_players_gives_one_bye_per_round() -> None:
    """P3: Danish with 9 players -> one bye per round to the lowest-ranked player without a
    previous bye: 10 VP, 0 MP."""
    players = ids("A B C D E F G H I")
    rng = random.Random(3)
    rounds: list[Pairing] = []
    outcomes: list[Outcome] = []
    pairing = first_round(players, rng)
    for rnd in range(1, 10):
        if rnd > 1:
            order = Standings.of(outcomes, players).pairing_order(rng)
            history = History.of(rounds)
            pairing = danish_round(order, history, round=rnd, last_round=rnd == 9)
            # the bye went to the lowest-ranked entrant without a previous bye
            eligible = [e for e in order if history.bye_count(e) == 0]
            assert pairing.byes == (eligible[-1],)
        assert len(pairing.byes) == 1 and len(pairing.tables) == 4
        results = [TableResult(t.number, (rng.randrange(0, 300) * 5, 500)) for t in pairing.tables]
        got = round_outcomes(pairing, results, VP3)
        (bye,) = [o for o in got if o.kind is OutcomeKind.BYE]
        assert (bye.entrant, bye.vp, bye.mp) == (pairing.byes[0], 10, 0)
        assert BYE_VP == 10
        rounds.append(pairing)
        outcomes.extend(got)
    # 9 rounds, 9 players: everyone had exactly one bye.
    assert Counter(b for r in rounds for b in r.byes) == Counter(dict.fromkeys(players, 1))


def test_P4_knockout_of_31_has_a_bracket_of_32_with_one_random_bye() -> None:
    """P4: knockout Sit&Go with 31 entrants -> bracket of 32, one random bye in round 1."""
    entrants = tuple(EntrantId(f"E{i:02}") for i in range(31))
    byes = set()
    for seed in range(20):
        ko = Knockout.draw(entrants, random.Random(seed))
        first = ko.rounds[0]
        assert ko.size == len(first.slots) == 32
        assert ko.total_rounds == 5
        pairing = first.pairing()
        assert len(pairing.byes) == 1 and len(pairing.tables) == 15
        assert sorted(pairing.entrants) == sorted(entrants)
        byes.add(pairing.byes[0])
    assert len(byes) > 5  # drawn at random, not always the same entrant


def test_P5_knockout_tie_goes_to_closings_then_to_extra_smazzate() -> None:
    """P5: knockout match tied after N smazzate, A closed 2 smazzate, B 1 -> A wins; if closings
    are equal, extra smazzate until the totals differ."""
    assert decide((1250, 1250), closings=(2, 1)).winner == 0
    assert decide((1250, 1250), closings=(2, 1)).reason == "closings"
    tied = decide((1250, 1250), closings=(1, 1))
    assert tied.play_another_smazzata and tied.winner is None
    # one more smazzata at a time: still tied (both lines score 100) -> another one
    assert decide((1350, 1350), closings=(1, 1)).play_another_smazzata
    # then B scores more: the totals differ, B wins
    after = decide((1400, 1530), closings=(1, 2))
    assert (after.winner, after.reason) == (1, "total")
    # a higher total wins outright, whatever the closings
    assert decide((900, 850), closings=(0, 3)).winner == 0


def test_P6_club_evening_of_13_rests_one_player_per_game() -> None:
    """P6: club evening, 13 players, Internazionale (3 games) -> 1 player rests per game (3
    names drawn, no one twice); each gets 10 VP, 0 MP for that game."""
    players = ids("A B C D E F G H I J K L M")
    config = EveningConfig(type=EveningType.INTERNAZIONALE)
    assert config.games == 3
    rng = random.Random(6)
    evening = Evening.start(players, config, rng)
    rested: list[EntrantId] = []
    while not evening.finished:
        pairing = evening.draw_game(rng)
        assert len(pairing.byes) == 1 and len(pairing.tables) == 3
        assert all(len(t.lines[0]) == len(t.lines[1]) == 2 for t in pairing.tables)
        rested.extend(pairing.byes)
        results = [TableResult(t.number, (rng.randrange(200) * 5, 600)) for t in pairing.tables]
        evening = evening.record(pairing, results)
    assert len(rested) == len(set(rested)) == 3
    rests = [o for o in evening.outcomes if o.kind is OutcomeKind.REST]
    assert [(o.entrant, o.vp, o.mp) for o in rests] == [(r, 10, 0) for r in rested]
    ranking = evening.ranking()
    assert sum(r.rests for r in ranking.rows) == 3
    assert {r.player for r in ranking.rows if r.rests} == set(rested)


def test_P7_evening_ranking_points_with_ties() -> None:
    """P7: evening totals X 41 VP (MP +620), Y 41 VP (MP +310), Z 38 VP -> X 1st 25, Y 2nd 18,
    Z 3rd 15. If X and Y also tied on MP: both 25, Z 3rd -> 15."""
    x, y, z = ids("X Y Z")
    ranking = EveningRanking.from_totals([Total(x, 41, 620), Total(y, 41, 310), Total(z, 38, 0)])
    assert [(r.player, r.place, r.points) for r in ranking.rows] == [
        ("X", 1, 25),
        ("Y", 2, 18),
        ("Z", 3, 15),
    ]
    tied = EveningRanking.from_totals([Total(x, 41, 620), Total(y, 41, 620), Total(z, 38, 0)])
    assert [(r.player, r.place, r.points) for r in tied.rows] == [
        ("X", 1, 25),
        ("Y", 1, 25),
        ("Z", 3, 15),
    ]
    assert tied.best == ("X", "Y")


def smazzata(*result: int) -> SmazzataScore:
    return SmazzataScore(ended="closing", closed_by=0, lines=(), result=tuple(result))


def test_P8_target_score_match_decides_by_the_higher_total() -> None:
    """P8: [S001] target 2005: after a smazzata A has 2070, B 2110 -> B wins (both reached the
    target; higher total). Equal totals >= 2005 -> another smazzata."""
    match = Match(find_rules("classic"))
    match.add(smazzata(1000, 1000))
    match.add(smazzata(1070, 1110))
    assert match.totals == [2070, 2110]
    assert match.is_over and match.winner == 1
    # The knockout's verdict on the same totals agrees: the higher total wins.
    assert decide(match.totals).winner == 1

    tied = Match(find_rules("classic"))
    tied.add(smazzata(2010, 2010))
    assert not tied.is_over and tied.winner is None
    assert decide(tied.totals).play_another_smazzata
    tied.add(smazzata(0, 25))
    assert tied.is_over and tied.winner == 1


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        # T-E4: A leads by 200 -> A +355 MP 14 VP, B -355 MP 6 VP.
        ((700, 500), ((355, 14), (-355, 6))),
        # T-E5: A leads by 650 -> A +650 MP 15 VP (the table beats the technical score); B -650 5.
        ((900, 250), ((650, 15), (-650, 5))),
        # T-E6: B (who timed out) leads by 900 -> B still loses: B -355 / 6, A +355 / 14.
        ((100, 1000), ((355, 14), (-355, 6))),
    ],
    ids=["T_E4", "T_E5", "T_E6"],
)
def test_T_E4_T_E5_T_E6_timeout_in_a_danish_round(
    totals: tuple[int, int], expected: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    """T-E4, T-E5, T-E6 (T14): Danish with VP-3, B's clock hits 0; the completed smazzate give
    ``totals``. Every entrant of a line gets the line's MP and VP, marked technical."""
    pairing = one_v_one(4, [("A", "B")])
    (a, b) = table_outcomes(pairing.tables[0], TableResult(1, totals, timed_out=1), 4, VP3)
    assert ((a.mp, a.vp), (b.mp, b.vp)) == expected
    assert a.kind is b.kind is OutcomeKind.TECHNICAL
    assert (a.timed_out, b.timed_out) == (False, True)


def test_T_E4_pairs_share_the_technical_score() -> None:
    """T-E4 at a 4-player table of individuals: both partners of each line get its score."""
    from .helpers import fours

    pairing = fours(1, ["AC-BD"])
    got = table_outcomes(pairing.tables[0], TableResult(1, (700, 500), timed_out=1), 1, VP3)
    assert {o.entrant: (o.mp, o.vp) for o in got} == {
        "A": (355, 14),
        "C": (355, 14),
        "B": (-355, 6),
        "D": (-355, 6),
    }
    assert {o.entrant: o.partners for o in got}[EntrantId("A")] == ("C",)


@pytest.mark.parametrize("mode", list(BracketMode))
def test_T_E7_knockout_timeout_eliminates_the_line_that_timed_out(mode: BracketMode) -> None:
    """T-E7 (T15): knockout; B times out leading by 900 -> B eliminated, A advances."""
    verdict = decide((100, 1000), closings=(0, 3), timed_out=1)
    assert (verdict.winner, verdict.reason) == (0, "timeout")

    a = EntrantId("A")
    ko = Knockout.draw(ids("A B C D"), random.Random(7), mode)
    winners = []
    eliminated = None
    for table in ko.rounds[0].pairing().tables:
        if a not in table.entrants:
            winners.append(table.lines[0][0])
            continue
        line_a = table.line_of(a)
        # A's opponent leads by 900 over the completed smazzate, then runs out of time.
        totals = (100, 1000) if line_a == 0 else (1000, 100)
        v = decide(totals, timed_out=1 - line_a)
        assert v.winner == line_a
        winners.append(table.lines[v.winner][0])
        eliminated = table.lines[1 - line_a][0]
    after = ko.advance(winners, random.Random(8))
    assert a in after.rounds[1].slots and eliminated not in after.rounds[1].slots
    # With VP recorded, T14's values are recorded for the knockout match (T15).
    got = table_outcomes(
        one_v_one(1, [("A", "B")]).tables[0], TableResult(1, (100, 1000), timed_out=1), 1, VP3
    )
    assert [(o.entrant, o.mp, o.vp) for o in got] == [("A", 355, 14), ("B", -355, 6)]
