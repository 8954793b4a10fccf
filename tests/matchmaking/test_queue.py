"""Quick play's queue (issue 16): similar ratings are seated together, the accepted gap widens
while players wait, bots fill a table only for those who allowed it and after their wait, pairs
sit as partners; nobody is ever seated twice or left out of a table he could fill."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco.matchmaking import PRESETS, Group, Queue, QueueError, Seeker
from tests.depth import examples

S = PRESETS["standard"]


def one(key: int, rating: float, since: float = 0.0, bots_after: float | None = None) -> Seeker:
    return Seeker(key, (key,), rating, since, bots_after)


def test_two_players_of_similar_rating_are_seated_at_once() -> None:
    queue = Queue(2, S)
    assert queue.add(one(1, 1500), 0) is None
    assert queue.add(one(2, 2100), 0) is None  # 600 apart: not yet
    group = queue.add(one(3, 1580), 1)
    assert group is not None and {s.key for s in group.seekers} == {1, 3}
    assert group.bots == 0 and group.seats(2) == [3, 1]
    assert len(queue) == 1 and 2 in queue and 1 not in queue


def test_the_gap_widens_while_they_wait() -> None:
    queue = Queue(2, S)
    queue.add(one(1, 1500, since=0), 0)
    queue.add(one(2, 1900, since=0), 0)
    assert queue.tick(20) == []  # 400 apart, each accepts 350 after 20 s
    (group,) = queue.tick(26)  # 410 after 26 s
    assert {s.key for s in group.seekers} == {1, 2}
    assert len(queue) == 0


def test_the_nearest_rating_is_chosen() -> None:
    queue = Queue(2, S)
    for key, rating in ((1, 1200), (2, 1560), (3, 1720)):  # 160+ apart: nobody pairs yet
        assert queue.add(one(key, rating), 0) is None
    group = queue.add(one(4, 1650), 0)  # 90 below, 70 above: the one above
    assert group is not None and {s.key for s in group.seekers} == {4, 3}
    assert queue.remove(1) is not None and [s.key for s in queue.waiting()] == [2]


def test_bots_fill_only_for_those_who_allowed_them_once_their_wait_is_over() -> None:
    queue = Queue(4, S)
    queue.add(one(1, 1500, since=0, bots_after=10), 0)
    queue.add(one(2, 1520, since=0, bots_after=None), 0)
    queue.add(one(3, 1510, since=5, bots_after=30), 5)
    assert queue.tick(9) == []
    (group,) = queue.tick(11)
    # Player 1 waited his 10 s; 2 wants people only and 3's 30 s are not over: 1 and 3 bots.
    assert [s.key for s in group.seekers] == [1] and group.bots == 3
    assert group.seats(4) == [1, None, None, None]
    assert len(queue) == 2


def test_a_group_put_back_waits_again_with_its_first_time() -> None:
    """The server puts back a group whose table could not be opened: each entry keeps the
    time it joined (its bots still come after its own wait), and nobody is queued twice."""
    queue = Queue(2, S)
    queue.add(one(1, 1500, since=0, bots_after=10), 0)
    (group,) = queue.tick(11)
    assert len(queue) == 0
    for seeker in group.seekers:
        queue.put_back(seeker)
    assert [s.since for s in queue.waiting()] == [0]
    with pytest.raises(QueueError):
        queue.put_back(group.seekers[0])
    (again,) = queue.tick(12)  # its wait is still over: bots at once
    assert again.bots == 1 and len(queue) == 0


def test_a_pair_sits_as_partners_opposite() -> None:
    queue = Queue(4, S)
    queue.add(Seeker(10, (10, 11), 1500, 0), 0)
    queue.add(one(1, 1480), 0)
    group = queue.add(one(2, 1530), 0)
    assert group is not None
    seats = group.seats(4)
    assert {seats[0], seats[2]} == {10, 11} or {seats[1], seats[3]} == {10, 11}
    assert sorted(s for s in seats if s is not None) == [1, 2, 10, 11]
    # Two pairs: one line each.
    queue.add(Seeker(20, (20, 21), 1500, 0), 0)
    group = queue.add(Seeker(30, (30, 31), 1500, 0), 0)
    assert group is not None
    seats = group.seats(4)
    assert {seats[0], seats[2]} in ({20, 21}, {30, 31}) and {seats[1], seats[3]} in (
        {20, 21},
        {30, 31},
    )


def test_bad_requests_are_refused_and_change_nothing() -> None:
    queue = Queue(2, S)
    queue.add(one(1, 1500), 0)
    with pytest.raises(QueueError, match="already waiting"):
        queue.add(one(1, 1500), 0)
    with pytest.raises(QueueError, match="pair"):
        queue.add(Seeker(5, (5, 6), 1500, 0), 0)
    with pytest.raises(QueueError, match="one player or a pair"):
        Queue(4, S).add(Seeker(5, (5, 5), 1500, 0), 0)
    with pytest.raises(QueueError, match="2, 3 or 4"):
        Queue(5, S)
    assert len(queue) == 1 and queue.remove(9) is None
    with pytest.raises(ValueError, match="base_gap"):
        type(S)(base_gap=-1)


@settings(max_examples=examples(60), deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    arrivals=st.lists(
        st.tuples(
            st.floats(800, 2200),
            st.floats(0, 5),
            st.one_of(st.none(), st.floats(0, 20)),
            st.booleans(),
        ),
        max_size=40,
    ),
)
def test_nobody_is_seated_twice_and_tables_are_full(
    players: int, arrivals: list[tuple[float, float, float | None, bool]]
) -> None:
    queue = Queue(players, S)
    now = 0.0
    seated: set[int] = set()
    groups: list[Group] = []
    for key, (rating, step, bots_after, pair) in enumerate(arrivals):
        now += step
        members = (2 * key, 2 * key + 1) if pair and players == 4 else (2 * key,)
        group = queue.add(Seeker(2 * key, members, rating, now, bots_after), now)
        groups.extend([group] if group else [])
        groups.extend(queue.tick(now))
    groups.extend(queue.tick(now + 1000))
    for group in groups:
        assert isinstance(group, Group)
        people = [m for s in group.seekers for m in s.members]
        assert len(people) + group.bots == players
        assert not seated & set(people)
        seated |= set(people)
        if group.bots:
            first = group.seekers[0]
            assert first.bots_after is not None
        for s in group.seekers[1:]:
            assert abs(s.rating - group.seekers[0].rating) <= S.max_gap
    waiting = {m for s in queue.waiting() for m in s.members}
    assert not waiting & seated
    # Long after, nobody who allowed bots is still waiting.
    assert all(s.bots_after is None for s in queue.waiting())
