"""One quick-play queue: the players waiting for one kind of table, kept sorted by rating so
that an arrival looks only at his neighbours (bench/quickplay_bench.py measures it)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from .settings import QueueSettings


class QueueError(ValueError):
    """A request the queue refuses (already waiting, a pair where there are no pairs)."""


@dataclass(frozen=True, slots=True)
class Seeker:
    """One entry of the queue: a player, or a pair that wants to sit together (4 players)."""

    key: int
    """The entry's id (the player's user id; for a pair, its first member's)."""
    members: tuple[int, ...]
    """The user ids: one, or two for a pair (partners, R1)."""
    rating: float
    """The player's rating in the queue's mode (a pair's: the mean of the two)."""
    since: float
    """When he joined (the caller's clock, seconds)."""
    bots_after: float | None = None
    """Seconds after which bots may fill his table; None: people only."""

    @property
    def size(self) -> int:
        return len(self.members)


@dataclass(frozen=True, slots=True)
class Group:
    """People who fill one table, and how many seats bots take."""

    seekers: tuple[Seeker, ...]
    bots: int = 0

    def seats(self, players: int) -> list[int | None]:
        """User id per seat (None: a bot). With 4 players a pair sits opposite (seats 0+2 or
        1+3, R1); single players take the seats left, the first comers first."""
        seats: list[int | None] = [None] * players
        if players == 4:
            lines = [[0, 2], [1, 3]]
            singles: list[int] = []
            for seeker in self.seekers:
                if seeker.size == 2:
                    line = next(seat_pair for seat_pair in lines if seats[seat_pair[0]] is None)
                    seats[line[0]], seats[line[1]] = seeker.members
                else:
                    singles.extend(seeker.members)
            free = [s for s in range(players) if seats[s] is None]
            for seat, user in zip(free, singles, strict=False):
                seats[seat] = user
            return seats
        people = [m for seeker in self.seekers for m in seeker.members]
        for seat, user in enumerate(people):
            seats[seat] = user
        return seats


class Queue:
    def __init__(self, players: int, settings: QueueSettings) -> None:
        if players not in (2, 3, 4):
            raise QueueError(f"a table has 2, 3 or 4 players, not {players}")
        self.players = players
        self.settings = settings
        self._sorted: list[tuple[float, int]] = []
        """(rating, key), sorted: the neighbours of a rating are found by bisection."""
        self._by_key: dict[int, Seeker] = {}
        self._members: set[int] = set()

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, user_id: object) -> bool:
        return user_id in self._members

    def waiting(self) -> list[Seeker]:
        return sorted(self._by_key.values(), key=lambda s: (s.since, s.key))

    def add(self, seeker: Seeker, now: float) -> Group | None:
        """Queue ``seeker``; the group his arrival completes, if any (then nobody of it is
        left waiting)."""
        if seeker.size == 2 and self.players != 4:
            raise QueueError("only 4-player tables take a pair")
        if not 1 <= seeker.size <= 2 or len(set(seeker.members)) != seeker.size:
            raise QueueError("an entry is one player or a pair of two")
        if seeker.key in self._by_key or self._members & set(seeker.members):
            raise QueueError("already waiting in this queue")
        self._insert(seeker)
        return self._try(seeker, now, bots=False)

    def put_back(self, seeker: Seeker) -> None:
        """Queue again an entry a group had taken (its table could not be opened), with the
        time it first joined: it keeps its wait and its place."""
        if seeker.key in self._by_key or self._members & set(seeker.members):
            raise QueueError("already waiting in this queue")
        self._insert(seeker)

    def remove(self, user_id: int) -> Seeker | None:
        """Take ``user_id``'s entry out (a pair's goes as a whole); None if he was not there."""
        for seeker in self._by_key.values():
            if user_id in seeker.members:
                self._take(seeker)
                return seeker
        return None

    def tick(self, now: float) -> list[Group]:
        """Groups the passing time makes possible: wider gaps, or bots allowed to fill."""
        groups: list[Group] = []
        for seeker in self.waiting():  # the longest waiting first
            if seeker.key not in self._by_key:
                continue  # seated by an earlier group of this tick
            group = self._try(seeker, now, bots=False) or self._try(seeker, now, bots=True)
            if group is not None:
                groups.append(group)
        return groups

    # --------------------------------------------------------------------------- inside

    def _insert(self, seeker: Seeker) -> None:
        bisect.insort(self._sorted, (seeker.rating, seeker.key))
        self._by_key[seeker.key] = seeker
        self._members.update(seeker.members)

    def _take(self, seeker: Seeker) -> None:
        index = bisect.bisect_left(self._sorted, (seeker.rating, seeker.key))
        assert self._sorted[index] == (seeker.rating, seeker.key)
        del self._sorted[index]
        del self._by_key[seeker.key]
        self._members.difference_update(seeker.members)

    def _accepts(self, a: Seeker, b: Seeker, now: float) -> bool:
        """Both accept the gap between them (each by how long he has waited)."""
        gap = abs(a.rating - b.rating)
        settings = self.settings
        return gap <= settings.gap(now - a.since) and gap <= settings.gap(now - b.since)

    def _try(self, seeker: Seeker, now: float, *, bots: bool) -> Group | None:
        """A table for ``seeker`` with the nearest players in rating who accept him (and each
        other, checked against him: the window is his), or with bots when he allows them."""
        need = self.players - seeker.size
        chosen: list[Seeker] = []
        pairs = 1 if seeker.size == 2 else 0
        if need:
            widest = self.settings.gap(now - seeker.since)
            index = bisect.bisect_left(self._sorted, (seeker.rating, seeker.key))
            low, high = index - 1, index + 1
            while need and (low >= 0 or high < len(self._sorted)):
                down = seeker.rating - self._sorted[low][0] if low >= 0 else float("inf")
                up = (
                    self._sorted[high][0] - seeker.rating
                    if high < len(self._sorted)
                    else float("inf")
                )
                if min(down, up) > widest:
                    break  # everyone further is outside his window
                if down <= up:
                    other = self._by_key[self._sorted[low][1]]
                    low -= 1
                else:
                    other = self._by_key[self._sorted[high][1]]
                    high += 1
                if other.size > need or (other.size == 2 and pairs == 2):
                    continue
                if bots and (other.bots_after is None or now - other.since < other.bots_after):
                    continue  # a table with bots only for those who allowed them, by now
                if self._accepts(seeker, other, now):
                    chosen.append(other)
                    need -= other.size
                    pairs += other.size == 2
        if need and not bots:
            return None
        if need and (seeker.bots_after is None or now - seeker.since < seeker.bots_after):
            return None
        group = Group((seeker, *chosen), bots=need)
        for member in group.seekers:
            self._take(member)
        return group
