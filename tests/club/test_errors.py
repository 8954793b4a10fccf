"""Bad input gets one clear sentence and changes nothing (issue 7, "Data and safety"): every
refused command leaves every club table exactly as it was, on SQLite and on PostgreSQL. Only
officers change results, fees and the calendar."""

from __future__ import annotations

import socket

import pytest

from .helpers import cli, ok, snapshot

DAY = "2026-09-04"
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
]


def evening_in_play(url: str) -> dict[str, object]:
    """A club, a season with its calendar, 13 players checked in, drawn, game 1 entered."""
    ok(url, "create", "Circolo", officer=None)
    ok(url, "member", "add", "Anna", "--officer", officer=None)
    for name in PLAYERS[1:]:
        ok(url, "member", "add", name, "--email", f"{name.lower()}@example.org")
    ok(url, "season", "create", "Autunno 2026", "--start", "2026-09-01", "--end", "2026-12-31")
    ok(url, "calendar", "create", "--count", "16")
    ok(url, "checkin", "--date", DAY, "--at", "20:35", *PLAYERS)
    ok(url, "draw", "--date", DAY, "--at", "20:45", "--seed", "5")
    ok(url, "result", "--date", DAY, "--game", "1", "1=600/400", "2=300/300", "3=-100/800")
    import json

    shown: dict[str, object] = json.loads(ok(url, "show", "--date", DAY, "--json"))
    return shown


def test_refused_commands_change_nothing(db_url: str) -> None:
    url = db_url
    shown = evening_in_play(url)
    games: list[dict[str, list[str]]] = shown["games"]  # type: ignore[assignment]
    rested = games[0]["rests"][0]
    playing_in_2 = games[1]["tables"][0]["ns"][0]  # type: ignore[index]
    before = snapshot(url)
    refused = [
        # (the command, as whom, what the error says)
        (["checkin", "--date", DAY, "Zorro"], "Anna", "already drawn"),
        (
            ["checkin", "--date", "2026-09-11", "--at", "20:35", "Bruno", "Zorro"],
            "Anna",
            "unknown player 'Zorro'",
        ),
        (
            ["checkin", "--date", "2026-09-11", "--at", "20:35", "Bruno", "Carla", "bruno"],
            "Anna",
            "Bruno is already registered",
        ),
        (
            ["checkin", "--date", "2026-09-11", "--at", "20:35", "Bruno", "Carla"],
            "Lea",
            "only an officer may register another player",
        ),
        (["checkin", "--date", "2027-02-05", "Bruno"], "Anna", "no evening on 2027-02-05"),
        (["result", "--date", DAY, "--game", "2", "1=452/400"], "Anna", "not a multiple of 5"),
        (
            ["result", "--date", DAY, "--game", "2", "1=620/310", "--smazzate", "420/40,205/270"],
            "Anna",
            "does not add up: the smazzate total 625 - 310",
        ),
        (
            ["result", "--date", DAY, "--game", "2", "1=620/310", "2=100/100", "7=5/5"],
            "Anna",
            "game 2 has tables 1, 2, 3, not 7",
        ),
        (["result", "--date", DAY, "--game", "1", "2=100/100"], "Anna", "already has a result"),
        (["result", "--date", DAY, "--game", "3", "1=100/100"], "Anna", "not seated yet"),
        (
            ["result", "--date", DAY, "--game", "2", "1=100/100", "1=200/100"],
            "Anna",
            "given twice",
        ),
        (["result", "--date", DAY, "--game", "2", "1=100/100"], "Lea", "only the club's officers"),
        (
            ["correct", "--date", DAY, "--game", "1", "1=650/400", "--reason", "x"],
            "Lea",
            "only the club's officers",
        ),
        (
            ["correct", "--date", DAY, "--game", "1", "1=650/400", "--reason", "  "],
            "Anna",
            "needs a reason",
        ),
        (
            ["correct", "--date", DAY, "--game", "1", "1=600/400", "--reason", "same"],
            "Anna",
            "changes nothing",
        ),
        (["pay", "Bruno", "20"], "Lea", "only the club's officers"),
        (["pay", "Bruno", "-5"], "Anna", "a payment is a positive amount"),
        (["pay", "Nobody", "20"], "Anna", "unknown player 'Nobody'"),
        (["charge", "Bruno", "5", "--reason", " "], "Anna", "needs a reason"),
        (["evening", "add", "2027-01-08"], "Anna", "outside every season"),
        (["evening", "add", "2026-09-11"], "Anna", "already an evening on 2026-09-11"),
        (["evening", "update", "--date", "2026-09-11", "--cancelled"], "Lea", "only the club"),
        (
            ["evening", "update", "--date", "2026-09-11", "--move-to", "2027-03-05"],
            "Anna",
            "outside the season",
        ),
        (["evening", "update", "--date", DAY, "--cancelled"], "Anna", "cannot be cancelled"),
        (["calendar", "create", "--first", "2026-12-25"], "Anna", "outside the season"),
        (["calendar", "create", "--count", "16"], "Anna", "already an evening on 2026-09-04"),
        (
            ["season", "create", "Inverno", "--start", "2027-03-01", "--end", "2027-01-01"],
            "Anna",
            "ends after it starts",
        ),
        (["member", "add", "bruno"], "Anna", "already a member named 'bruno'"),
        (["member", "add", "Rita"], "Lea", "only the club's officers"),
        (
            ["member", "update", "Anna", "--no-officer"],
            "Anna",
            "at least one active officer",
        ),
        (["checkin", "--date", DAY, "Ugo"], "Anna", "already drawn"),
        (
            [
                "rest",
                "--date",
                DAY,
                "--game",
                "2",
                rested,
                "--instead-of",
                games[1]["rests"][0],
                "--reason",
                "asked to",
            ],
            "Anna",
            "does not play in game 2" if rested == games[1]["rests"][0] else "already rested",
        ),
        (
            [
                "seating",
                "--date",
                DAY,
                "--game",
                "2",
                "--table",
                f"{playing_in_2},Zorro,Bruno,Carla",
            ],
            "Anna",
            "unknown player 'Zorro'",
        ),
        (["undo-draw", "--date", DAY, "--reason", "oops"], "Anna", "results are already entered"),
        (["mail", "standings", "--date", DAY, "--smtp-host", "127.0.0.1"], "Anna", "not finished"),
        (["show", "--date", "2026-09-05"], "Anna", "no evening on 2026-09-05"),
        (["check", "resolve", "99", "--resolution", "fine"], "Anna", "no score check 99"),
    ]
    for args, who, message in refused:
        code, out, err = cli(url, *args, officer=who)
        assert code == 1, (args, code, out, err)
        assert message in err, (args, err)
        assert err.count("\n") == 1, err  # one sentence
        assert snapshot(url) == before, args


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["result", "--date", DAY, "--game", "2", "1=620"], "TABLE=NS/EW"),
        (["checkin", "--date", "2026-13-01", "Bruno"], "not a date"),
        (["pay", "Bruno", "12.345"], "not an amount of euros"),
        (["correct", "--date", DAY, "--game", "1", "1=650/400"], "--reason"),
    ],
)
def test_malformed_command_lines_are_refused_before_the_database(
    sqlite_url: str, args: list[str], message: str
) -> None:
    ok(sqlite_url, "create", "Circolo", officer=None)
    before = snapshot(sqlite_url)
    code, _, err = cli(sqlite_url, *args)
    assert code == 2 and message in err
    assert snapshot(sqlite_url) == before


def test_the_late_player_needs_an_officer_and_a_reason(sqlite_url: str) -> None:
    url = sqlite_url
    ok(url, "create", "Circolo", officer=None)
    ok(url, "member", "add", "Anna", "--officer", officer=None)
    ok(url, "member", "add", "Bruno")
    ok(url, "season", "create", "Autunno 2026", "--start", "2026-09-01", "--end", "2026-12-31")
    ok(url, "calendar", "create", "--count", "2")
    before = snapshot(url)
    code, _, err = cli(url, "checkin", "--date", DAY, "--at", "20:46", "Bruno")
    assert code == 1 and "late players do not play" in err
    # a member may register himself in the window, not late, not with an override
    code, _, err = cli(
        url, "checkin", "--date", DAY, "--at", "20:50", "Bruno", "--override", "me", officer="Bruno"
    )
    assert code == 1 and "late players do not play" in err
    code, _, err = cli(url, "checkin", "--date", DAY, "--at", "20:10", "Bruno")
    assert code == 1 and "check-in is open 20:30-20:45" in err
    assert snapshot(url) == before
    out = ok(url, "checkin", "--date", DAY, "--at", "20:50", "Bruno", "--override", "phoned")
    assert "late: admitted by an officer" in out
    audit = ok(url, "audit", "-v")
    assert "checkin.override" in audit and "because: phoned" in audit
    ok(url, "uncheck", "--date", DAY, "Bruno", "--reason", "mistake")
    out = ok(url, "checkin", "--date", DAY, "--at", "20:40", "Bruno", officer="Bruno")
    assert "Bruno registered at 20:40" in out


def test_an_unreachable_mail_server_is_reported_and_nothing_is_recorded(sqlite_url: str) -> None:
    url = sqlite_url
    ok(url, "create", "Circolo", officer=None)
    ok(url, "member", "add", "Anna", "--officer", "--email", "anna@example.org", officer=None)
    ok(url, "member", "add", "Bruno", "--email", "bruno@example.org")
    ok(url, "season", "create", "Autunno 2026", "--start", "2026-09-01", "--end", "2026-12-31")
    ok(url, "calendar", "create", "--count", "3")
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    before = snapshot(url)
    args = ["mail", "calendar", "--smtp-host", "127.0.0.1", "--smtp-port", port]
    code, _, err = cli(url, *args)
    assert code == 1 and f"127.0.0.1:{port} failed after 0 of 2 messages" in err
    code, _, err = cli(url, "mail", "calendar", "--smtp-host", "")
    assert code == 1 and "no SMTP server configured" in err
    assert snapshot(url) == before
