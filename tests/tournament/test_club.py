"""Club evenings and seasons (T26-T29, C12-C14): a hand-computed evening of 13 players, rests
for every remainder, and a season with its weekly best and top-3 prizes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from burraco.tournament import (
    POINTS,
    EntrantId,
    Evening,
    EveningConfig,
    EveningRanking,
    EveningType,
    Season,
    Seating,
    TableResult,
    Total,
    TwoLeftOver,
    ranking_points,
    sit_outs,
)

from .helpers import fours, ids

PLAYERS = ids("A B C D E F G H I J K L M")

# The evening as the organiser seated and entered it: 3 games of Internazionale, one rest per
# game (M, L, A), line NS - line EW at each table, each table's two totals.
GAMES = [
    (
        fours(1, ["AB-CD", "EF-GH", "IJ-KL"], rest="M"),
        [
            TableResult(1, (1200, 700)),  # diff 500: VP-3 14/6
            TableResult(2, (900, 880)),  # diff 20: 10/10
            TableResult(3, (300, 1400)),  # diff 1100: 2/18
        ],
    ),
    (
        fours(2, ["AC-EG", "BD-IK", "FH-JM"], rest="L"),
        [
            TableResult(1, (1000, 1250)),  # diff 250: 8/12
            TableResult(2, (1500, 1000)),  # diff 500: 14/6
            # J and M run out of time while F and H lead by only 55: technical score (T14),
            # F-H +355 MP 14 VP, J-M -355 MP 6 VP
            TableResult(3, (605, 550), timed_out=1),
        ],
    ),
    (
        fours(3, ["BC-FK", "DE-HI", "GJ-LM"], rest="A"),
        [
            TableResult(1, (400, 2000)),  # diff 1600: 0/20
            TableResult(2, (1250, 1000)),  # diff 250: 12/8
            TableResult(3, (700, 700)),  # 10/10
        ],
    ),
]

# Per player: (VP, MP) of games 1, 2, 3, worked out by hand from the table above.
BY_HAND = {
    "A": [(14, 500), (8, -250), (10, 0)],  # rests in game 3
    "B": [(14, 500), (14, 500), (0, -1600)],
    "C": [(6, -500), (8, -250), (0, -1600)],
    "D": [(6, -500), (14, 500), (12, 250)],
    "E": [(10, 20), (12, 250), (12, 250)],
    "F": [(10, 20), (14, 355), (20, 1600)],
    "G": [(10, -20), (12, 250), (10, 0)],
    "H": [(10, -20), (14, 355), (8, -250)],
    "I": [(2, -1100), (6, -500), (8, -250)],
    "J": [(2, -1100), (6, -355), (10, 0)],
    "K": [(18, 1100), (6, -500), (20, 1600)],
    "L": [(18, 1100), (10, 0), (10, 0)],  # rests in game 2
    "M": [(10, 0), (6, -355), (10, 0)],  # rests in game 1
}
# Evening ranking: VP, then MP, then shared place (A and D: 32 VP, +250 MP each).
EXPECTED = [
    # place, player, VP, MP, points
    (1, "K", 44, 2200, 25),
    (2, "F", 44, 1975, 18),
    (3, "L", 38, 1100, 15),
    (4, "E", 34, 520, 12),
    (5, "A", 32, 250, 10),
    (5, "D", 32, 250, 10),
    (7, "G", 32, 230, 6),
    (8, "H", 32, 85, 4),
    (9, "B", 28, -600, 2),
    (10, "M", 26, -355, 1),
    (11, "J", 18, -1455, 0),
    (12, "I", 16, -1850, 0),
    (13, "C", 14, -2350, 0),
]


def hand_computed_evening() -> Evening:
    evening = Evening(PLAYERS, EveningConfig(type=EveningType.INTERNAZIONALE))
    for pairing, results in GAMES:
        evening = evening.record(pairing, results)
    return evening


def test_club_evening_of_13_players_matches_the_hand_computed_ranking() -> None:
    evening = hand_computed_evening()
    assert evening.finished
    per_game: dict[str, list[tuple[int, int]]] = {p: [] for p in PLAYERS}
    for o in evening.outcomes:
        per_game[o.entrant].append((o.vp, o.mp))
    assert per_game == BY_HAND
    # sanity of the hand computation: 9 tables of 40 VP plus 3 rests of 10; MP sum to zero
    assert sum(vp for rows in BY_HAND.values() for vp, _ in rows) == 9 * 40 + 3 * 10
    assert sum(mp for rows in BY_HAND.values() for _, mp in rows) == 0
    ranking = evening.ranking()
    assert [(r.place, r.player, r.vp, r.mp, r.points) for r in ranking.rows] == EXPECTED
    for player, rows in BY_HAND.items():
        assert ranking.row(EntrantId(player)).vp == sum(vp for vp, _ in rows)
    assert sorted(r.player for r in ranking.rows if r.rests) == ["A", "L", "M"]
    assert ranking.best == ("K",)
    assert sum(ranking.points.values()) == sum(POINTS) - 8 + 10  # 5th shared: 10 + 10, no 8


def test_club_evening_refuses_bad_entries() -> None:
    evening = Evening(PLAYERS, EveningConfig())
    pairing, results = GAMES[0]
    with pytest.raises(ValueError, match="game 1, not 2"):
        evening.record(GAMES[1][0], GAMES[1][1])
    with pytest.raises(ValueError, match="every player present"):
        evening.record(fours(1, ["AB-CD", "EF-GH", "IJ-KL"]), results)
    with pytest.raises(ValueError, match="missing for tables"):
        evening.record(pairing, results[:2])
    assert evening.games == ()  # nothing changed
    done = hand_computed_evening()
    with pytest.raises(ValueError, match="has 3 games"):
        done.draw_game(random.Random(1))


@pytest.mark.parametrize(
    ("kind", "one_fewer", "games"),
    [
        (EveningType.INTERNAZIONALE, False, 3),
        (EveningType.INTERNAZIONALE, True, 2),
        (EveningType.ITALIANO, False, 4),
        (EveningType.ITALIANO, True, 3),
    ],
)
def test_T26_games_per_evening(kind: EveningType, one_fewer: bool, games: int) -> None:
    assert EveningConfig(type=kind, one_game_fewer=one_fewer).games == games
    assert kind.rules().players == 4
    assert kind.minutes == (50 if kind is EveningType.INTERNAZIONALE else 35)


@pytest.mark.parametrize(
    ("n", "two_left_over", "expected"),
    [
        (12, TwoLeftOver.REST, (0, 0)),
        (13, TwoLeftOver.REST, (1, 0)),
        (14, TwoLeftOver.REST, (2, 0)),
        (14, TwoLeftOver.TABLE, (0, 1)),
        (15, TwoLeftOver.TABLE, (3, 0)),
    ],
)
def test_T29_rests_per_game(n: int, two_left_over: TwoLeftOver, expected: tuple[int, int]) -> None:
    assert sit_outs(n, two_left_over) == expected


def play_evening(n: int, config: EveningConfig, seed: int) -> Evening:
    rng = random.Random(seed)
    evening = Evening.start(tuple(ids(" ".join(f"P{i:02}" for i in range(n)))), config, rng)
    while not evening.finished:
        pairing = evening.draw_game(rng)
        results = [TableResult(t.number, (rng.randrange(300) * 5, 700)) for t in pairing.tables]
        evening = evening.record(pairing, results)
    return evening


def test_T29_two_left_over_play_a_two_player_table() -> None:
    evening = play_evening(14, EveningConfig(two_left_over=TwoLeftOver.TABLE), 1)
    for game in evening.games:
        sizes = [len(t.entrants) for t in game.pairing.tables]
        assert sizes == [4, 4, 4, 2] and game.pairing.byes == ()
    twos = [e for g in evening.games for e in g.pairing.tables[-1].entrants]
    assert len(twos) == len(set(twos)) == 6


def test_T29_three_left_over_rest_three_per_game() -> None:
    evening = play_evening(15, EveningConfig(type=EveningType.ITALIANO), 2)
    rests = [e for g in evening.games for e in g.pairing.byes]
    assert [len(g.pairing.byes) for g in evening.games] == [3, 3, 3, 3]
    assert len(rests) == len(set(rests)) == 12


def test_T29_small_room_rests_again_only_after_everyone_rested() -> None:
    evening = play_evening(7, EveningConfig(type=EveningType.ITALIANO), 3)  # 3 rest per game
    counts = Counter(e for g in evening.games for e in g.pairing.byes)
    assert sum(counts.values()) == 12
    assert max(counts.values()) - min(counts[p] for p in evening.players) <= 1


@pytest.mark.parametrize("seating", list(Seating))
def test_seating_gives_new_partners_all_evening(seating: Seating) -> None:
    evening = play_evening(21, EveningConfig(type=EveningType.ITALIANO, seating=seating), 4)
    partners = Counter(frozenset(p) for g in evening.games for p in g.pairing.partner_pairs())
    assert max(partners.values()) == 1
    assert not any(g.pairing.relaxed for g in evening.games)
    if seating is Seating.MITCHELL:
        met = Counter(frozenset(p) for g in evening.games for p in g.pairing.opponent_pairs())
        assert max(met.values()) == 1


def test_danish_seating_follows_the_evening_standings() -> None:
    evening = play_evening(16, EveningConfig(seating=Seating.DANISH), 5)
    first, second = evening.games[0], evening.games[1]
    assert first.pairing.tables[0].entrants != second.pairing.tables[0].entrants
    before = Evening(evening.players, evening.config, (first,))
    leaders = {before.ranking().rows[i].player for i in range(4)}
    top_table = set(second.pairing.tables[0].entrants)
    # the four leaders after game 1 play together unless that repeats a partnership
    assert top_table == leaders or second.pairing.relaxed or len(top_table & leaders) >= 2


def test_T28_ranking_points() -> None:
    assert [ranking_points(p) for p in range(1, 12)] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1, 0]


def totals(spec: str) -> EveningRanking:
    """ "A 45 900, B 40 300" -> the ranking of those totals."""
    rows = []
    for item in spec.split(","):
        name, vp, mp = item.split()
        rows.append(Total(ids(name)[0], int(vp), int(mp)))
    return EveningRanking.from_totals(rows)


def test_season_standings_weekly_best_and_prizes() -> None:
    evening_1 = hand_computed_evening().ranking()
    evening_2 = totals("A 45 900, F 40 300, B 40 300, K 30 -100, X 25 -1500")
    evening_3 = totals("B 42 500, L 42 500, K 35 0, A 20 -1000")
    assert [(r.player, r.points) for r in evening_2.rows] == [
        ("A", 25),
        ("B", 18),
        ("F", 18),
        ("K", 12),
        ("X", 10),
    ]
    season = Season().add(evening_1).add(evening_2).add(evening_3)
    assert season.weekly_best == (("K",), ("A",), ("B", "L"))
    rows = season.standings()
    assert [(r.place, r.player, r.points) for r in rows] == [
        (1, "K", 52),  # 25 + 12 + 15
        (2, "A", 47),  # 10 + 25 + 12
        (3, "B", 45),  # 2 + 18 + 25
        (4, "L", 40),  # 15 + 25
        (5, "F", 36),  # 18 + 18
        (6, "E", 12),
        (7, "D", 10),
        (7, "X", 10),
        (9, "G", 6),
        (10, "H", 4),
        (11, "M", 1),
        (12, "C", 0),
        (12, "I", 0),
        (12, "J", 0),
    ]
    assert {r.player: r.weekly_prizes for r in rows if r.weekly_prizes} == {
        "K": 1,
        "A": 1,
        "B": 1,
        "L": 1,
    }
    assert {r.player: r.evenings for r in rows}[EntrantId("X")] == 1
    assert [r.player for r in season.prizes()] == ["K", "A", "B"]
    assert [r.player for r in season.standings_after(1)][:3] == ["K", "F", "L"]


def test_season_prizes_include_everyone_tied_for_third() -> None:
    season = Season((totals("A 40 0, B 30 0, C 20 0, D 20 0, E 10 0"),))
    assert [(r.player, r.place) for r in season.prizes()] == [
        ("A", 1),
        ("B", 2),
        ("C", 3),
        ("D", 3),
    ]
