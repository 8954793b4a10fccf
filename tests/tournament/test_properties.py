"""Property tests (hypothesis) of the pairing systems, the standings and the club rests."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.tournament import (
    BracketMode,
    EntrantId,
    Evening,
    EveningConfig,
    EveningType,
    History,
    Knockout,
    Mitchell,
    Outcome,
    Pairing,
    RematchPolicy,
    Seating,
    Standings,
    TableResult,
    TwoLeftOver,
    danish_round,
    first_round,
    individual_round,
    round_outcomes,
    seat_fours,
    sit_outs,
)
from burraco.tournament.matching import first_perfect_matching, maximum_matching
from tests.depth import examples

SETTINGS = settings(max_examples=examples(120), deadline=None)


def names(n: int) -> tuple[EntrantId, ...]:
    return tuple(EntrantId(f"E{i:02}") for i in range(n))


def random_results(pairing: Pairing, rng: random.Random) -> list[TableResult]:
    return [
        TableResult(t.number, (rng.randrange(0, 400) * 5, rng.randrange(0, 400) * 5))
        for t in pairing.tables
    ]


def has_perfect_matching(
    players: Sequence[EntrantId], forbidden: set[frozenset[EntrantId]]
) -> bool:
    """Brute force: can ``players`` be paired without a forbidden pair?"""

    @functools.cache
    def ok(rest: frozenset[EntrantId]) -> bool:
        if not rest:
            return True
        first = min(rest)
        return any(
            frozenset((first, other)) not in forbidden and ok(rest - {first, other})
            for other in rest
            if other != first
        )

    return ok(frozenset(players))


def max_matching(players: Sequence[EntrantId], allowed: set[frozenset[EntrantId]]) -> int:
    """Brute force: the most disjoint ``allowed`` pairs among ``players``."""

    @functools.cache
    def best(rest: frozenset[EntrantId]) -> int:
        if len(rest) < 2:
            return 0
        first = min(rest)
        without = best(rest - {first})
        with_first = [1 + best(rest - {first, o}) for o in rest if frozenset((first, o)) in allowed]
        return max([without, *with_first])

    return best(frozenset(players))


def check_round(pairing: Pairing, entrants: Sequence[EntrantId]) -> None:
    """Nobody is paired twice in one round; everyone is paired or has a bye."""
    seated = list(pairing.entrants)
    assert len(seated) == len(set(seated))
    assert sorted(seated) == sorted(entrants)


@SETTINGS
@given(
    n=st.integers(2, 13),
    rounds=st.integers(1, 12),
    policy=st.sampled_from(list(RematchPolicy)),
    seed=st.integers(0, 2**32 - 1),
)
def test_danish_rounds(n: int, rounds: int, policy: RematchPolicy, seed: int) -> None:
    """Danish: nobody paired twice in a round, everyone paired or with a bye, no second bye before
    everyone had one, and ``never`` never rematches when a complete pairing exists."""
    rng = random.Random(seed)
    entrants = names(n)
    played: list[Pairing] = []
    outcomes: list[Outcome] = []
    for rnd in range(1, rounds + 1):
        history = History.of(played)
        if rnd == 1:
            pairing = first_round(entrants, rng)
        else:
            order = Standings.of(outcomes, entrants).pairing_order(rng)
            pairing = danish_round(
                order, history, round=rnd, last_round=rnd == rounds, policy=policy
            )
        check_round(pairing, entrants)
        assert len(pairing.byes) == n % 2
        byes = Counter(b for p in (*played, pairing) for b in p.byes)
        assert max((byes[e] for e in entrants), default=0) - min(byes[e] for e in entrants) <= 1
        if rnd > 1:
            last = rnd == rounds
            earlier = {
                RematchPolicy.ALLOWED: set(),
                RematchPolicy.NOT_PREVIOUS_ROUND: set() if last else set(history.last_opponents),
                RematchPolicy.NEVER: set(history.opponents),
            }[policy]
            seated = [e for t in pairing.tables for e in t.entrants]
            rematches = {frozenset(p) for p in pairing.opponent_pairs()} & earlier
            if has_perfect_matching(seated, earlier):
                # the policy is kept whenever a complete pairing exists (T19)
                assert not rematches and not pairing.relaxed
            else:
                assert pairing.relaxed
        played.append(pairing)
        outcomes.extend(round_outcomes(pairing, random_results(pairing, rng)))


@SETTINGS
@given(
    n=st.integers(0, 7).map(lambda k: 2 * k),
    density=st.floats(0, 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_first_perfect_matching_is_what_depth_first_search_finds(
    n: int, density: float, seed: int
) -> None:
    """The matching-guided search gives exactly the pairing of T19's plain depth-first search."""
    rng = random.Random(seed)
    edges = {frozenset(e) for e in itertools.combinations(range(n), 2) if rng.random() < density}
    adj = [[j for j in range(n) if frozenset((i, j)) in edges] for i in range(n)]

    @functools.cache
    def dfs(rest: frozenset[int]) -> tuple[tuple[int, int], ...] | None:
        if not rest:
            return ()
        top = min(rest)
        for j in adj[top]:
            if j in rest:
                tail = dfs(rest - {top, j})
                if tail is not None:
                    return ((top, j), *tail)
        return None

    expected = dfs(frozenset(range(n)))
    got = first_perfect_matching(adj)
    assert (None if got is None else tuple(got)) == expected
    match = maximum_matching(adj)
    assert all(
        m == -1 or (match[m] == v and frozenset((v, m)) in edges) for v, m in enumerate(match)
    )


@SETTINGS
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32 - 1))
def test_mitchell_never_repeats_within_the_number_of_tables(n: int, seed: int) -> None:
    entrants = list(names(n))
    random.Random(seed).shuffle(entrants)
    m = Mitchell.seat(entrants)
    met: Counter[frozenset[EntrantId]] = Counter()
    for r in range(1, m.max_rounds + 1):
        pairing = m.round(r)
        check_round(pairing, entrants)
        met.update(frozenset(p) for p in pairing.opponent_pairs())
        # NS lines keep their table
        assert all(t.lines[0][0] == m.ns[t.number - 1] for t in pairing.tables)
    assert max(met.values()) == 1
    assert len(met) == len(m.ns) * sum(e is not None for e in m.ew)


@SETTINGS
@given(
    n=st.integers(2, 70),
    mode=st.sampled_from(list(BracketMode)),
    seed=st.integers(0, 2**32 - 1),
)
def test_knockout_brackets(n: int, mode: BracketMode, seed: int) -> None:
    rng = random.Random(seed)
    entrants = names(n)
    ko = Knockout.draw(entrants, rng, mode)
    size = 1 << (n - 1).bit_length()
    assert ko.size == len(ko.rounds[0].slots) == size and size // 2 < n <= size
    assert all(a is not None or b is not None for a, b in ko.rounds[0].matches)
    assert sum(s is None for s in ko.rounds[0].slots) == size - n
    while ko.current is not None:
        pairing = ko.current.pairing()
        check_round(pairing, [e for e in ko.current.slots if e is not None])
        assert len(ko.current.slots) == size >> (ko.current.round - 1)
        if ko.current.round > 1:
            assert pairing.byes == ()
        ko = ko.advance([t.lines[rng.randrange(2)][0] for t in pairing.tables], rng)
    ranking = ko.ranking()
    assert sorted(e for _, group in ranking for e in group) == sorted(entrants)
    assert [place for place, _ in ranking][:2] == [1, 2]
    assert len(ranking) == ko.total_rounds + 1


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(-3, 3)), min_size=1, max_size=25),
    st.integers(0, 2**32 - 1),
)
def test_standings_are_a_total_order(scores: list[tuple[int, int]], seed: int) -> None:
    """The pairing order is a permutation that never puts a lower (VP, MP) ahead, and the same
    rng seed gives the same order; places follow standard competition ranking."""
    outcomes = [
        Outcome(EntrantId(f"E{i:02}"), 1, vp * 2, mp * 5) for i, (vp, mp) in enumerate(scores)
    ]
    standings = Standings.of(outcomes)
    order = standings.pairing_order(random.Random(seed))
    assert sorted(order) == sorted(o.entrant for o in outcomes)
    keys = {r.entrant: (r.vp, r.mp) for r in standings.rows}
    assert all(keys[a] >= keys[b] for a, b in itertools.pairwise(order))
    assert order == standings.pairing_order(random.Random(seed))
    for i, row in enumerate(standings.rows):
        better = sum(keys[e] > (row.vp, row.mp) for e in keys)
        assert row.place == better + 1
        assert row.tied == (sum(keys[e] == (row.vp, row.mp) for e in keys) > 1)
        if i:
            assert standings.rows[i - 1].place <= row.place


@SETTINGS
@given(
    n=st.integers(4, 30),
    config=st.builds(
        EveningConfig,
        type=st.sampled_from(list(EveningType)),
        one_game_fewer=st.booleans(),
        seating=st.sampled_from(list(Seating)),
        two_left_over=st.sampled_from(list(TwoLeftOver)),
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_evening_rests_never_repeat_a_name(n: int, config: EveningConfig, seed: int) -> None:
    rng = random.Random(seed)
    evening = Evening.start(names(n), config, rng)
    while not evening.finished:
        pairing = evening.draw_game(rng)
        check_round(pairing, evening.players)
        assert len(pairing.byes) == sit_outs(n, config.two_left_over)[0]
        evening = evening.record(pairing, random_results(pairing, rng))
    rests = Counter(e for g in evening.games for e in g.pairing.byes)
    if sum(rests.values()) <= n:
        assert max(rests.values(), default=0) <= 1  # nobody rests twice in an evening
    else:
        assert max(rests.values()) - min(rests[p] for p in evening.players) <= 1
    ranking = evening.ranking()
    assert len(ranking.rows) == n
    assert sum(r.vp for r in ranking.rows) == sum(
        40 if len(t.entrants) == 4 else 20 for g in evening.games for t in g.pairing.tables
    ) + 10 * sum(rests.values())


@SETTINGS
@given(
    n=st.sampled_from([4, 8, 12, 16]),
    rounds=st.integers(0, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_individual_seating_has_the_fewest_repeated_partners(
    n: int, rounds: int, seed: int
) -> None:
    """Individuals at 4-player tables: repeated partnerships only when unavoidable, and then
    as few as possible (n/2 minus the largest set of new partnerships)."""
    rng = random.Random(seed)
    players = list(names(n))
    played: list[Pairing] = []
    for rnd in range(1, rounds + 1):
        rng.shuffle(players)
        played.append(individual_round(players, History.of(played), round=rnd))
    history = History.of(played)
    rng.shuffle(players)
    seated, repeats = seat_fours(players, history)
    assert sorted(e for a, b in seated for e in (*a, *b)) == sorted(players)
    assert all(len(a) == len(b) == 2 for a, b in seated)
    actual = sum(history.partnered(*line) > 0 for table in seated for line in table)
    assert actual == repeats
    new = {frozenset(p) for p in itertools.combinations(players, 2) if history.partnered(*p) == 0}
    assert repeats == n // 2 - max_matching(players, new)
