"""A whole season simulated end to end (issue 7) through the club service on the database:
the calendar created (and exported as .ics, parsed back), 16 evenings with check-ins (some late:
refused, or admitted by an officer with a reason), rests drawn by the system for every odd (and
even) remainder, results entered, a score check and one correction with its audit entry, fees
paid and owed, the standings and the prizes; the e-mails received by a local SMTP server.

The draws are the system's, so the expected rankings are computed here by hand from RULES.md
(VP-3 of 4.4, T27-T29; ``helpers.vp3`` and ``helpers.evening_ranking``) from the scores this test
entered and the seatings drawn, never with ``burraco.tournament``. The fees are literal.
"""

from __future__ import annotations

import asyncio
import email
import socket
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest
from aiosmtpd.controller import Controller

from burraco.club.errors import ClubError
from burraco.club.mail import SmtpConfig, mail_calendar, mail_standings
from burraco.club.service import Actor, ClubService, ResultInput
from burraco.store import Store

from .helpers import evening_ranking, vp3

ROME = ZoneInfo("Europe/Rome")
ANNA = Actor.of_console("Anna")
PLAYERS = [
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Fabio",
    "Gina",
    "Ivo",
    "Lea",
    "Mara",
    "Nino",
    "Olga",
    "Ugo",
    "Pia",
]
NO_ADDRESS = {"Ugo", "Pia"}
ABSENT = {
    1: {"Pia"},
    2: set(),
    3: {"Ugo", "Lea", "Pia"},  # Pia comes at 20:50 and is refused
    4: {"Nino"},
    5: {"Olga"},
    6: {"Olga"},  # Bruno comes at 20:52 and is admitted by Anna, with a reason
    7: {"Olga", "Ivo"},
    8: {"Olga"},
    9: {"Olga", "Carla", "Dario"},
    10: set(),
    11: {"Pia"},
    12: {"Pia", "Gina"},
    13: set(),  # Fabio late, admitted
    14: {"Elena"},
    15: {"Mara", "Nino", "Pia"},
    16: {"Pia"},
}
SCORES = [(1200, 700), (900, 880), (300, 1400), (650, 800), (1505, 0), (455, 400), (600, 600)]
SCORES += [(1000, 745), (100, 905), (2000, 150), (-35, 260), (820, 815)]


def scores(evening: int, game: int, table: int) -> tuple[int, int]:
    return SCORES[(evening * 7 + game * 3 + table) % len(SCORES)]


class Inbox:
    """aiosmtpd handler: keeps every message received."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(message, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def at(day: date, hh: int, mm: int) -> datetime:
    return datetime.combine(day, time(hh, mm), ROME)


async def season(url: str, smtp: SmtpConfig, inbox: Inbox) -> None:
    store = await Store.open(url)
    svc = ClubService(store, clock=lambda: datetime(2026, 12, 19, 10, 0, tzinfo=UTC))
    try:
        await run_season(svc, smtp, inbox)
    finally:
        await store.close()


async def run_season(svc: ClubService, smtp: SmtpConfig, inbox: Inbox) -> None:
    club = await svc.create_club(ANNA, "Circolo del Venerdì", place="Sala grande")
    for name in PLAYERS:
        address = None if name in NO_ADDRESS else f"{name.lower()}@example.org"
        await svc.add_member(ANNA, club.id, name, email=address, officer=name == "Anna")
    await svc.add_member(ANNA, club.id, "Zeno", email="zeno@example.org")
    await svc.update_member(ANNA, club.id, "Zeno", active=False)
    s = await svc.create_season(
        ANNA,
        club.id,
        "Autunno 2026",
        starts_on=date(2026, 9, 1),
        ends_on=date(2026, 12, 31),
        monthly_fee_cents=2000,
        pool_share_cents=500,
        weekly_prize_cents=300,
        season_prizes_cents=(5000, 3000, 2000),
    )
    evenings = await svc.create_calendar(ANNA, s.id)
    assert [e.date for e in evenings] == [date(2026, 9, 4) + timedelta(weeks=k) for k in range(16)]
    italiano = [k for k, e in enumerate(evenings, 1) if e.type == "italiano"]
    assert italiano == [2, 5, 9, 12, 15]  # 11 + 5 (seed 003), Italiano spread over the season
    # The officers play one game fewer on evening 12 (T26): an Italiano of 3 games.
    await svc.update_evening(ANNA, evenings[11].id, one_game_fewer=True, reason="assemblea")

    # ---- the calendar as .ics, parsed back
    parsed = icalendar.Calendar.from_ical(await svc.calendar_ics(s.id))
    events = sorted(parsed.walk("VEVENT"), key=lambda e: e.decoded("DTSTART"))
    assert len(events) == 16
    first, second, twelfth = events[0], events[1], events[11]
    assert first.decoded("DTSTART") == datetime(2026, 9, 4, 18, 30, tzinfo=UTC)  # 20:30 CEST
    # check-in closes 20:45, 3 games of 50 min with a 15 min break after two: 23:30
    assert first.decoded("DTEND") == datetime(2026, 9, 4, 21, 30, tzinfo=UTC)
    assert "Internazionale" in str(first["SUMMARY"]) and "Italiano" in str(second["SUMMARY"])
    # Italiano: 4 games of 35 min + break: 20:45 + 155 min = 23:20 CEST
    assert second.decoded("DTEND") == datetime(2026, 9, 11, 21, 20, tzinfo=UTC)
    # evening 12 (20 November, CET): 3 games of 35 min + break: 20:45 + 120 min = 22:45
    assert twelfth.decoded("DTSTART") == datetime(2026, 11, 20, 19, 30, tzinfo=UTC)
    assert twelfth.decoded("DTEND") == datetime(2026, 11, 20, 21, 45, tzinfo=UTC)
    assert str(first["LOCATION"]) == "Sala grande"

    # ---- the calendar and the rules by e-mail
    sent = await mail_calendar(svc, ANNA, s.id, smtp)
    expected_to = sorted(f"{p.lower()}@example.org" for p in PLAYERS if p not in NO_ADDRESS)
    assert sorted(sent) == expected_to
    assert sorted(to[0] for to, _ in inbox.messages) == expected_to
    _, message = inbox.messages[0]
    assert "calendario" in str(message["Subject"])
    ics_parts = [p for p in message.iter_attachments() if p.get_filename() == "calendar.ics"]
    assert len(ics_parts) == 1
    again = icalendar.Calendar.from_ical(ics_parts[0].get_content())
    assert len(list(again.walk("VEVENT"))) == 16
    body = message.get_body(("plain",))
    assert body is not None and "20:45" in body.get_content()  # the rules: late players
    inbox.messages.clear()

    # ---- 16 evenings
    entered: dict[tuple[int, int, int], tuple[int, int]] = {}
    for k, ev in enumerate(evenings, 1):
        present = [p for p in PLAYERS if p not in ABSENT[k]]
        on_time = [p for p in present if (k, p) not in ((6, "Bruno"), (13, "Fabio"))]
        half = len(on_time) // 2
        await svc.checkins(ANNA, ev.id, on_time[:half], at=at(ev.date, 20, 30))
        await svc.checkins(ANNA, ev.id, on_time[half:], at=at(ev.date, 20, 44 + k % 2))
        if k == 3:
            with pytest.raises(ClubError) as refused:
                await svc.checkin(ANNA, ev.id, "Pia", at=at(ev.date, 20, 50))
            assert refused.value.code == "late"
        if k in (6, 13):
            late = "Bruno" if k == 6 else "Fabio"
            with pytest.raises(ClubError):
                await svc.checkin(ANNA, ev.id, late, at=at(ev.date, 20, 52))
            info = await svc.checkin(
                ANNA, ev.id, late, at=at(ev.date, 20, 52), override="flat tyre, phoned at 20:40"
            )
            assert info.late
        await svc.draw(ANNA, ev.id, seed=1000 + k, at=at(ev.date, 20, 45))
        games = 4 if k in italiano else 3
        if k == 12:
            games = 3
        view = await svc.evening(None, ev.id)
        for g in range(1, games + 1):
            game = view.game(g)
            # T29: N mod 4 rest (two rest when N mod 4 = 2, the season's default)
            assert len(game.rests) == len(present) % 4
            results = []
            for table in game.tables:
                assert len(table.lines[0]) == len(table.lines[1]) == 2
                entered[(k, g, table.number)] = scores(k, g, table.number)
                results.append(ResultInput(table.number, *scores(k, g, table.number)))
            view = await svc.enter_results(ANNA, ev.id, g, results)
            if k == 5 and g == 2:
                # During the break a player asks for a check of game 1, table 1, which the
                # officer corrects with a reason: the rankings are recomputed.
                view = await svc.evening(None, ev.id)
                lea_or_other = view.game(1).tables[0].lines[0][0]
                check = await svc.request_check(
                    Actor.of_console(lea_or_other), ev.id, 1, 1, note="NS had 1250"
                )
                old = entered[(5, 1, 1)]
                entered[(5, 1, 1)] = (1250, old[1])
                view = await svc.correct_result(
                    ANNA, ev.id, 1, 1, ns=1250, ew=old[1], reason="scoresheet misread: NS 1250"
                )
        assert view.finished and len(view.games) == games
        # Nobody rests twice while another has not rested (T29).
        rests = Counter(r for g in view.games for r in g.rests)
        if rests:
            assert max(rests.values()) - min(rests.get(p, 0) for p in present) <= 1
        assert sum(rests.values()) == games * (len(present) % 4)
        check_evening(view, entered, k)

    # ---- the correction's audit entry and the check it closed
    trail = await svc.audit_trail(ANNA, club.id, action_prefix="result.correct")
    assert len(trail) == 1
    entry = trail[0]
    assert entry.actor == "Anna" and entry.reason == "scoresheet misread: NS 1250"
    assert entry.before == {"ns": old[0], "ew": old[1]}
    assert entry.after == {"ns": 1250, "ew": old[1]}
    assert entry.evening_id == evenings[4].id and entry.at.tzinfo is not None
    fifth = await svc.evening(None, evenings[4].id)
    assert [c.info.status for c in fifth.checks] == ["corrected"]
    assert fifth.checks[0].info.id == check.id
    overrides = await svc.audit_trail(ANNA, club.id, action_prefix="checkin.override")
    assert [(e.reason, e.after["member"]) for e in overrides] == [
        ("flat tyre, phoned at 20:40", "Bruno"),
        ("flat tyre, phoned at 20:40", "Fabio"),
    ]

    # ---- season standings, weekly prizes, top-3 prizes, by hand
    rankings = []
    for k, ev in enumerate(evenings, 1):
        rankings.append(hand_ranking(await svc.evening(None, ev.id), entered, k))
    points: Counter[str] = Counter()
    for ranking in rankings:
        for _, player, _, _, gained in ranking:
            points[player] += gained
    standings = await svc.standings(ANNA, s.id)
    order = sorted(points, key=lambda p: (-points[p], p))
    places = {p: 1 + sum(1 for q in order if points[q] > points[p]) for p in order}
    assert [(r.place, r.player, r.points) for r in standings.rows] == [
        (places[p], p, points[p]) for p in order
    ]
    weekly = [(k, r[1]) for k, ranking in enumerate(rankings, 1) for r in ranking if r[0] == 1]
    prizes = await svc.prizes(ANNA, s.id)
    assert [(w.number, w.player, w.value_cents) for w in prizes.weekly] == [
        (k, p, 300) for k, p in weekly
    ]
    amounts = [5000, 3000, 2000] + [0] * len(order)
    expected_top = []
    for p in order:
        if places[p] <= 3:
            tied = [q for q in order if points[q] == points[p]]
            pool = sum(amounts[places[p] - 1 : places[p] - 1 + len(tied)])
            expected_top.append((places[p], p, round(Fraction(pool, len(tied)))))
    assert [(x.place, x.player, x.value_cents) for x in prizes.season] == expected_top
    # the partial standings after 5 evenings (the chart's data, the e-mails)
    partial = await svc.standings(ANNA, s.id, after=5)
    after5: Counter[str] = Counter()
    for ranking in rankings[:5]:
        for _, player, _, _, gained in ranking:
            after5[player] += gained
    assert {r.player: r.points for r in partial.rows} == dict(after5)
    assert {p: v[-1] for p, v in standings.progress.items()} == dict(points)

    # ---- fees: 20 euros per month played, due at the first evening played that month
    await svc.record_payment(ANNA, s.id, "Bruno", 8000, paid_on=date(2026, 9, 4))
    for day in (date(2026, 9, 4), date(2026, 10, 2), date(2026, 11, 6), date(2026, 12, 4)):
        await svc.record_payment(ANNA, s.id, "Carla", 2000, paid_on=day)
    await svc.record_payment(ANNA, s.id, "Olga", 4000, paid_on=date(2026, 9, 4))
    for name in ["Anna", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Lea", "Mara", "Nino", "Ugo"]:
        await svc.record_payment(ANNA, s.id, name, 6000, paid_on=date(2026, 11, 6))
    await svc.add_charge(
        ANNA, s.id, "Dario", -1000, reason="set up the room all season", due_on=date(2026, 12, 4)
    )
    fees = await svc.fees(ANNA, s.id)
    balances = {a.member: (a.owed_cents, a.paid_cents, a.balance_cents) for a in fees.accounts}
    # Olga missed all of October: 3 months; Pia played in September (from the 11th), October,
    # November and December: 4 months; everyone else 4 months (80 euros).
    assert balances["Olga"] == (6000, 4000, 2000)
    assert balances["Pia"] == (8000, 0, 8000)
    assert balances["Bruno"] == (8000, 8000, 0)
    assert balances["Carla"] == (8000, 8000, 0)
    assert balances["Dario"] == (7000, 6000, 1000)
    assert balances["Anna"] == (8000, 6000, 2000)
    assert "Zeno" not in balances
    pia = fees.account("Pia")
    assert [(f.period, f.due_on) for f in pia.fees] == [
        ("2026-09", date(2026, 9, 11)),
        ("2026-10", date(2026, 10, 2)),
        ("2026-11", date(2026, 11, 6)),
        ("2026-12", date(2026, 12, 4)),
    ]
    # 12 members x 4 months + Olga 3 + Pia 4 = 55 monthly fees
    assert fees.monthly_fees == 55
    assert (fees.owed_cents, fees.paid_cents, fees.outstanding_cents) == (109_000, 80_000, 29_000)
    assert fees.pool_cents == 55 * 500
    assert fees.prizes_cents == 300 * len(weekly) + 10_000

    # ---- reports
    report = await svc.member_report(Actor.of_console("Olga"), s.id, "Olga")
    assert report.attended == 16 - 5 and report.account is not None
    assert report.standing is not None and report.standing.points == points["Olga"]
    with pytest.raises(ClubError):
        await svc.member_report(Actor.of_console("Olga"), s.id, "Pia")  # members: their own
    club_report = await svc.club_report(ANNA, s.id)
    assert club_report.corrections == 1 and club_report.count("finished") == 16
    assert [e.players for e in club_report.evenings] == [14 - len(ABSENT[k]) for k in range(1, 17)]
    assert sum(e.late for e in club_report.evenings) == 2

    # ---- close the season: the prizes are stored
    closed = await svc.close_season(ANNA, s.id)
    assert len(closed.awarded) == len(weekly) + len(expected_top)

    # ---- the partial and general standings after the last evening, by e-mail
    sent = await mail_standings(svc, ANNA, evenings[15].id, smtp)
    assert sorted(sent) == expected_to
    assert len(inbox.messages) == len(expected_to)
    _, message = inbox.messages[0]
    assert "18" in str(message["Subject"])  # the evening of 2026-12-18
    names = sorted(p.get_filename() or "" for p in message.iter_attachments())
    assert names == ["evening.csv", "standings.csv", "standings.png"]
    text = message.get_body(("plain",))
    assert text is not None
    content = text.get_content()
    winner = order[0]
    assert "Classifica generale" in content and winner in content
    last = rankings[15]
    assert f"{last[0][1]}" in content.split("Classifica generale")[0]
    published = await svc.evening(None, evenings[15].id)
    assert published.evening.published_at is not None


def hand_ranking(
    view: Any, entered: dict[tuple[int, int, int], tuple[int, int]], k: int
) -> list[tuple[int, str, int, int, int]]:
    """The evening ranking by hand: each table's VP from VP-3, MP the signed difference,
    a rest 10 VP and 0 MP (T29), then T27/T28."""
    totals: dict[str, tuple[int, int]] = {}

    def add(player: str, vp: int, mp: int) -> None:
        old = totals.get(player, (0, 0))
        totals[player] = (old[0] + vp, old[1] + mp)

    for game in view.games:
        for table in game.tables:
            ns, ew = entered[(k, game.number, table.number)]
            vp = vp3(ns, ew)
            for player in table.lines[0]:
                add(player, vp[0], ns - ew)
            for player in table.lines[1]:
                add(player, vp[1], ew - ns)
        for player in game.rests:
            add(player, 10, 0)
    return evening_ranking(totals)


def check_evening(view: Any, entered: dict[tuple[int, int, int], tuple[int, int]], k: int) -> None:
    assert [(r.place, r.player, r.vp, r.mp, r.points) for r in view.ranking.rows] == hand_ranking(
        view, entered, k
    )


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_whole_season(backend: str, request: pytest.FixtureRequest, tmp_path: Any) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'season.db'}"
    else:
        from ..store import postgres

        url = request.getfixturevalue("club_postgres_database")
        postgres.truncate_all(url)
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        smtp = SmtpConfig("127.0.0.1", port, sender="circolo@example.org")
        asyncio.run(season(url, smtp, inbox))
    finally:
        controller.stop()
