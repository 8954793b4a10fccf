"""A whole club evening of 13 players entered through the command line (issue 6), checked
against a ranking computed by hand from RULES.md (T26-T29, VP-3 of 4.4).

The club seats the room by hand this year (seed 003: "sorteggio manuale"): the draw when
check-in closes gives the stations and a first seating, and the organiser enters the seating
actually played for each game, with the rests T29 requires (one per game with 13 players).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from .helpers import cli, ok

DAY = "2026-09-04"  # a Friday: evening 1 of the season, Burraco Internazionale (3 games)
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

# Each game: tables as NS1,EW1,NS2,EW2 (partners NS1+NS2 v EW1+EW2), the player resting, and
# each table's scores NS/EW.
GAMES = [
    (
        ["Anna,Bruno,Carla,Dario", "Elena,Fabio,Gina,Ivo", "Lea,Mara,Nino,Olga"],
        "Ugo",
        ["1=1200/700", "2=900/880", "3=300/1400"],
    ),
    (
        ["Anna,Ugo,Elena,Lea", "Bruno,Carla,Fabio,Mara", "Dario,Gina,Nino,Ivo"],
        "Olga",
        ["1=650/800", "2=1505/0", "3=455/400"],
    ),
    (
        ["Anna,Olga,Ivo,Bruno", "Carla,Elena,Lea,Dario", "Fabio,Gina,Ugo,Mara"],
        "Nino",
        ["1=1000/745", "2=600/600", "3=100/905"],
    ),
]

# By hand, with VP-3 (RULES.md 4.4) and a rest worth 10 VP, 0 MP (T29):
#  game 1: T1 Anna+Carla 1200 v Bruno+Dario 700: diff 500 -> 14/6, MP +500/-500
#          T2 Elena+Gina 900 v Fabio+Ivo 880: diff 20 -> 10/10, MP +20/-20
#          T3 Lea+Nino 300 v Mara+Olga 1400: diff 1100 -> 2/18, MP -1100/+1100; Ugo rests
#  game 2: T1 Anna+Elena 650 v Ugo+Lea 800: diff 150 -> 9/11, MP -150/+150
#          T2 Bruno+Fabio 1505 v Carla+Mara 0: diff 1505 -> 20/0, MP +1505/-1505
#          T3 Dario+Nino 455 v Gina+Ivo 400: diff 55 -> 11/9, MP +55/-55; Olga rests
#  game 3: T1 Anna+Ivo 1000 v Olga+Bruno 745: diff 255 -> 13/7, MP +255/-255
#          T2 Carla+Lea 600 v Elena+Dario 600: 10/10, MP 0
#          T3 Fabio+Ugo 100 v Gina+Mara 905: diff 805 -> 3/17, MP -805/+805; Nino rests
# Totals (VP; MP): Anna 14+9+13=36; +500-150+255=+605     Bruno 6+20+7=33; -500+1505-255=+750
#   Carla 14+0+10=24; +500-1505=-1005    Dario 6+11+10=27; -500+55=-445
#   Elena 10+9+10=29; +20-150=-130       Fabio 10+20+3=33; -20+1505-805=+680
#   Gina 10+9+17=36; +20-55+805=+770     Ivo 10+9+13=32; -20-55+255=+180
#   Lea 2+11+10=23; -1100+150=-950       Mara 18+0+17=35; +1100-1505+805=+400
#   Nino 2+11+10=23; -1100+55=-1045      Olga 18+10+7=35; +1100-255=+845
#   Ugo 10+11+3=24; +150-805=-655
# T27: by VP, then MP; T28 points 25/18/15/12/10/8/6/4/2/1.
EXPECTED = [
    # place, player, VP, MP, points, games played, rests
    (1, "Gina", 36, 770, 25, 3, 0),
    (2, "Anna", 36, 605, 18, 3, 0),
    (3, "Olga", 35, 845, 15, 2, 1),
    (4, "Mara", 35, 400, 12, 3, 0),
    (5, "Bruno", 33, 750, 10, 3, 0),
    (6, "Fabio", 33, 680, 8, 3, 0),
    (7, "Ivo", 32, 180, 6, 3, 0),
    (8, "Elena", 29, -130, 4, 3, 0),
    (9, "Dario", 27, -445, 2, 3, 0),
    (10, "Ugo", 24, -655, 1, 2, 1),
    (11, "Carla", 24, -1005, 0, 3, 0),
    (12, "Lea", 23, -950, 0, 3, 0),
    (13, "Nino", 23, -1045, 0, 2, 1),
]


def set_up(url: str) -> None:
    ok(url, "create", "Circolo del Venerdì", "--place", "Sala grande", officer=None)
    ok(url, "member", "add", "Anna", "--officer", "--email", "anna@example.org", officer=None)
    for name in [*PLAYERS[1:], "Pia"]:
        ok(url, "member", "add", name)
    ok(url, "season", "create", "Autunno 2026", "--start", "2026-09-01", "--end", "2026-12-31")
    ok(url, "calendar", "create", "--count", "16")
    listed = ok(url, "member", "list", officer=None).splitlines()
    assert [line.split()[0] for line in listed] == sorted([*PLAYERS, "Pia"])
    assert "officer" in listed[0] and "anna@example.org" in listed[0]
    assert "Autunno 2026" in ok(url, "season", "list", officer=None)


def show(url: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok(url, "show", "--date", DAY, "--json"))
    return data


def test_a_club_evening_of_13_players_through_the_command_line(sqlite_url: str) -> None:
    url = sqlite_url
    set_up(url)
    # Check-in 20:30-20:45 (T30): everyone in the window; Pia at 20:50 is refused.
    ok(url, "checkin", "--date", DAY, "--at", "20:33", *PLAYERS[:7])
    ok(url, "checkin", "--date", DAY, "--at", "20:44", *PLAYERS[7:])
    code, _, err = cli(url, "checkin", "--date", DAY, "--at", "20:50", "Pia")
    assert code == 1 and "after the check-in window" in err
    # The draw when the window closes: 13 stations, one rest and three tables in game 1.
    out = ok(url, "draw", "--date", DAY, "--at", "20:45", "--seed", "2026")
    assert "stations:" in out
    evening = show(url)
    assert sorted(evening["stations"]) == sorted(PLAYERS)
    game1 = evening["games"][0]
    assert len(game1["rests"]) == 1 and len(game1["tables"]) == 3
    assert sorted(
        [*game1["rests"], *(p for t in game1["tables"] for p in t["ns"] + t["ew"])]
    ) == sorted(PLAYERS)

    for number, (tables, rest, results) in enumerate(GAMES, 1):
        args = ["seating", "--date", DAY, "--game", str(number), "--rest", rest]
        for table in tables:
            args += ["--table", table]
        ok(url, *args, "--reason", "seated by hand in the room")
        out = ok(url, "result", "--date", DAY, "--game", str(number), *results)
        if number < 3:
            assert f"game {number + 1} is drawn" in out
    evening = show(url)
    assert evening["status"] == "finished"
    got = [
        (r["place"], r["player"], r["vp"], r["mp"], r["points"], r["played"], r["rests"])
        for r in evening["ranking"]
    ]
    assert got == EXPECTED
    # Each game's VP as printed (MP and VP of table 3, game 1: 2-18).
    game1 = evening["games"][0]
    assert [t["vp"] for t in game1["tables"]] == [[14, 6], [10, 10], [2, 18]]
    assert game1["rests"] == ["Ugo"]

    # The season standings after this evening are its ranking points.
    out = ok(url, "standings")
    assert "Gina" in out.splitlines()[2] and "25" in out.splitlines()[2]


def test_the_evening_exports_and_its_season_standings(sqlite_url: str, tmp_path: Path) -> None:

    url = sqlite_url
    folder = tmp_path
    set_up(url)
    ok(url, "checkin", "--date", DAY, "--at", "20:40", *PLAYERS)
    ok(url, "draw", "--date", DAY, "--at", "20:45", "--seed", "1")
    for number, (tables, rest, results) in enumerate(GAMES, 1):
        args = ["seating", "--date", DAY, "--game", str(number), "--rest", rest]
        for table in tables:
            args += ["--table", table]
        ok(url, *args)
        ok(url, "result", "--date", DAY, "--game", str(number), *results)
    ok(
        url,
        "ranking",
        "--date",
        DAY,
        "--csv",
        str(folder / "evening.csv"),
        "--html",
        str(folder / "evening.html"),
    )
    rows = list(csv.DictReader(io.StringIO((folder / "evening.csv").read_text())))
    assert [(int(r["place"]), r["player"], int(r["vp"]), int(r["mp"])) for r in rows] == [
        e[:4] for e in EXPECTED
    ]
    page = (folder / "evening.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Gina" in page and "Mara &amp; Olga" in page
    ok(
        url,
        "standings",
        "--csv",
        str(folder / "s.csv"),
        "--html",
        str(folder / "s.html"),
        "--png",
        str(folder / "s.png"),
    )
    rows = list(csv.DictReader(io.StringIO((folder / "s.csv").read_text())))
    assert [(r["player"], int(r["points"])) for r in rows] == [(e[1], e[4]) for e in EXPECTED]
    assert (folder / "s.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
