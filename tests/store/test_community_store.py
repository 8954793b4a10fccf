"""The community's tables on both backends (issue 16: "all of it in the store with Alembic
migrations, on SQLite and PostgreSQL, tested on both"): account tokens, the mail log, sessions;
relations, reports with their context and the audit; the players' matches with statistics,
filters and head-to-head; recurring schedules."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from burraco.store import (
    AccountStore,
    ChatRecord,
    ModerationStore,
    PlayerMatchRow,
    ProfileStore,
    Standing,
    Store,
    TokenError,
    TournamentStore,
)

NOW = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


def test_accounts_tokens_mail_log_and_sessions(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            accounts = AccountStore(store)
            anna = await store.create_user("Anna", "hash")
            first = await accounts.new_token(
                anna.id, "verify", "a@x.org", now=NOW, lifetime=timedelta(hours=1)
            )
            second = await accounts.new_token(
                anna.id, "verify", "a@x.org", now=NOW, lifetime=timedelta(hours=1)
            )
            with pytest.raises(TokenError) as replaced:
                await accounts.use_token(first, "verify", now=NOW)
            assert replaced.value.reason == "used"
            with pytest.raises(TokenError) as wrong:
                await accounts.use_token(second, "reset", now=NOW)
            assert wrong.value.reason == "unknown"
            with pytest.raises(TokenError) as late:
                await accounts.use_token(second, "verify", now=NOW + timedelta(hours=2))
            assert late.value.reason == "expired"
            assert await accounts.use_token(second, "verify", now=NOW) == (anna.id, "a@x.org")
            await accounts.verify_email(anna.id, "a@x.org")
            assert (await accounts.user_by_email("a@x.org")) is not None
            await accounts.log_mail("a@x.org", anna.id, "verify", now=NOW)
            assert (
                await accounts.mails_since(
                    email="a@x.org", user_id=None, since=NOW - timedelta(minutes=1)
                )
                == 1
            )
            assert (
                await accounts.mails_since(
                    email=None, user_id=anna.id, since=NOW + timedelta(minutes=1)
                )
                == 0
            )
            kept = await store.create_session(anna.id)
            await store.create_session(anna.id)
            assert len(await accounts.sessions_of(anna.id, now=datetime.now(UTC))) == 2
            ended = await accounts.end_sessions(anna.id, keep=kept)
            assert len(ended) == 1 and await store.session_user(kept) is not None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_invitation_mails_preference_and_log(db_url: str) -> None:
    """Issue 16's invitations by mail: the preference (off by default, in the export) and the
    mail log's inviter, counted per pair, per invitee and per inviter, by purpose; a deleted
    inviter leaves the log (its ``sender_id`` emptied)."""

    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            accounts = AccountStore(store)
            anna, bruno = (
                await store.create_user("Anna", "h"),
                await store.create_user("Bruno", "h"),
            )
            info = await accounts.account(anna.id)
            assert info is not None and info.mail_invitations is False
            await accounts.set_mail_invitations(anna.id, True)
            info = await accounts.account(anna.id)
            assert info is not None and info.mail_invitations and not info.mail_standings
            assert (await accounts.export(anna.id))["mail_invitations"] is True
            await accounts.log_mail("a@x.org", anna.id, "invitation", now=NOW, sender_id=bruno.id)
            await accounts.log_mail("a@x.org", anna.id, "verify", now=NOW)
            since = NOW - timedelta(minutes=1)
            count = accounts.mails_since
            assert await count(user_id=anna.id, since=since) == 2
            assert await count(user_id=anna.id, since=since, purposes=["invitation"]) == 1
            assert await count(email="a@x.org", since=since, purposes=["verify", "reset"]) == 1
            assert await count(user_id=anna.id, sender_id=bruno.id, since=since) == 1
            assert await count(sender_id=bruno.id, since=since, purposes=["invitation"]) == 1
            assert await count(sender_id=anna.id, since=since) == 0
            await accounts.delete_account(bruno.id, replacement="Deleted")
            assert await count(user_id=anna.id, since=since, purposes=["invitation"]) == 1
            assert await count(sender_id=bruno.id, since=since) == 0
        finally:
            await store.close()

    asyncio.run(scenario())


def test_relations_reports_and_the_audit(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            moderation = ModerationStore(store)
            anna, bruno = (
                await store.create_user("Anna", "h"),
                await store.create_user("Bruno", "h"),
            )
            await moderation.relate(anna.id, bruno.id, "block", now=NOW)
            await moderation.relate(anna.id, bruno.id, "follow", now=NOW)
            assert await moderation.relations(anna.id) == {"mute": [], "block": ["Bruno"]}
            assert await moderation.blocks(anna.id, bruno.id) and not await moderation.blocks(
                bruno.id, anna.id
            )
            assert await moderation.followers(bruno.id) == {anna.id}
            await store.create_table(
                "t1", created_by=anna.id, config={}, public=True, invite_code=None, players=2
            )
            for seq, (who, text) in enumerate([(anna, "ciao"), (bruno, "brutta parola")], start=1):
                await store.log_chat("t1", ChatRecord(seq, who.id, who.name, text, 1.0 * seq))
            number = await moderation.report(
                reporter_id=anna.id,
                target_id=bruno.id,
                target_name="Bruno",
                table_id="t1",
                seq=2,
                reason="insulto",
                now=NOW,
            )
            (report,) = await moderation.reports()
            assert report.id == number and report.text == "brutta parola"
            assert [c["text"] for c in report.context] == ["ciao"]
            with pytest.raises(ValueError, match="no such chat message"):
                await moderation.report(
                    reporter_id=anna.id,
                    target_id=anna.id,
                    target_name="Anna",
                    table_id="t1",
                    seq=2,
                    reason="x",
                    now=NOW,
                )
            console = Standing(0, "test", "admin", None, None, False)
            await moderation.sanction(
                console,
                "mute",
                "user:Bruno",
                now=NOW,
                user_id=bruno.id,
                values={"chat_muted_until": NOW + timedelta(minutes=5)},
            )
            standing = await moderation.standing(bruno.id)
            assert (
                standing is not None
                and standing.muted(NOW)
                and not standing.muted(NOW + timedelta(hours=1))
            )
            await moderation.close_report(console, number, "silenziato", now=NOW)
            assert (
                await moderation.reports() == []
                and len(await moderation.reports(status="closed")) == 1
            )
            assert [a["action"] for a in await moderation.audit()] == ["close_report", "mute"]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_player_matches_statistics_filters_and_head_to_head(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            profiles = ProfileStore(store)
            anna, bruno = (
                await store.create_user("Anna", "h"),
                await store.create_user("Bruno", "h"),
            )

            def row(
                table: str,
                result: str,
                rated: bool,
                opponent: int,
                at: datetime,
                *,
                rules: str = "italian",
            ) -> PlayerMatchRow:
                return PlayerMatchRow(
                    anna.id,
                    table,
                    1,
                    0,
                    at,
                    "2p",
                    rules,
                    rated,
                    result,
                    "complete",
                    3,
                    450,
                    2,
                    1,
                    2,
                    1,
                    ["Anna", "X"],
                    [opponent],
                )

            await profiles.record(
                [
                    row("a", "win", True, bruno.id, NOW),
                    row("b", "loss", False, 999, NOW + timedelta(hours=1), rules="classic"),
                ]
            )
            await profiles.record([row("a", "win", True, bruno.id, NOW)])  # again: no double
            (stats,) = await profiles.stats(anna.id)
            assert (stats.matches, stats.wins, stats.smazzate, stats.mp) == (2, 1, 6, 900)
            assert [m.table_id for m in await profiles.matches(anna.id)] == ["b", "a"]
            assert [m.table_id for m in await profiles.matches(anna.id, rated=True)] == ["a"]
            assert [m.table_id for m in await profiles.matches(anna.id, result="loss")] == ["b"]
            assert [m.table_id for m in await profiles.matches(anna.id, rules="classic")] == ["b"]
            italian = await profiles.matches(anna.id, rules="italian")
            assert [(m.table_id, m.rules) for m in italian] == [("a", "italian")]
            assert await profiles.matches(anna.id, rules="reale") == []
            assert [m.table_id for m in await profiles.matches(anna.id, opponent=bruno.id)] == ["a"]
        finally:
            await store.close()

    asyncio.run(scenario())


def test_recurring_schedules(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            tournaments = TournamentStore(store)
            olga = await store.create_user("Olga", "h")
            event = await tournaments.add_recurring(
                created_by=olga.id,
                name="Sera",
                weekdays=[4],
                at="21:00",
                zone="Europe/Rome",
                lead_minutes=1440,
                settings={"system": "danish"},
                active=True,
                created_at=NOW,
                last_start=None,
            )
            (row,) = await tournaments.recurring(user_id=olga.id)
            assert (row.id, row.weekdays, row.at) == (event, [4], "21:00")
            await tournaments.set_recurring(event, last_start=NOW)
            (row,) = await tournaments.recurring()
            assert row.last_start is not None
            await tournaments.set_recurring(event, active=False)
            assert await tournaments.recurring() == []
        finally:
            await store.close()

    asyncio.run(scenario())
