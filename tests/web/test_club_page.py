"""The club pages in the browser: an officer enters a table's result on the club page and the
evening's ranking updates; a member sees the same evening without the officers' controls; the
room timer page renders the game being played, counting down, and goes full screen.

The club, its season and the evening's check-ins and draw are made through the HTTP API (the
server tests cover them); what is tested here is the page.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .conftest import Pages, Server

PASSWORD = "club-password-1"


def register(server: Server, name: str) -> httpx.Client:
    answer = httpx.post(
        f"{server.url}/api/register",
        json={"name": name, "password": PASSWORD},
        timeout=30,
        trust_env=False,
    )
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"]
    return server.client(base_url=f"{server.url}/api/club", token=token)


def ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def signed_in(pages: Pages, server: Server, client: httpx.Client, **size: Any) -> Page:
    page = pages.new(**size)
    token = client.cookies["burraco_session"]
    page.context.add_cookies([{"name": "burraco_session", "value": token, "url": server.url}])
    return page


def evening_ready(server: Server) -> tuple[httpx.Client, httpx.Client, int, int]:
    """A club of four (Anna the officer, Bruno a member with an account), today's evening with
    everyone checked in and the seats drawn: game 1 waits for its result."""
    officer = register(server, "anna_web")
    member = register(server, "bruno_web")
    club = ok(officer.post("/clubs", json={"name": "Circolo Web", "timezone": "UTC"}), 201)
    ok(
        officer.post(
            f"/clubs/{club['id']}/members", json={"name": "Bruno", "account": "bruno_web"}
        ),
        201,
    )
    for name in ("Carla", "Dario"):
        ok(officer.post(f"/clubs/{club['id']}/members", json={"name": name}), 201)
    now = datetime.now(UTC)
    midnight = datetime.combine(now.date(), time(0), UTC)
    opens = max(midnight, now - timedelta(hours=1)).time().replace(microsecond=0)
    closes = min(midnight + timedelta(seconds=86399), now + timedelta(hours=1)).time()
    season = ok(
        officer.post(
            f"/clubs/{club['id']}/seasons",
            json={
                "name": "Autunno",
                "starts_on": str(now.date() - timedelta(days=10)),
                "ends_on": str(now.date() + timedelta(days=90)),
                "checkin_opens": opens.isoformat(),
                "checkin_closes": closes.replace(microsecond=0).isoformat(),
            },
        ),
        201,
    )
    evening = ok(
        officer.post(f"/seasons/{season['id']}/evenings", json={"date": str(now.date())}), 201
    )
    for name in ("anna_web", "Bruno", "Carla", "Dario"):
        ok(officer.post(f"/evenings/{evening['id']}/checkins", json={"member": name}), 201)
    ok(officer.post(f"/evenings/{evening['id']}/draw", json={"seed": 3}))
    return officer, member, club["id"], evening["id"]


def test_officer_enters_a_result_and_the_ranking_updates(pages: Pages, server: Server) -> None:
    officer, member, club_id, evening_id = evening_ready(server)
    page = signed_in(pages, server, officer)
    page.goto(f"/?club={club_id}&tab=evening&evening={evening_id}")
    row = page.locator('tr[data-table="1-1"]')
    expect(row).to_be_visible()
    ns = row.locator("td").nth(1).inner_text().split(" – ")
    ew = row.locator("td").nth(2).inner_text().split(" – ")
    assert sorted(ns + ew) == ["Bruno", "Carla", "Dario", "anna_web"]
    expect(page.locator("[data-ranking]")).to_have_attribute("data-ranking", "0")

    form = page.locator('form[data-result="1-1"]')
    form.locator('input[name="ns"]').fill("1100")
    form.locator('input[name="ew"]').fill("400")
    form.get_by_role("button").click()

    ranking = page.locator('[data-ranking="1"]')
    expect(ranking).to_be_visible()
    expect(page.locator('[data-score="1-1"]')).to_have_text("1100 – 400")
    for name in ns:
        expect(ranking.locator(f'tr[data-player="{name}"] [data-place]')).to_have_text("1")
        expect(ranking.locator(f'tr[data-player="{name}"] [data-points]')).to_have_text("25")
    for name in ew:
        expect(ranking.locator(f'tr[data-player="{name}"] [data-place]')).to_have_text("3")
    vp_ns = int(ranking.locator(f'tr[data-player="{ns[0]}"] [data-vp]').inner_text())
    vp_ew = int(ranking.locator(f'tr[data-player="{ew[0]}"] [data-vp]').inner_text())
    assert vp_ns > vp_ew
    # The next game was drawn, and the officer corrects game 1 with a reason.
    expect(page.locator('[data-game="2"] form[data-result="2-1"]')).to_be_visible()
    page.locator('tr[data-table="1-1"] summary').click()
    correction = page.locator('form[data-correction="1-1"]')
    correction.locator('input[name="ns"]').fill("400")
    correction.locator('input[name="ew"]').fill("1100")
    correction.locator('input[name="reason"]').fill("punteggi invertiti")
    correction.get_by_role("button").click()
    expect(page.locator('[data-score="1-1"]')).to_contain_text("400 – 1100")
    for name in ew:
        expect(ranking.locator(f'tr[data-player="{name}"] [data-place]')).to_have_text("1")
    audit = page.locator('[data-panel="evening-audit"] li[data-action="result.correct"]')
    expect(audit).to_contain_text("punteggi invertiti")

    # The room sat game 2 differently: the officer records the seating by hand.
    page.locator('[data-game="2"] summary', has_text="Posti scelti a mano").click()
    seating = page.locator('form[data-form="seating-2"]')
    seating.locator('textarea[name="tables"]').fill("Carla, anna_web, Dario, Bruno")
    seating.locator('input[name="reason"]').fill("sorteggio manuale")
    seating.get_by_role("button").click()
    expect(page.locator('tr[data-table="2-1"] td').nth(1)).to_have_text("Carla – Dario")
    expect(page.locator('tr[data-table="2-1"] td').nth(2)).to_have_text("anna_web – Bruno")

    # A member reads the same evening: the scores and the ranking, no result forms.
    reader = signed_in(pages, server, member)
    reader.goto(f"/?club={club_id}&tab=evening&evening={evening_id}")
    expect(reader.locator('[data-score="1-1"]')).to_contain_text("400 – 1100")
    expect(reader.locator('[data-ranking="1"] tr[data-player]')).to_have_count(4)
    expect(reader.locator("form[data-result]")).to_have_count(0)
    expect(reader.locator('[data-tab="audit"]')).to_have_count(0)
    officer.close()
    member.close()


def test_the_room_timer_page(pages: Pages, server: Server) -> None:
    officer, member, _club, evening_id = evening_ready(server)
    # Nobody needs to log in to see the timer (it is projected in the room).
    screen = pages.new(width=1920, height=1080)
    screen.clock.install()  # Playwright's clock: the countdown's seconds are run through
    screen.goto(f"/?timer={evening_id}")
    root = screen.locator(".timer-screen")
    expect(root).to_have_attribute("data-phase", "waiting")
    expect(screen.locator("[data-timer-heading]")).to_contain_text("Partita 1 di 3")
    expect(screen.locator("[data-timer-title]")).to_contain_text("Circolo Web")

    ok(officer.post(f"/evenings/{evening_id}/games/1/start", json={}))
    screen.clock.run_for(5000)  # the screen's next poll (js/clubtimer.js, every 5 s)
    expect(root).to_have_attribute("data-phase", "playing")
    clock = screen.locator("[data-timer-clock]")
    expect(clock).to_have_text(re.compile(r"^(49|50):\d\d$"))
    first = clock.inner_text()
    screen.clock.run_for(2100)
    expect(clock).not_to_have_text(first)  # it counts down by itself

    screen.locator('[data-cmd="fullscreen"]').click()
    screen.wait_for_function("() => document.fullscreenElement !== null")
    expect(screen.locator('[data-cmd="fullscreen"]')).to_have_text("Esci dallo schermo intero")
    officer.close()
    member.close()
