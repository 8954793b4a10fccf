"""The first screen of a logged-out visitor (issue 15): the site's life - a table being played
(watchable), a table waiting for players, an announced tournament - one click to play as a
guest, the login card beside them, in both languages, on a phone and a desktop, with no error
in the console. The tables and the tournament are made through the HTTP API by registered
players; what is tested here is the page."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import ConsoleMessage, Page, Request, Route, expect

from .conftest import Pages, Server

REFRESH_MS = 12000
"""The first screen's refresh (js/firstscreen.js)."""

PASSWORD = "front-password-1"


def player(server: Server, name: str) -> httpx.Client:
    """A registered player's API client (the session token as header and cookie)."""
    answer = httpx.post(
        f"{server.url}/api/register",
        json={"name": name, "password": PASSWORD},
        timeout=30,
        trust_env=False,
    )
    assert answer.status_code == 201, answer.text
    return server.client(base_url=f"{server.url}/api", token=answer.json()["token"])


def ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def live_site(server: Server) -> dict[str, str]:
    """Giulia plays a bot (the table is in play), Marta waits for an opponent, Sandro announces a
    tournament for tomorrow. Their ids, by what they are."""
    giulia = player(server, "Giulia")
    # No clock: the match stays in play, waiting for Giulia's move, as long as the test runs.
    live = ok(
        giulia.post("/tables", json={"players": 2, "smazzate": 3, "bots": {"1": "heuristic"}}),
        201,
    )
    assert live["status"] == "playing", live
    marta = player(server, "Marta")
    waiting = ok(marta.post("/tables", json={"players": 2, "smazzate": 1}), 201)
    assert waiting["status"] == "open", waiting
    sandro = player(server, "Sandro")
    starts = (datetime.now(UTC) + timedelta(days=1)).replace(microsecond=0)
    announced = {"name": "Coppa del Lunedì", "start": "scheduled", "starts_at": starts.isoformat()}
    tournament = ok(sandro.post("/tournaments", json=announced), 201)
    return {"live": live["id"], "open": waiting["id"], "tournament": tournament["id"]}


def console_errors(page: Page) -> list[str]:
    seen: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            seen.append(message.text)

    page.on("console", console)
    return seen


def no_horizontal_scroll(page: Page) -> None:
    wide = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the page scrolls sideways by {wide}px"
    # Every panel is inside the viewport's width (nothing clipped at the right edge).
    width = page.viewport_size["width"] if page.viewport_size else 0
    overflow = page.evaluate(
        """(width) => [...document.querySelectorAll('.front-hero, .front-panel, .auth-card, .row')]
          .filter((el) => el.getBoundingClientRect().right > width + 0.5)
          .map((el) => el.className)""",
        width,
    )
    assert overflow == [], overflow


@pytest.mark.parametrize("size", [(390, 844), (1366, 800)], ids=["phone", "desktop"])
def test_a_logged_out_visitor_sees_live_and_open_tables_and_tournaments(
    pages: Pages, server: Server, size: tuple[int, int]
) -> None:
    ids = live_site(server)
    page = pages.new(width=size[0], height=size[1])
    errors = console_errors(page)
    page.goto("/")
    live = page.locator(f'[data-list="live"] [data-table="{ids["live"]}"]')
    expect(live).to_contain_text("Giulia")
    expect(live).to_contain_text("Bot")
    expect(live.locator('[data-cmd="watch"]')).to_have_text("Guarda")
    waiting = page.locator(f'[data-list="open"] [data-table="{ids["open"]}"]')
    expect(waiting).to_contain_text("Marta")
    expect(waiting).to_contain_text("1 posto libero")
    expect(waiting.locator('[data-cmd="join"]')).to_have_text("Siediti")
    tour = page.locator(f'[data-list="tours"] [data-tournament="{ids["tournament"]}"]')
    expect(tour).to_contain_text("Coppa del Lunedì")
    expect(tour).to_contain_text("Inizio")
    # The sections, the guest button and the login card, all on the one screen.
    for title in ("Si gioca ora", "Tavoli aperti", "Prossimi tornei"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.locator('[data-cmd="guest"]')).to_have_text("Gioca subito come ospite")
    expect(page.locator("#auth-password")).to_be_attached()
    pulse = "1 partita in corso · 1 tavolo cerca giocatori"
    expect(page.locator("[data-pulse]")).to_have_text(pulse)
    # Each list's row is not repeated in the other (a table is live or open, not both).
    assert page.locator(f'[data-list="open"] [data-table="{ids["live"]}"]').count() == 0
    no_horizontal_scroll(page)
    assert errors == []


def test_empty_lists_say_so_each_in_its_own_words(pages: Pages) -> None:
    page = pages.new(width=390, height=844)
    errors = console_errors(page)
    page.goto("/")
    empties = page.locator(".front-empty")
    expect(empties).to_have_count(3)
    texts = empties.all_inner_texts()
    assert len(set(texts)) == 3 and all(texts), texts
    no_horizontal_scroll(page)
    assert errors == []


def test_one_click_makes_a_guest_and_opens_the_lobby(pages: Pages) -> None:
    page = pages.new(width=390, height=844)
    errors = console_errors(page)
    page.goto("/")
    # Prominent: seen on a phone without scrolling, above the lists and the login card.
    guest = page.locator('[data-cmd="guest"]')
    expect(guest).to_have_text("Gioca subito come ospite")
    expect(guest).to_be_in_viewport()
    box, card = guest.bounding_box(), page.locator(".auth-card").bounding_box()
    assert box and card and box["y"] < card["y"]
    guest.click()
    expect(page.locator(".lobby-screen")).to_be_visible()
    expect(page.locator(".lobby-top .user-name")).to_contain_text("Ospite")
    assert errors == []


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_lobby_does_not_move_when_its_first_news_arrives(
    pages: Pages, width: int, height: int
) -> None:
    """The lobby's controls stay where they were first drawn: the presence line ("3 in linea ·
    ...") arrives with the first refresh and used to push every panel down by a line, so a click
    made as the lobby appeared (a person's, or a browser test's) landed on another control (the
    players' radio "did not change its state" in CI)."""
    page = pages.new(width=width, height=height)
    page.goto("/")
    held: list[Route] = []  # the lobby's presence answers wait until the lobby is measured

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/presence", hold)
    page.locator('[data-cmd="guest"]').click()
    page.wait_for_selector(".lobby-screen .create-form")
    tops = """() => ['.lobby-grid', '.create-form input[name="players"][value="3"]',
        '.panel.quickplay [data-cmd="qp-join"]'].map(
        (s) => Math.round(document.querySelector(s).getBoundingClientRect().top))"""
    first = page.evaluate(tops)
    page.wait_for_timeout(300)  # the other first answers (lists, quick play, friends)
    assert page.evaluate(tops) == first
    for _ in range(200):  # the lobby asks for presence after its lists: at most 10 s
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the lobby never asked for the presence line"
    for route in held:
        route.continue_()
    page.unroute("**/api/presence")
    expect(page.locator(".lobby-presence")).to_contain_text("in linea")
    assert page.evaluate(tops) == first


def test_watch_makes_a_guest_and_opens_the_table_as_a_spectator(
    pages: Pages, server: Server
) -> None:
    ids = live_site(server)
    page = pages.new(width=390, height=844)
    errors = console_errors(page)
    page.goto("/")
    page.locator(f'[data-table="{ids["live"]}"] [data-cmd="watch"]').click()
    page.wait_for_url(re.compile(rf"\?table={ids['live']}"))
    screen = page.locator('.table-screen[data-status="playing"]')
    expect(screen).to_be_visible()
    # A spectator has no seat (data-you is empty) and is told so.
    expect(screen).to_have_attribute("data-you", "")
    expect(page.get_by_text("Stai guardando", exact=False).first).to_be_visible()
    assert errors == []


def test_join_makes_a_guest_and_sits_at_the_open_table(pages: Pages, server: Server) -> None:
    ids = live_site(server)
    page = pages.new()
    errors = console_errors(page)
    page.goto("/")
    page.locator(f'[data-table="{ids["open"]}"] [data-cmd="join"]').click()
    page.wait_for_url(re.compile(rf"\?table={ids['open']}"))
    # Two seats, both taken: the match starts with the guest in seat 1.
    expect(page.locator('.table-screen[data-status="playing"]')).to_have_attribute("data-you", "1")
    assert errors == []


def test_the_english_first_screen(pages: Pages, server: Server) -> None:
    live_site(server)
    page = pages.new()
    errors = console_errors(page)
    page.goto("/?lang=en")
    for title in ("Playing now", "Open tables", "Coming tournaments"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.locator('[data-cmd="guest"]')).to_have_text("Play now as a guest")
    expect(page.locator('[data-cmd="watch"]')).to_have_text("Watch")
    expect(page.locator('[data-cmd="join"]')).to_have_text("Sit down")
    expect(page.locator('[data-cmd="tournament"]')).to_have_text("See the tournament")
    expect(page.locator(".auth-card h2")).to_have_text("Log in or sign up")
    expect(page.locator('[data-list="tours"]')).to_contain_text("Starts")
    body = page.locator(".first-screen").inner_text()
    for italian in ("Si gioca ora", "Guarda", "Siediti", "ospite", "Prossimi"):
        assert italian not in body, italian
    assert errors == []


def test_the_lists_refresh_while_open_and_stop_after_leaving(pages: Pages, server: Server) -> None:
    page = pages.new()
    errors = console_errors(page)
    asked: list[float] = []

    def request(req: Request) -> None:
        if req.url.endswith("/api/tournaments"):
            asked.append(time.monotonic())

    page.on("request", request)
    # The page's clock is Playwright's: its 12 s refresh is run through, not waited for.
    page.clock.install()
    page.goto("/")
    expect(page.locator(".front-empty")).to_have_count(3)
    # A table opened after the page was drawn shows up by itself.
    marta = player(server, "Marta")
    table = ok(marta.post("/tables", json={"players": 2, "smazzate": 1}), 201)
    page.clock.run_for(REFRESH_MS)
    expect(page.locator(f'[data-list="open"] [data-table="{table["id"]}"]')).to_be_visible()
    assert len(asked) >= 2
    # Leaving the screen stops its timer: no more asking for the first screen's lists.
    page.locator('[data-cmd="guest"]').click()
    expect(page.locator(".lobby-screen")).to_be_visible()
    left = time.monotonic()
    page.clock.run_for(REFRESH_MS + 2000)  # past the next refresh the timer would have made
    page.evaluate("() => fetch('/api/info').then((r) => r.ok)")  # what it asked has been sent
    assert [at for at in asked if at > left] == []
    assert errors == []
