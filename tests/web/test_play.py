"""Whole smazzate played through the page, in Chromium, against the server's bots."""

from __future__ import annotations

import time
import urllib.request
from collections import Counter

import pytest

from . import driver
from .conftest import Pages, Server


@pytest.mark.seed(2)
def test_a_person_registers_and_plays_a_whole_smazzata_against_a_bot(
    pages: Pages, server: Server
) -> None:
    started = time.monotonic()
    page = pages.new()
    driver.register(page, "Giulia")
    assert page.locator(".user-name").inner_text() == "Giulia"
    table = driver.create_table(page, players=2, smazzate=1, bot="heuristic")
    stats: Counter[str] = Counter()
    end = driver.play_until_sheet(page, stats)
    assert end["final"] or end["sheet"]
    # The person drew, opened melds, attached and discarded through the page.
    assert stats["draw"] >= 1 and stats["open"] >= 1 and stats["discard"] >= 1, stats
    assert stats["attach"] >= 1, stats
    assert stats["pickup"] >= 1, stats
    # The score sheet: each line's breakdown (R60), then the match totals (one smazzata: the
    # match is over, and the final sheet follows the smazzata's).
    box = page.locator(".modal .sheet-box[data-final]")
    box.wait_for()
    rows = box.locator("table.sheet").first.locator("tbody tr th")
    assert rows.all_inner_texts()[:5] == [
        "Carte a terra",
        "Burraco",
        "Chiusura",
        "Carte in mano",
        "Pozzetto non preso",
    ]
    assert "Giulia" in box.locator("thead").first.inner_text()
    assert "Totale partita" in box.inner_text()
    # The record can be downloaded ...
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}/record?match=1") as response:
        record = response.read().decode()
    assert "[[hands]]" in record or "[[hand]]" in record or "actions" in record
    # ... and replayed step by step from the server's public views.
    page.locator('.modal a[data-link="replay"]').click()
    page.wait_for_selector(".replay-screen .felt")
    screen = page.locator(".replay-screen")
    assert screen.get_attribute("data-step") == "0"
    assert page.locator(".replay-screen .hand .card[data-card]").count() == 11
    page.locator('[data-cmd="forward"]').click()
    page.locator('[data-cmd="forward"]').click()
    assert screen.get_attribute("data-step") == "2"
    page.locator('[data-cmd="back"]').click()
    assert screen.get_attribute("data-step") == "1"
    page.keyboard.press("End")
    last = int(screen.get_attribute("data-step") or 0)
    assert last > 20
    assert page.locator(".replay-side .sheet").count() >= 1
    page.locator(".replay-hand").select_option("0")
    assert screen.get_attribute("data-step") == "0"
    download = page.locator('a[data-link="download"]')
    assert download.get_attribute("href") == f"/api/tables/{table}/record?match=1"
    assert time.monotonic() - started < 120


@pytest.mark.seed(3)
def test_a_four_player_table_with_three_bots_reaches_the_end_of_a_smazzata(
    pages: Pages,
) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=4, smazzate=1, bot="heuristic")
    assert page.locator(".board > .chip").count() == 3
    assert page.locator(".board > .chip.partner.at-top").count() == 1
    stats: Counter[str] = Counter()
    end = driver.play_until_sheet(page, stats)
    assert end["final"] or end["sheet"], end
    page.locator(".modal .sheet-box[data-final]").wait_for()
    # Two lines on the sheet: each pair's names together.
    heads = page.locator(".modal table.sheet").first.locator("thead th").all_inner_texts()
    assert len(heads) == 3 and all("&" in h for h in heads[1:]), heads
