"""The score sheet between two smazzate, in Chromium (issue 15, defect 8): it lists the cards
each seat was left holding (R60 counts them against the line), counts down to the next deal, and
the next deal waits while a seated person reads it, starting as soon as the sheet is closed."""

from __future__ import annotations

import re

import pytest

from burraco.server.clock import FastForwardClock
from tests.server.inprocess import caught_up

from . import driver
from .conftest import Pages, Server


@pytest.mark.seed(2)
@pytest.mark.fast_forward
def test_the_next_deal_waits_for_the_sheet_and_starts_when_it_is_closed(
    pages: Pages, server: Server
) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=2, smazzate=2, bot="heuristic")
    end = driver.play_until_sheet(page)
    assert end["sheet"] == "1" and not end["final"], end
    box = page.locator(".modal .sheet-box[data-sheet='1']")
    # The cards left in hand: one row per seat, with the cards drawn as cards.
    rows = box.locator(".hands-left li")
    assert rows.count() == 2
    assert "Carte rimaste in mano" in box.inner_text()
    held = [rows.nth(i).locator(".card[data-card]").count() for i in range(2)]
    assert sum(held) > 0, held
    countdown = box.locator(".next-deal")
    assert re.fullmatch(r"Prossima smazzata tra \d+ s", countdown.inner_text()), (
        countdown.inner_text()
    )
    # Past the usual pause between smazzate (4 s) the table still waits for the reader: the
    # server's clock jumps 6 s on, and every timer the jump passed has run at the table.
    clock = server.running.clock
    assert isinstance(clock, FastForwardClock)
    (actor,) = server.running.hub.tables.values()
    clock.fast_forward(6)
    server.running.call(caught_up(actor))
    assert actor.number == 1, "dealt while the sheet was being read"
    assert page.locator(".modal .sheet-box[data-sheet='1']").count() == 1
    assert page.locator(".table-screen").get_attribute("data-number") == "1"
    totals = box.locator("tr.sheet-match td").all_inner_texts()
    # Closed: the next smazzata is dealt at once (not after sheet_seconds, 30 s by default).
    box.locator('[data-cmd="close-sheet"]').click()
    page.wait_for_function(
        "() => document.querySelector('.table-screen').dataset.number === '2'", timeout=8000
    )
    assert page.locator(".modal .sheet-box").count() == 0
    # The header names each line with its total (the player's own first: seat 0, line 0).
    score = page.locator(".topbar .title-score")
    assert score.locator(".score-n").all_inner_texts() == totals
    assert score.locator(".score-name").all_inner_texts()[1] == "Bot Esperto"
