"""The club manager over HTTP (``/api/club``), against the real server (uvicorn on loopback, its own
SQLite database): who may do what (officers change, members read, strangers see nothing), a small
evening of five players run through the API to its ranking and the season standings, a correction
with its audit entry, check-in refusals and the late override, fees, score checks, the room
timer, and the exports with their content types (the .ics parsed back).

Times: the club's zone is UTC and the season's check-in window is set around the test's "now",
so that check-ins today are in the window; an evening of yesterday is always past its window.
"""

from __future__ import annotations

import csv
import email
import io
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import httpx
import icalendar
import pytest
from aiosmtpd.controller import Controller

from ._live import LiveServer, live_server

PASSWORD = "club-password-1"


class Inbox:
    """aiosmtpd handler: keeps every message the server sends."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default_policy)
        assert isinstance(message, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    """A local SMTP server (aiosmtpd on loopback) for the club's e-mails."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    handler = Inbox()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]
) -> Iterator[LiveServer]:
    with pytest.MonkeyPatch.context() as env:  # the server reads its SMTP settings at start
        env.setenv("BURRACO_SMTP_HOST", "127.0.0.1")
        env.setenv("BURRACO_SMTP_PORT", str(inbox[1]))
        env.setenv("BURRACO_SMTP_FROM", "circolo@example.org")
        running = live_server(
            tmp_path_factory.mktemp("club"), bot_delay=0.0, login_attempts_per_minute=60_000.0
        )
        started = running.__enter__()
    try:
        yield started
    finally:
        running.__exit__(None, None, None)


@dataclass
class Person:
    name: str
    http: httpx.Client

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.http.get(f"/api/club{path}", params=params)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(f"/api/club{path}", json={} if body is None else body)

    def patch(self, path: str, body: Any) -> httpx.Response:
        return self.http.patch(f"/api/club{path}", json=body)

    def ok(self, answer: httpx.Response, status: int = 200) -> Any:
        assert answer.status_code == status, answer.text
        return answer.json()


def register(server: LiveServer, name: str) -> Person:
    answer = httpx.post(
        f"{server.url}/api/register",
        json={"name": name, "password": PASSWORD},
        timeout=30,
        trust_env=False,
    )
    assert answer.status_code == 201, answer.text
    return Person(name, server.client(answer.json()["token"]))


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == code and body["message"], body
    message: str = body["message"]
    return message


@dataclass
class Club:
    officer: Person
    member: Person
    stranger: Person
    club_id: int
    season_id: int
    today: int
    """Today's evening (check-in open now)."""
    yesterday: int
    """Yesterday's evening (its check-in window is past)."""


PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


@pytest.fixture(scope="module")
def club(server: LiveServer) -> Iterator[Club]:
    officer = register(server, "anna_officer")
    member = register(server, "bruno_member")
    stranger = register(server, "zeno_stranger")
    made = officer.ok(
        officer.post("/clubs", {"name": "Circolo Prova", "timezone": "UTC", "founder": "Anna"}),
        201,
    )
    club_id = made["id"]
    officer.ok(
        officer.post(
            f"/clubs/{club_id}/members",
            {"name": "Bruno", "email": "bruno@example.org", "account": member.name},
        ),
        201,
    )
    for name in PLAYERS[2:]:
        officer.ok(officer.post(f"/clubs/{club_id}/members", {"name": name}), 201)
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date(), time(0), UTC)
    opens = max(midnight, now - timedelta(hours=1)).time().replace(microsecond=0)
    closes = min(midnight + timedelta(seconds=86399), now + timedelta(hours=1)).time()
    today = now.date()
    season = officer.ok(
        officer.post(
            f"/clubs/{club_id}/seasons",
            {
                "name": "Primavera",
                "starts_on": str(today - timedelta(days=30)),
                "ends_on": str(today + timedelta(days=60)),
                "checkin_opens": opens.isoformat(),
                "checkin_closes": closes.replace(microsecond=0).isoformat(),
                "monthly_fee_cents": 1000,
                "pool_share_cents": 400,
                "weekly_prize_cents": 500,
                "season_prizes_cents": [3000, 2000, 1000],
                "rules_note": "Regolamento: silenzio in sala",
            },
        ),
        201,
    )
    evenings = {}
    for day in (today - timedelta(days=1), today):
        evening = officer.ok(
            officer.post(
                f"/seasons/{season['id']}/evenings", {"date": str(day), "type": "internazionale"}
            ),
            201,
        )
        evenings[day] = evening["id"]
    yield Club(
        officer,
        member,
        stranger,
        club_id,
        season["id"],
        evenings[today],
        evenings[today - timedelta(days=1)],
    )
    for person in (officer, member, stranger):
        person.http.close()
    assert server.traceback_free(), server.log()


def evening(person: Person, evening_id: int) -> dict[str, Any]:
    found: dict[str, Any] = person.ok(person.get(f"/evenings/{evening_id}"))
    return found


def score(view: dict[str, Any], game: int, table: int) -> tuple[int, int] | None:
    for g in view["games"]:
        if g["number"] == game:
            for t in g["tables"]:
                if t["number"] == table:
                    result = t["result"]
                    return None if result is None else (result["ns"], result["ew"])
    raise AssertionError(f"no game {game}, table {table}")


# ------------------------------------------------------------------------------------ tests


def test_roles_and_reading(club: Club, server: LiveServer) -> None:
    mine = club.officer.ok(club.officer.get("/clubs"))
    assert [(c["name"], c["member"], c["officer"]) for c in mine] == [
        ("Circolo Prova", "Anna", True)
    ]
    seen = club.member.ok(club.member.get(f"/clubs/{club.club_id}"))
    assert seen["role"] == {
        "member": "Bruno",
        "member_id": seen["role"]["member_id"],
        "officer": False,
    }
    assert sorted(m["name"] for m in seen["members"]) == PLAYERS
    # Members see each other's names, not their addresses; officers see them.
    assert all(m["email"] is None for m in seen["members"])
    full = club.officer.ok(club.officer.get(f"/clubs/{club.club_id}"))
    assert {m["name"]: m["email"] for m in full["members"]}["Bruno"] == "bruno@example.org"
    # A platform user who is not a member sees nothing; nobody logged in gets 401.
    refused(club.stranger.get(f"/clubs/{club.club_id}"), 403, "forbidden")
    refused(club.stranger.get(f"/seasons/{club.season_id}/standings"), 403, "forbidden")
    with server.client() as anonymous:
        refused(anonymous.get(f"/api/club/clubs/{club.club_id}"), 401, "not_authenticated")
    refused(club.officer.get("/clubs/999999"), 404, "not_found")
    # Guests cannot found a club.
    token, _user = server.guest()
    with server.client(token) as guest:
        refused(guest.post("/api/club/clubs", json={"name": "Ospiti"}), 403, "forbidden")


def test_members_cannot_change_the_calendar_or_fees(club: Club) -> None:
    before = club.officer.ok(club.officer.get(f"/seasons/{club.season_id}"))
    refused(
        club.member.post(f"/seasons/{club.season_id}/evenings", {"date": str(date.today())}),
        403,
        "forbidden",
    )
    refused(club.member.patch(f"/evenings/{club.today}", {"type": "italiano"}), 403, "forbidden")
    refused(
        club.member.post(
            f"/seasons/{club.season_id}/payments", {"member": "Bruno", "amount_cents": 1000}
        ),
        403,
        "forbidden",
    )
    refused(club.member.post(f"/clubs/{club.club_id}/members", {"name": "Furio"}), 403, "forbidden")
    refused(
        club.member.patch(f"/seasons/{club.season_id}", {"weekly_prize_cents": 0}), 403, "forbidden"
    )
    after = club.officer.ok(club.officer.get(f"/seasons/{club.season_id}"))
    assert after == before
    # Bad input is a clear error and changes nothing: a date outside the season.
    message = refused(
        club.officer.post(f"/seasons/{club.season_id}/evenings", {"date": "2001-01-05"}),
        422,
        "bad_input",
    )
    assert "outside the season" in message
    refused(
        club.officer.post(f"/seasons/{club.season_id}/evenings", {"date": "not a date"}),
        422,
        "bad_request",
    )
    assert club.officer.ok(club.officer.get(f"/seasons/{club.season_id}")) == before


def test_an_empty_change_changes_nothing_and_still_needs_an_officer(club: Club) -> None:
    """PATCH {} on each club resource: the officer gets it back as it is (an empty season
    change was an UPDATE with no columns and a 500, found by a black-box test), a member is
    refused as for any change."""
    bruno = next(
        m
        for m in club.officer.ok(club.officer.get(f"/clubs/{club.club_id}/members"))
        if m["name"] == "Bruno"
    )
    paths = {
        f"/clubs/{club.club_id}": f"/clubs/{club.club_id}",
        f"/clubs/{club.club_id}/members/{bruno['id']}": f"/clubs/{club.club_id}/members",
        f"/seasons/{club.season_id}": f"/seasons/{club.season_id}",
        f"/evenings/{club.yesterday}": f"/evenings/{club.yesterday}",
    }
    for path, shown in paths.items():
        before = club.officer.ok(club.officer.get(shown))
        club.officer.ok(club.officer.patch(path, {}))
        refused(club.member.patch(path, {}), 403, "forbidden")
        assert club.officer.ok(club.officer.get(shown)) == before, path


def test_late_checkin_needs_an_officer_and_a_reason(club: Club) -> None:
    # Yesterday's window is over: a member cannot register himself, even giving a reason.
    refused(
        club.member.post(f"/evenings/{club.yesterday}/checkins", {"member": "Bruno"}),
        409,
        "late",
    )
    refused(
        club.member.post(
            f"/evenings/{club.yesterday}/checkins", {"member": "Bruno", "override": "traffico"}
        ),
        409,
        "late",
    )
    message = refused(
        club.officer.post(f"/evenings/{club.yesterday}/checkins", {"member": "Carla"}),
        409,
        "late",
    )
    assert "unless an officer overrides" in message
    assert evening(club.officer, club.yesterday)["checkins"] == []
    view = club.officer.ok(
        club.officer.post(
            f"/evenings/{club.yesterday}/checkins",
            {"member": "carla", "override": "avvisato per telefono"},
        ),
        201,
    )
    (carla,) = view["checkins"]
    assert carla["name"] == "Carla" and carla["late"] is True
    assert carla["override_by"] == "Anna"
    assert carla["override_reason"] == "avvisato per telefono"
    trail = club.officer.ok(
        club.officer.get(f"/clubs/{club.club_id}/audit", evening=club.yesterday)
    )
    entry = next(e for e in trail if e["action"] == "checkin.override")
    assert entry["actor"] == "Anna" and entry["reason"] == "avvisato per telefono"
    # An unknown player is a clear error, with the closest name.
    message = refused(
        club.officer.post(
            f"/evenings/{club.yesterday}/checkins", {"member": "Dari", "override": "x"}
        ),
        422,
        "bad_input",
    )
    assert "Dario" in message
    # Undo: removing the registration (with a reason) leaves the evening empty again.
    view = club.officer.ok(
        club.officer.post(
            f"/evenings/{club.yesterday}/checkins/remove", {"member": "Carla", "reason": "errore"}
        )
    )
    assert view["checkins"] == []


def test_a_small_evening(club: Club, server: LiveServer, inbox: tuple[Inbox, int]) -> None:
    ev = club.today
    # In the window: a member registers himself, but nobody else.
    club.member.ok(club.member.post(f"/evenings/{ev}/checkins", {"member": "Bruno"}), 201)
    refused(club.member.post(f"/evenings/{ev}/checkins", {"member": "Carla"}), 403, "forbidden")
    for name in ("Anna", "Carla", "Dario", "Elena"):
        club.officer.ok(club.officer.post(f"/evenings/{ev}/checkins", {"member": name}), 201)
    refused(club.officer.post(f"/evenings/{ev}/checkins", {"member": "Anna"}), 409, "conflict")
    refused(club.member.post(f"/evenings/{ev}/draw", {"seed": 7}), 403, "forbidden")
    view = club.officer.ok(club.officer.post(f"/evenings/{ev}/draw", {"seed": 7}))
    assert view["evening"]["status"] == "playing"
    assert sorted(view["stations"]) == PLAYERS
    (game1,) = view["games"]
    assert len(game1["tables"]) == 1 and len(game1["rests"]) == 1  # five players: one rests
    assert view["role"]["officer"] is True

    # The room timer is public; an officer starts a game, and it counts down.
    with server.client() as anonymous:
        waiting = anonymous.get(f"/api/club/evenings/{ev}/timer")
        assert waiting.status_code == 200 and waiting.json()["phase"] == "waiting"
        refused(club.member.post(f"/evenings/{ev}/games/1/start"), 403, "forbidden")
        club.officer.ok(club.officer.post(f"/evenings/{ev}/games/1/start"))
        running = anonymous.get(f"/api/club/evenings/{ev}/timer").json()
    assert running["phase"] == "playing" and running["game"] == 1 and running["games"] == 3
    assert running["club"] == "Circolo Prova" and running["type"] == "internazionale"
    assert 49 * 60 < running["seconds_left"] <= 50 * 60

    # A member cannot enter a result: 403, and nothing changes.
    refused(
        club.member.post(f"/evenings/{ev}/games/1/tables/1/result", {"ns": 900, "ew": 300}),
        403,
        "forbidden",
    )
    assert score(evening(club.officer, ev), 1, 1) is None
    # A result that does not add up is refused and changes nothing.
    message = refused(
        club.officer.post(
            f"/evenings/{ev}/games/1/tables/1/result",
            {"ns": 900, "ew": 300, "smazzate": [[500, 100], [300, 100]]},
        ),
        422,
        "bad_input",
    )
    assert "does not add up" in message
    refused(
        club.officer.post(f"/evenings/{ev}/games/1/tables/1/result", {"ns": 903, "ew": 300}),
        422,
        "bad_input",
    )
    assert score(evening(club.officer, ev), 1, 1) is None

    # Officers manage who rests (with a reason); members cannot.
    (resting,) = game1["rests"]
    player = game1["tables"][0]["ns"][0]
    change = {"rest": player, "instead_of": resting, "reason": "deve andare via presto"}
    refused(club.member.post(f"/evenings/{ev}/games/1/rest", change), 403, "forbidden")
    game = club.officer.ok(club.officer.post(f"/evenings/{ev}/games/1/rest", change))
    assert game["rests"] == [player] and game["rests_drawn"] is False
    assert resting in game["tables"][0]["ns"] + game["tables"][0]["ew"]

    # The room may be seated by hand (seed 003: "sorteggio manuale"): NS1, EW1, NS2, EW2.
    seating = {"tables": [["Anna", "Bruno", "Carla", "Dario"]], "rests": ["Elena"]}
    refused(
        club.member.http.put(f"/api/club/evenings/{ev}/games/1/seating", json=seating),
        403,
        "forbidden",
    )
    bad = {"tables": [["Anna", "Bruno", "Carla", "Zeno"]], "rests": ["Elena"]}
    refused(
        club.officer.http.put(f"/api/club/evenings/{ev}/games/1/seating", json=bad),
        422,
        "bad_input",
    )
    answer = club.officer.http.put(
        f"/api/club/evenings/{ev}/games/1/seating", json={**seating, "reason": "a mano"}
    )
    game = club.officer.ok(answer)
    assert game["tables"][0]["ns"] == ["Anna", "Carla"] and game["tables"][0]["ew"] == [
        "Bruno",
        "Dario",
    ]
    assert game["rests"] == ["Elena"] and game["drawn"] is False

    results = {1: (900, 300), 2: (400, 600), 3: (1200, 200)}
    for game_no, (ns, ew) in results.items():
        body: dict[str, Any]
        if game_no < 3:
            path, body = f"games/{game_no}/tables/1/result", {"ns": ns, "ew": ew}
        else:  # several tables at once (here the only one)
            path, body = f"games/{game_no}/results", {"results": [{"table": 1, "ns": ns, "ew": ew}]}
        view = club.officer.ok(club.officer.post(f"/evenings/{ev}/{path}", body), 201)
        assert score(view, game_no, 1) == (ns, ew)
        assert view["complete_games"] == game_no
    assert view["finished"] is True and view["evening"]["status"] == "finished"
    ranking = view["ranking"]
    assert sorted(r["player"] for r in ranking) == PLAYERS
    # Everyone rested once (five players, three games: three rests, nobody twice).
    assert sum(r["rests"] for r in ranking) == 3 and max(r["rests"] for r in ranking) == 1
    places = [r["place"] for r in ranking]
    assert places == sorted(places) and places[0] == 1
    assert ranking[0]["points"] == 25

    # Members read the same evening, and the season standings made of it.
    assert club.member.ok(club.member.get(f"/evenings/{ev}"))["ranking"] == ranking
    standings = club.member.ok(club.member.get(f"/seasons/{club.season_id}/standings"))
    assert {r["player"]: r["points"] for r in standings["rows"]} == {
        r["player"]: r["points"] for r in ranking
    }
    assert standings["counted"] == [ev]

    # A member asks for a check of a score; the officer corrects it with a reason.
    check = club.member.ok(
        club.member.post(f"/evenings/{ev}/games/1/tables/1/check", {"note": "era 905?"}), 201
    )
    assert check["status"] == "open" and check["requested_by"] == "Bruno"
    refused(
        club.member.post(
            f"/evenings/{ev}/games/1/tables/1/correction",
            {"ns": 300, "ew": 900, "reason": "io dico così"},
        ),
        403,
        "forbidden",
    )
    refused(
        club.officer.post(f"/evenings/{ev}/games/1/tables/1/correction", {"ns": 300, "ew": 900}),
        422,
        "bad_request",
    )
    assert score(evening(club.officer, ev), 1, 1) == (900, 300)
    corrected = club.officer.ok(
        club.officer.post(
            f"/evenings/{ev}/games/1/tables/1/correction",
            {"ns": 300, "ew": 900, "reason": "righe invertite sul foglio"},
        )
    )
    assert score(corrected, 1, 1) == (300, 900)
    assert corrected["ranking"] != ranking  # the ranking is recomputed
    (closed,) = corrected["checks"]
    assert closed["status"] == "corrected"
    trail = club.officer.ok(club.officer.get(f"/clubs/{club.club_id}/audit", action="result."))
    (entry,) = trail
    assert entry["action"] == "result.correct" and entry["actor"] == "Anna"
    assert entry["reason"] == "righe invertite sul foglio"
    assert entry["before"]["ns"] == 900 and entry["after"]["ns"] == 300
    assert "game 1, table 1" in entry["subject"]
    # The audit trail is the officers'.
    refused(club.member.get(f"/clubs/{club.club_id}/audit"), 403, "forbidden")
    standings = club.member.ok(club.member.get(f"/seasons/{club.season_id}/standings"))
    assert {r["player"]: r["points"] for r in standings["rows"]} == {
        r["player"]: r["points"] for r in corrected["ranking"]
    }

    # Fees: one monthly fee each for the evening played; Bruno pays, members see their own.
    fees = club.officer.ok(
        club.officer.post(
            f"/seasons/{club.season_id}/payments",
            {"member": "Bruno", "amount_cents": 1000, "note": "contanti"},
        ),
        201,
    )
    accounts = {a["member"]: a for a in fees["accounts"]}
    assert accounts["Bruno"]["balance_cents"] == 0 and accounts["Anna"]["balance_cents"] == 1000
    assert fees["pool_cents"] == 5 * 400
    mine = club.member.ok(club.member.get(f"/seasons/{club.season_id}/fees"))
    assert [a["member"] for a in mine["accounts"]] == ["Bruno"]
    prizes = club.member.ok(club.member.get(f"/seasons/{club.season_id}/prizes"))
    assert prizes["weekly"] and all(p["value_cents"] == 500 for p in prizes["weekly"])
    # What the finished evening gives: here, not in tests of their own, which needed this one
    # to have run first in the same xdist worker (split over two workers, they failed).
    _check_exports(club, server)
    _check_emails(club, inbox)


def _check_exports(club: Club, server: LiveServer) -> None:
    """The finished evening's exports (part of ``test_a_small_evening``)."""
    season = club.season_id
    with server.client() as anonymous:
        ics = anonymous.get(f"/api/club/seasons/{season}/calendar.ics")
        printable = anonymous.get(
            f"/api/club/seasons/{season}/calendar.html", params={"lang": "en"}
        )
        refused(
            anonymous.get(f"/api/club/seasons/{season}/standings.csv"), 401, "not_authenticated"
        )
    assert ics.status_code == 200 and ics.headers["content-type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(ics.content)
    days = sorted(e.decoded("dtstart").date() for e in calendar.walk("VEVENT"))
    today = datetime.now(UTC).date()
    assert days == [today - timedelta(days=1), today]
    assert printable.headers["content-type"].startswith("text/html")
    assert "Circolo Prova" in printable.text and "Calendar" in printable.text

    answer = club.member.get(f"/seasons/{season}/standings.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert sorted(r["player"] for r in rows) == PLAYERS
    html = club.member.get(f"/seasons/{season}/standings.html")
    assert html.headers["content-type"].startswith("text/html")
    assert "Classifica generale" in html.text and "Elena" in html.text
    png = club.member.get(f"/seasons/{season}/standings.png")
    assert png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n") and len(png.content) > 5000
    ranking = club.member.get(f"/evenings/{club.today}/ranking.csv")
    assert ranking.headers["content-type"].startswith("text/csv")
    assert ranking.text.splitlines()[0] == "place,player,vp,mp,points,played,rests"
    page = club.member.get(f"/evenings/{club.today}/ranking.html", lang="en")
    assert "Evening ranking" in page.text and "Elena" in page.text
    results = club.member.get(f"/evenings/{club.today}/results.csv")
    assert results.headers["content-type"].startswith("text/csv")
    games = list(csv.DictReader(io.StringIO(results.text)))
    assert [(g["game"], g["ns_score"], g["ew_score"]) for g in games if g["table"] == "1"] == [
        ("1", "300", "900"),
        ("2", "400", "600"),
        ("3", "1200", "200"),
    ]
    fees = club.officer.get(f"/seasons/{season}/fees.csv")
    assert fees.headers["content-type"].startswith("text/csv")
    (bruno,) = [line for line in fees.text.splitlines() if line.startswith("Bruno,")]
    assert bruno.endswith(",10.00,10.00,0.00"), bruno


def _check_emails(club: Club, inbox: tuple[Inbox, int]) -> None:
    """The finished evening's mails (part of ``test_a_small_evening``)."""
    received, _port = inbox
    refused(club.member.post(f"/evenings/{club.today}/mail/standings"), 403, "forbidden")
    refused(club.officer.post(f"/evenings/{club.yesterday}/mail/standings"), 409, "conflict")
    assert received.messages == []
    sent = club.officer.ok(club.officer.post(f"/evenings/{club.today}/mail/standings"))
    assert sent == {"sent": 1, "recipients": ["bruno@example.org"]}  # the only address
    ((to, message),) = received.messages
    assert to == ["bruno@example.org"] and "Circolo Prova" in message["Subject"]
    names = {part.get_filename() for part in message.iter_attachments()}
    assert {"standings.csv", "standings.png"} <= names
    sent = club.officer.ok(club.officer.post(f"/seasons/{club.season_id}/mail/calendar?lang=en"))
    assert sent["sent"] == 1
    _to, message = received.messages[-1]
    (ics,) = [p for p in message.iter_attachments() if p.get_filename() == "calendar.ics"]
    assert len(icalendar.Calendar.from_ical(ics.get_content()).walk("VEVENT")) == 2
    trail = club.officer.ok(club.officer.get(f"/clubs/{club.club_id}/audit", action="mail."))
    assert [e["action"] for e in trail] == ["mail.standings", "mail.calendar"]


def test_openapi_describes_the_club_routes(server: LiveServer) -> None:
    spec = httpx.get(f"{server.url}/api/openapi.json", timeout=10, trust_env=False).json()
    paths = spec["paths"]
    result = paths["/api/club/evenings/{evening_id}/games/{game}/tables/{table}/result"]["post"]
    ref = result["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/ResultRequest")
    assert {"ns", "ew"} <= set(spec["components"]["schemas"]["ResultRequest"]["properties"])
    assert "403" in result["responses"] and "422" in result["responses"]
    for path in (
        "/api/club/clubs",
        "/api/club/evenings/{evening_id}/checkins",
        "/api/club/evenings/{evening_id}/games/{game}/tables/{table}/correction",
        "/api/club/seasons/{season_id}/standings.png",
        "/api/club/seasons/{season_id}/calendar.ics",
        "/api/club/evenings/{evening_id}/timer",
    ):
        assert path in paths, path
