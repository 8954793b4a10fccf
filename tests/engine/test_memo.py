"""The engine's memos stay bounded and keep what was stored last (melds.make_room)."""

from __future__ import annotations

from burraco.engine.melds import make_room


def test_make_room_forgets_the_older_half_once_full() -> None:
    memo = {key: str(key) for key in range(10)}
    make_room(memo, 11)
    assert list(memo) == list(range(10)), "below the limit nothing is forgotten"
    make_room(memo, 10)
    assert list(memo) == [5, 6, 7, 8, 9]
    assert memo[9] == "9"
