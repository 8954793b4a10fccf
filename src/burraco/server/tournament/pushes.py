"""Who watches a tournament, and what they are sent: the tournament as it now stands after
each change (``tournament`` messages), and notices to the entrants' players
(``tournament_notice``: a table to join, an invitation, an elimination, ...)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from burraco.store import TournamentData, UserInfo

from .. import messages
from ..connection import Connection
from ..protocol import encode


class Watchers:
    """The connections watching each tournament, and the notices to players (``tell`` sends
    a message to every connection of one user: ``Hub.tell``, in every process of a cluster)."""

    def __init__(self, tell: Callable[[int, Mapping[str, Any]], int]) -> None:
        self.tell = tell
        self.watching: dict[str, set[Connection]] = {}

    def add(self, conn: Connection, tournament_id: str) -> None:
        self.watching.setdefault(tournament_id, set()).add(conn)

    def remove(self, conn: Connection, tournament_id: str) -> None:
        watching = self.watching.get(tournament_id)
        if watching is not None:
            watching.discard(conn)
            if not watching:
                del self.watching[tournament_id]

    async def push(
        self,
        tournament_id: str,
        reason: str,
        view: Callable[[str], Awaitable[dict[str, Any]]],
    ) -> None:
        """Send the tournament as it now stands (``view``) to everyone watching it."""
        watching = self.watching.get(tournament_id)
        if not watching:
            return
        for conn in [c for c in watching if c.closed]:
            watching.discard(conn)
        if not watching:
            return
        text = encode(messages.tournament(reason, await view(tournament_id)))
        for conn in list(watching):
            conn.send(text)

    def tell_users(
        self, user_ids: Sequence[int | None], message: messages.TournamentNotice
    ) -> None:
        for user_id in sorted({u for u in user_ids if u is not None}):
            self.tell(user_id, message)

    def tell_partner(
        self, user_id: int | None, tournament_id: str, notice: str, by: UserInfo
    ) -> None:
        """A notice about a pair to one of its players, naming the other (``by``)."""
        self.tell_users([user_id], messages.partner_notice(tournament_id, notice, by.name))

    def tell_table(
        self, tournament_id: str, users: Sequence[int | None], round: int, table_id: str
    ) -> None:
        """Tell the players of a table where they play."""
        self.tell_users(users, messages.table_notice(tournament_id, round, table_id))

    def notify(self, data: TournamentData, entrants: Sequence[str], notice: str) -> None:
        """A notice to the players of ``entrants``."""
        users = [u for e in data.entrants if e.entrant in set(entrants) for u in e.users]
        self.tell_users(users, messages.tournament_notice(data.info.id, notice))
