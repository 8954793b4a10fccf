"""A same-cards round in play, written straight into the store (tests of what it hides)."""

from __future__ import annotations

from datetime import UTC, datetime

from burraco.store import Store, TournamentStore

NOW = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


async def round_in_play(
    store: Store, tid: str, lines: tuple[tuple[str, ...], ...], *, same_cards: bool = True
) -> str:
    """A tournament ``tid`` (same cards or not) whose round 1, being played, has one
    table with ``lines``, played on the public server table ``<tid>-1``: its id."""
    tournaments = TournamentStore(store)
    await tournaments.create(
        tid,
        name=tid,
        created_by=None,
        start="sitgo",
        starts_at=None,
        size=2,
        settings={"same_cards": True} if same_cards else {},
        seed=1,
        now=NOW,
    )
    await tournaments.add_round(
        tid, 1, byes=[], relaxed=False, slots=None, tables=[(1, lines)], now=NOW
    )
    table = f"{tid}-1"
    await store.create_table(
        table,
        created_by=None,
        config={"tournament": tid},
        public=True,
        invite_code=None,
        players=2,
    )
    await tournaments.set_table(tid, 1, 1, table_id=table)
    return table
