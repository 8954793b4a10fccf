"""Quick play in Chromium (issue 16): two registered players ask for a rated 2-player table
from the lobby and land at the same table; a guest plays casual only; a player who lets bots
fill gets a table with bots after his wait; waiting can be cancelled."""

from __future__ import annotations

from . import driver
from .conftest import Pages


def test_two_players_find_each_other_by_quick_play(pages: Pages) -> None:
    anna, bruno = pages.new(), pages.new()
    driver.register(anna, "Anna")
    driver.register(bruno, "Bruno")
    panel = anna.locator(".panel.quickplay")
    assert panel.locator('input[name="qp-rated"]').is_checked()
    panel.locator('select[name="qp-bots"]').select_option("")  # people only
    panel.locator('[data-cmd="qp-join"]').click()
    anna.locator(".qp-waiting[data-qp='waiting']").wait_for()
    assert "Cerco avversari" in panel.inner_text()
    bruno.locator(".panel.quickplay select[name='qp-bots']").select_option("")
    bruno.locator(".panel.quickplay [data-cmd='qp-join']").click()
    bruno.wait_for_selector(".felt", timeout=15000)
    anna.wait_for_selector(".felt", timeout=15000)
    ids = [
        p.evaluate("() => new URLSearchParams(location.search).get('table')") for p in (anna, bruno)
    ]
    assert ids[0] == ids[1]
    names = anna.locator(".topbar .title-score .score-name").all_inner_texts()
    assert sorted(names) == ["Anna", "Bruno"]


def test_a_guest_waits_casual_then_bots_fill_and_waiting_can_be_cancelled(pages: Pages) -> None:
    page = pages.new(width=390, height=844, touch=True)
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    panel = page.locator(".panel.quickplay")
    rated = panel.locator('input[name="qp-rated"]')
    assert rated.is_disabled() and not rated.is_checked()
    panel.locator('select[name="qp-bots"]').select_option("")
    panel.locator('[data-cmd="qp-join"]').click()
    page.locator(".qp-waiting").wait_for()
    page.locator('[data-cmd="qp-leave"]').click()
    page.locator('[data-cmd="qp-join"]').wait_for()
    # Bots after 15 s: the table comes by itself.
    panel.locator('input[name="qp-players"][value="3"]').check(force=True)
    panel.locator('select[name="qp-bots"]').select_option("15")
    panel.locator('[data-cmd="qp-join"]').click()
    page.wait_for_selector(".felt", timeout=30000)
    assert page.locator(".board > .chip").count() == 2
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
