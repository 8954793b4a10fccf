"""The players' matches in the database (``ProfileStore(store)``): one row per person and
finished match with its figures (``burraco.ratings.summarize``); the profile's statistics per
mode, the history with its filters and the head-to-head are read from them, never those of a
same-cards round still being played (``hidden.same_cards_in_play``: their result would tell the
cards to the round's other tables)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Integer, func, select

from . import models
from . import rating_models as m
from .hidden import same_cards_in_play
from .store import Store, _aware


@dataclass(frozen=True, slots=True)
class PlayerMatchRow:
    user_id: int
    table_id: str
    match_no: int
    seat: int
    finished_at: datetime
    mode: str
    rules: str
    rated: bool
    result: str
    ended: str
    smazzate: int
    mp: int
    burrachi_clean: int
    burrachi_dirty: int
    pozzetti: int
    closings: int
    players: list[str]
    opponent_ids: list[int]


@dataclass(frozen=True, slots=True)
class ModeStats:
    mode: str
    matches: int
    wins: int
    draws: int
    smazzate: int
    mp: int
    burrachi_clean: int
    burrachi_dirty: int
    pozzetti: int
    closings: int


def _row(r: m.PlayerMatch) -> PlayerMatchRow:
    return PlayerMatchRow(
        r.user_id,
        r.table_id,
        r.match_no,
        r.seat,
        _aware(r.finished_at),
        r.mode,
        r.rules,
        r.rated,
        r.result,
        r.ended,
        r.smazzate,
        r.mp,
        r.burrachi_clean,
        r.burrachi_dirty,
        r.pozzetti,
        r.closings,
        list(r.players),
        list(r.opponent_ids),
    )


class ProfileStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, rows: Sequence[PlayerMatchRow]) -> None:
        """Store a finished match's rows (again: the same rows, a resumed table's). The row of
        a player whose account is gone meanwhile is not written (nobody's profile to add to)."""
        async with self.store.write() as session:
            wanted = {row.user_id for row in rows}
            present = set(
                (
                    await session.scalars(select(models.User.id).where(models.User.id.in_(wanted)))
                ).all()
            )
            for row in rows:
                if row.user_id not in present:
                    continue
                await session.merge(m.PlayerMatch(**{f: getattr(row, f) for f in row.__slots__}))

    @staticmethod
    def visible(user_id: int) -> tuple[ColumnElement[bool], ...]:
        """The conditions of every read of the player's rows: his, and none of a same-cards
        round still being played (docs/tournaments.md, "Same cards")."""
        p = m.PlayerMatch
        return (p.user_id == user_id, ~same_cards_in_play(p.table_id))

    async def stats(self, user_id: int) -> list[ModeStats]:
        """The player's figures per mode, summed over his matches (``visible``'s)."""
        p = m.PlayerMatch
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(
                        p.mode,
                        func.count(),
                        func.sum((p.result == "win").cast(Integer)),
                        func.sum((p.result == "draw").cast(Integer)),
                        func.sum(p.smazzate),
                        func.sum(p.mp),
                        func.sum(p.burrachi_clean),
                        func.sum(p.burrachi_dirty),
                        func.sum(p.pozzetti),
                        func.sum(p.closings),
                    )
                    .where(*self.visible(user_id))
                    .group_by(p.mode)
                    .order_by(p.mode)
                )
            ).all()
        return [ModeStats(r[0], *(int(v or 0) for v in r[1:])) for r in rows]

    async def matches(
        self,
        user_id: int,
        *,
        mode: str | None = None,
        rules: str | None = None,
        rated: bool | None = None,
        result: str | None = None,
        opponent: int | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> list[PlayerMatchRow]:
        """The player's matches, newest first, filtered; ``opponent``: only those against him
        (head-to-head; filtered here, a player has at most thousands of matches). Only his
        ``visible`` matches."""
        p = m.PlayerMatch
        query = select(p).where(*self.visible(user_id))
        if mode is not None:
            query = query.where(p.mode == mode)
        if rules is not None:
            query = query.where(p.rules == rules)
        if rated is not None:
            query = query.where(p.rated.is_(rated))
        if result is not None:
            query = query.where(p.result == result)
        query = query.order_by(p.finished_at.desc(), p.table_id)
        async with self.store.sessions() as session:
            if opponent is None:
                found = (await session.scalars(query.limit(limit).offset(offset))).all()
                return [_row(r) for r in found]
            every = (await session.scalars(query)).all()
        against = [_row(r) for r in every if opponent in r.opponent_ids]
        return against[offset : offset + limit]
