"""A same-cards ("carte uguali") Sit&Go in the browser: created from the form with the box
ticked, its type shown, the round's commitments, the per-deal comparison of each table once the
round is over, and the side-by-side page of one deal at every table, in Italian and English."""

from __future__ import annotations

import re

from playwright.sync_api import Locator

from . import driver
from .conftest import Pages


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
