"""Ratings in the store on both backends (issue 16): a season of rated matches gives exactly the
ratings the library computes on the same results; a match is rated once; the leaderboards split
provisional players apart and have monthly boards; an abandonment penalises only the leaver;
bad input changes nothing."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce

from burraco.ratings import PRESETS, Mode, Rating, RatingsError, outcome_of
from burraco.store import (
    AccountStore,
    PlayerMatchRow,
    ProfileStore,
    RatingStore,
    Store,
    TournamentStore,
    UserInfo,
)

from .same_cards import round_in_play

S = PRESETS["standard"]
START = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def test_a_season_of_rated_matches_matches_the_library(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            ratings = RatingStore(store)
            users = [await store.create_user(f"P{i}", "x") for i in range(4)]
            keys = [f"user:{u.id}" for u in users] + ["bot:heuristic", "bot:greedy"]
            # The same season computed directly with OpenSkill, the bots kept at their anchors.
            model = PlackettLuce(mu=S.mu, sigma=S.sigma, beta=S.beta, tau=S.tau)
            anchors = {"bot:heuristic": (1650.0, 40.0), "bot:greedy": (1226.0, 40.0)}
            expected = dict.fromkeys(keys[:4], (S.mu, S.sigma)) | anchors
            rng = random.Random(7)
            for number in range(30):
                a, b = rng.sample(keys, 2)
                winner = rng.randrange(2)
                outcome = outcome_of(Mode.TWO, totals=[2005, 900][:: 1 - 2 * winner], winner=winner)
                changes = await ratings.rate_match(
                    table_id=f"t{number}",
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[a, b],
                    outcome=outcome,
                    now=START + timedelta(days=number),
                )
                assert changes is not None and [c.result for c in changes] == (
                    ["win", "loss"] if winner == 0 else ["loss", "win"]
                )
                teams = [[model.create_rating(list(expected[k]))] for k in (a, b)]
                [[ra], [rb]] = model.rate(teams, ranks=list(outcome.ranks))
                for key, new in ((a, ra), (b, rb)):
                    if key not in anchors:
                        expected[key] = (new.mu, new.sigma)
            for user, key in zip(users, keys, strict=False):
                rows = await ratings.ratings_of(user.id)
                if not rows:
                    continue
                assert rows[0].rating.mu == pytest.approx(expected[key][0], abs=1e-6)
                assert rows[0].rating.sigma == pytest.approx(expected[key][1], abs=1e-6)
                history = await ratings.history(user.id, Mode.TWO)
                assert len(history) == rows[0].matches
                assert history[-1].mu == pytest.approx(rows[0].rating.mu)
                assert [h.at for h in history] == sorted(h.at for h in history)
            # A match already rated is not rated again (a resumed server finishing it twice).
            again = await ratings.rate_match(
                table_id="t0",
                match_no=1,
                mode=Mode.TWO,
                seats=keys[:2],
                outcome=outcome_of(Mode.TWO, totals=[1, 0], winner=0),
                now=START,
            )
            assert again is None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_leaderboards_provisional_apart_and_by_month(db_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            ratings = RatingStore(store)
            anna, bruno, carla = [
                await store.create_user(n, "x") for n in ("Anna", "Bruno", "Carla")
            ]
            # Anna plays (and wins) 14 matches against the expert bot: established. Bruno and
            # Carla play one each (in December): provisional.
            for n in range(14):
                await ratings.rate_match(
                    table_id=f"a{n}",
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[f"user:{anna.id}", "bot:heuristic"],
                    outcome=outcome_of(Mode.TWO, totals=[2005, 100], winner=0 if n % 3 else 1),
                    now=START + timedelta(hours=n),
                )
            dec = datetime(2026, 12, 2, 21, 0, tzinfo=UTC)
            await ratings.rate_match(
                table_id="bc",
                match_no=1,
                mode=Mode.TWO,
                seats=[f"user:{bruno.id}", f"user:{carla.id}"],
                outcome=outcome_of(Mode.TWO, totals=[2005, 100], winner=0),
                now=dec,
            )
            board = await ratings.leaderboard(Mode.TWO)
            assert [r.name for r in board] == ["Anna"]
            assert board[0].rating.sigma <= S.provisional_sigma and board[0].matches == 14
            fresh = await ratings.leaderboard(Mode.TWO, provisional=True)
            assert [r.name for r in fresh] == ["Bruno", "Carla"]
            assert fresh[0].rating.mu > S.mu > fresh[1].rating.mu
            december = await ratings.leaderboard(Mode.TWO, provisional=True, month=(2026, 12))
            assert [r.name for r in december] == ["Bruno", "Carla"]
            assert december[0].delta == pytest.approx(fresh[0].rating.mu - S.mu)
            assert await ratings.leaderboard(Mode.TWO, month=(2026, 12)) == []
            november = await ratings.leaderboard(Mode.TWO, month=(2026, 11))
            assert [(r.name, r.matches) for r in november] == [("Anna", 14)]
            assert await ratings.leaderboard(Mode.FOUR) == []
            with pytest.raises(RatingsError, match="month"):
                await ratings.leaderboard(Mode.TWO, month=(2026, 13))
        finally:
            await store.close()

    asyncio.run(scenario())


def test_an_abandonment_penalises_the_leaver_only_and_bad_input_changes_nothing(
    db_url: str,
) -> None:
    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            ratings = RatingStore(store)
            people = [await store.create_user(n, "x") for n in ("L", "O1", "Partner", "O2")]
            seats = [f"user:{p.id}" for p in people]
            # Seat 0 leaves a 4-player match his line was winning.
            outcome = outcome_of(Mode.FOUR, totals=[1800, 200], winner=0, leaver=0)
            changes = await ratings.rate_match(
                table_id="x", match_no=1, mode=Mode.FOUR, seats=seats, outcome=outcome, now=START
            )
            assert changes is not None
            by_seat = {c.seat: c for c in changes}
            assert by_seat[0].result == "abandoned" and by_seat[2].result == "held"
            assert by_seat[1].result == by_seat[3].result == "win"
            assert by_seat[0].after.mu < S.mu - S.abandon_penalty
            assert by_seat[2].after == by_seat[2].before == Rating(S.mu, S.sigma)
            leaver = (await ratings.ratings_of(people[0].id))[0]
            assert (leaver.abandoned, leaver.matches, leaver.wins) == (1, 1, 0)
            assert await ratings.ratings_of(people[2].id) == []  # the partner: not moved
            held = await ratings.history(people[2].id, Mode.FOUR)
            assert [(h.result, h.delta) for h in held] == [("held", 0.0)]
            # An outside program cannot be rated: refused before anything is written.
            with pytest.raises(RatingsError, match="cannot be rated"):
                await ratings.rate_match(
                    table_id="y",
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[seats[1], "bot:cmd:python x.py"],
                    outcome=outcome_of(Mode.TWO, totals=[1, 0], winner=0),
                    now=START,
                )
            assert (await ratings.ratings_of(people[1].id))[0].matches == 1
            # The same person twice: refused, nothing written (the match is not marked rated).
            with pytest.raises(RatingsError, match="twice"):
                await ratings.rate_match(
                    table_id="z",
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[seats[1], seats[1]],
                    outcome=outcome_of(Mode.TWO, totals=[1, 0], winner=0),
                    now=START,
                )
            retry = await ratings.rate_match(
                table_id="z",
                match_no=1,
                mode=Mode.TWO,
                seats=[seats[1], seats[3]],
                outcome=outcome_of(Mode.TWO, totals=[1, 0], winner=0),
                now=START,
            )
            assert retry is not None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_match_of_a_deleted_account_is_left_unrated_and_out_of_profiles(db_url: str) -> None:
    """A player deleted his account before his match was rated (his rating row went with it):
    rating refuses with ``account_deleted`` and writes nothing, and the profiles' rows skip
    him. Before, the rating failed on the missing row (a foreign-key traceback in the log) and
    the profiles' rows of the others were lost with his."""

    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            ratings, accounts, profiles = (
                RatingStore(store),
                AccountStore(store),
                ProfileStore(store),
            )
            anna, bruno = [await store.create_user(n, "x") for n in ("Anna", "Bruno")]
            await accounts.delete_account(anna.id, replacement=f"Deleted-{anna.id}")
            with pytest.raises(RatingsError) as refused:
                await ratings.rate_match(
                    table_id="t1",
                    match_no=1,
                    mode=Mode.TWO,
                    seats=[f"user:{anna.id}", f"user:{bruno.id}"],
                    outcome=outcome_of(Mode.TWO, totals=[100, 2005], winner=1),
                    now=START,
                )
            assert refused.value.code == "account_deleted"
            assert await ratings.ratings_of(bruno.id) == []
            await store.create_table(
                "t1", created_by=bruno.id, config={}, public=True, invite_code=None, players=2
            )
            rows = [
                PlayerMatchRow(
                    user.id,
                    "t1",
                    1,
                    seat,
                    START,
                    "2p",
                    "italian",
                    True,
                    result,
                    "complete",
                    1,
                    0,
                    0,
                    0,
                    0,
                    0,
                    [f"Deleted-{anna.id}", "Bruno"],
                    [other.id],
                )
                for seat, (user, other, result) in enumerate(
                    [(anna, bruno, "loss"), (bruno, anna, "win")]
                )
            ]
            await profiles.record(rows)
            (mine,) = await profiles.stats(bruno.id)
            assert (mine.matches, mine.wins) == (1, 1)
            assert await profiles.stats(anna.id) == []
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_same_cards_match_is_rated_once_its_round_is_over(db_url: str) -> None:
    """Issue 27, H2: a same-cards round's match rated when it ended told its result to the
    round's other tables (the profile's ratings, the leaderboards), against docs/tournaments.md
    ("no totals, deals, MP or VP until the round is over"). ``defer_match`` keeps it, with
    ``rate_match``'s checks (a guest is refused at once); ``rate_pending`` rates it once the
    round is over, at that moment, and only once (a match rated before a crash is just
    forgotten); a deleted account's match is forgotten with its reason."""

    async def scenario() -> None:
        store = await Store.open(db_url)
        try:
            ratings, accounts = RatingStore(store), AccountStore(store)
            tournaments = TournamentStore(store)
            anna, bruno, carla, dario = [
                await store.create_user(n, "x") for n in ("Anna", "Bruno", "Carla", "Dario")
            ]
            guest = await store.create_user("Guest", None, guest=True)
            lines = ((f"u{anna.id}",), (f"u{bruno.id}",))
            table = await round_in_play(store, "sc", lines)

            def kept(table_id: str, *people: UserInfo, match_no: int = 1) -> Any:
                return ratings.defer_match(
                    table_id=table_id,
                    match_no=match_no,
                    mode=Mode.TWO,
                    seats=[f"user:{p.id}" for p in people],
                    outcome=outcome_of(Mode.TWO, totals=[1185, 390], winner=0),
                    now=START,
                )

            assert await kept(table, anna, bruno)
            assert await kept(table, anna, bruno)  # a resumed table ending again: still one
            assert await kept(table, carla, dario, match_no=2)
            assert await kept(table, dario, carla, match_no=3)
            with pytest.raises(RatingsError) as refused:
                await kept(table, anna, guest, match_no=4)
            assert refused.value.code == "guest"
            # Match 2 was rated (a crash before it was forgotten), Dario deleted his account.
            await ratings.rate_match(
                table_id=table,
                match_no=2,
                mode=Mode.TWO,
                seats=[f"user:{carla.id}", f"user:{dario.id}"],
                outcome=outcome_of(Mode.TWO, totals=[1185, 390], winner=0),
                now=START,
            )
            assert not await kept(table, carla, dario, match_no=2)  # rated: nothing to keep
            await accounts.delete_account(dario.id, replacement=f"Deleted-{dario.id}")

            assert await ratings.rate_pending(START + timedelta(hours=1)) == []  # in play
            assert await ratings.ratings_of(anna.id) == []
            assert await ratings.leaderboard(Mode.TWO, provisional=True) != []  # Carla's
            assert anna.id not in {
                r.user_id for r in await ratings.leaderboard(Mode.TWO, provisional=True)
            }

            later = START + timedelta(days=40)
            await tournaments.finish_round("sc", 1, later)
            done = await ratings.rate_pending(later)
            assert [(d.table_id, d.match_no) for d in done] == [(table, n) for n in (1, 2, 3)]
            assert done[0].changes is not None and done[1].changes is None
            assert done[2].unrated is not None and done[2].unrated.code == "account_deleted"
            (rated,) = await ratings.ratings_of(anna.id)
            assert (rated.matches, rated.wins) == (1, 1)
            (point,) = await ratings.history(anna.id, Mode.TWO)
            assert (point.at, point.table_id) == (later, table)  # rated at the round's end
            assert await ratings.rate_pending(later) == []
            assert (await ratings.ratings_of(anna.id))[0].matches == 1
        finally:
            await store.close()

    asyncio.run(scenario())
