"""Three players (RULES.md 3.5) from the lobby's form, in Chromium, against the server's bots."""

from __future__ import annotations

from collections import Counter

import pytest

from . import driver
from .conftest import Pages


@pytest.mark.seed(4)
def test_a_three_player_table_with_two_bots_reaches_the_end_of_a_smazzata(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=3, smazzate=1, bot="heuristic")
    # R 3.5: each on his own, so two opponents and no partner.
    assert page.locator(".board > .chip").count() == 2
    assert page.locator(".board > .chip.partner").count() == 0
    stats: Counter[str] = Counter()
    end = driver.play_until_sheet(page, stats)
    assert end["final"] or end["sheet"], end
    page.locator(".modal .sheet-box[data-final]").wait_for()
    # R 3.5: the lines of the smazzata (the two partners of the moment together, or three
    # players each on his own) name the three players between them.
    heads = page.locator(".modal table.sheet").first.locator("thead th").all_inner_texts()
    names = [name for head in heads[1:] for name in head.split(" & ")]
    assert len(names) == 3 and len(heads) in (3, 4), heads


def test_a_seat_left_open_makes_a_mixed_table_that_waits_for_a_person(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    form = page.locator(".create-form")
    form.locator('input[name="players"][value="4"]').check(force=True)
    page.wait_for_selector('.create-form select[name="bot3"]')
    # The partner's seat stays open for a person; the two opponents are bots.
    form.locator('select[name="bot2"]').select_option("open")
    form.locator('select[name="bot1"]').select_option("heuristic")
    form.locator('select[name="bot3"]').select_option("heuristic")
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/?table=*")
    table = page.evaluate("() => new URLSearchParams(location.search).get('table')")
    state = page.evaluate(
        "async (id) => (await fetch('/api/tables/' + encodeURIComponent(id))).json()", table
    )
    seats = state["seats"]
    assert seats[2] is None or not seats[2].get("bot"), seats
    assert all(seats[s] and seats[s].get("bot") for s in (1, 3)), seats
