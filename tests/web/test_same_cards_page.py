"""A same-cards ("carte uguali") Sit&Go in the browser: created from the form with the box
ticked, its type shown, the round's commitments, the per-deal comparison of each table once the
round is over, and the side-by-side page of one deal at every table, in Italian and English."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Locator, Page, Route, WebSocketRoute

from . import driver
from .conftest import Pages


def _swap_revealed_decks(view: Any) -> int:
    """In a tournament view, the revealed decks' first two different cards change places
    (still a whole deck: only the commitment can tell); how many were changed."""
    changed = 0
    if not isinstance(view, dict):
        return 0  # another answer (a list of tournaments)
    for round_ in view.get("rounds", []):
        for deal in (round_.get("same_cards") or {}).get("deals", []):
            if deal.get("deck"):
                cards = deal["deck"].split(" ")
                i = next(i for i, c in enumerate(cards) if c != cards[0])
                cards[0], cards[i] = cards[i], cards[0]
                deal["deck"] = " ".join(cards)
                changed += 1
    return changed


def tamper_tournament(page: Page) -> list[int]:
    """Rewrite the tournament's view on its way to the page, over HTTP and the socket."""
    changed: list[int] = []

    def http(route: Route) -> None:
        answer = route.fetch()
        view = answer.json()
        changed.append(_swap_revealed_decks(view))
        route.fulfill(response=answer, body=json.dumps(view))

    def socket(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "tournament" and data.get("tournament"):
                changed.append(_swap_revealed_decks(data["tournament"]))
                message = json.dumps(data)
            ws.send(message)

        server.on_message(from_server)

    page.route(re.compile(r"/api/tournaments/[^/?]+$"), http)
    page.route_web_socket(re.compile(r"/ws$"), socket)
    return changed


def test_a_same_cards_sit_and_go_in_the_browser(pages: Pages) -> None:
    page = pages.new(width=1400)
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    page.locator('[data-cmd="tournaments"]').click()
    page.wait_for_selector(".tournaments-screen")
    form = page.locator('form[data-form="tournament"]')
    form.locator('input[name="name"]').fill("Carte uguali di prova")
    form.locator('select[name="size"]').select_option("6")
    form.locator('select[name="rounds"]').select_option("1")
    form.locator('select[name="smazzate"]').select_option("2")
    form.locator('input[name="sameCards"]').check()
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"\?tournament="))
    page.wait_for_selector('.tournament-screen[data-conn="open"]')
    assert "Carte uguali" in page.locator(".tour-head").inner_text()

    page.locator('.tour-bots select[name="level"]').select_option("greedy")
    page.locator('.tour-bots input[name="count"]').fill("6")
    page.locator('.tour-bots input[name="count"]').dispatch_event("change")
    page.locator('[data-cmd="bots"]').click()
    page.wait_for_selector('.tour-status[data-status="finished"]', timeout=120_000)
    round_1 = page.locator('.tour-round[data-round="1"]')
    assert round_1.locator('[data-same-cards="revealed"]').count() == 1
    # The page checked every revealed deck against the commitments it had before the reveal.
    verified = round_1.locator('[data-fair="verified"]')
    assert verified.count() == 1 and "Mazzi del turno verificati (2)" in verified.inner_text()
    tournament_url = page.url
    assert "mazzi e sali sono svelati" in round_1.inner_text()
    assert round_1.locator("li.row[data-table]").count() == 3
    # Each table: the deal-by-deal comparison, line 0's differences summing to its MP.
    details = round_1.locator(".sc-detail")
    assert details.count() == 3
    details.first.locator("summary").click()
    assert details.first.locator("tbody tr").count() == 2
    rows = page.locator(".tour-standings tbody tr").all()
    vps = [int(r.locator("td").nth(2).inner_text()) for r in rows]
    assert sum(vps) == 60 and vps == sorted(vps, reverse=True)  # 3 tables x 20 VP

    # Deal 2 at every table, side by side.
    round_1.locator('[data-link="same-cards"][data-deal="2"]').click()
    page.wait_for_url(re.compile(r"\?samecards="))
    page.wait_for_selector(".samecards-screen .sc-column .felt")
    columns = page.locator(".sc-column")
    assert columns.count() == 3
    assert page.locator(".sc-column .sc-compare").count() == 3
    assert "Smazzata 2 del turno 1, a tutti i tavoli" in page.locator(".topbar").inner_text()

    # The same deck at every table: at the deal, the same hand at seat 0 and the same discard.
    def dealt(column: Locator) -> tuple[str, ...]:
        cards = column.locator(".hand .card, .pile .card")
        return tuple(cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count()))

    seen = {dealt(c) for c in columns.all()}
    assert len(seen) == 1 and len(next(iter(seen))) == 12, seen
    page.locator('[data-cmd="last"]').click()
    page.wait_for_function("document.querySelector('.samecards-screen').dataset.step !== '0'")
    assert page.locator(".sc-column .sheet").count() == 3

    # In English.
    page.locator(".lang-btn").click()
    page.wait_for_selector(".topbar:has-text('at every table')")
    assert "Deal 2 of round 1, at every table" in page.locator(".topbar").inner_text()
    assert "Field average" in page.locator(".sc-column").first.inner_text()
    page.locator(".topbar .icon-btn").click()
    page.wait_for_selector(".tournament-screen .tour-head")
    assert "Same cards" in page.locator(".tour-head").inner_text()
    assert (
        "decks and salts are revealed" in page.locator('.tour-round[data-round="1"]').inner_text()
    )

    # A reveal tampered on its way to another page (one deck's cards swapped): a loud warning.
    fooled = pages.new(width=1400)
    changed = tamper_tournament(fooled)
    driver.guest(fooled)
    fooled.wait_for_selector(".lobby-screen")
    fooled.goto(tournament_url)
    warning = fooled.locator('.tour-round[data-round="1"] [data-fair="tampered"]')
    warning.wait_for()
    assert sum(changed) >= 2, changed
    assert "NON corrispondono" in warning.inner_text() and "1, 2" in warning.inner_text()
    assert fooled.locator('[data-fair="verified"]').count() == 0
