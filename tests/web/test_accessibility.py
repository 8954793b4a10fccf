"""Accessibility (issue 15): axe-core, pinned in tests/web/package.json and installed by
scripts/test (``npm ci``), is injected into each screen a person meets (the first screen with its
lists filled, the lobby, a table in play, the score sheet, the tournament pages, the rules page)
and must report no serious or critical violation. The hand's cards are reached and chosen by the
keyboard alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from . import driver
from .conftest import Pages, Server
from .test_first_screen import live_site
from .test_tournament_page import create_sitgo

SHARED_SERVER = True
"""One server for the module's tests (conftest.py): guests, each at a table or tournament of
its own."""

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}"""


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    assert AXE.exists(), f"{AXE} is missing: run scripts/test (npm ci --prefix tests/web)"
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def assert_accessible(page: Page, screen: str) -> None:
    found = serious_violations(page)
    assert found == [], f"{screen}: {found}"


def test_the_first_screen_and_the_lobby_have_no_serious_violation(
    pages: Pages, server: Server
) -> None:
    # The first screen with its three lists filled (a table in play, one waiting for a player, an
    # announced tournament): the rows' secondary text and buttons are checked too. The lobby then
    # lists the same tables (its rows' secondary text was too pale).
    live_site(server)
    page = pages.new()
    page.goto("/")
    for name in ("live", "open", "tours"):
        page.locator(f'[data-list="{name}"] .row').first.wait_for()
    assert_accessible(page, "first screen")
    page.locator('[data-cmd="guest"]').click()
    page.wait_for_selector(".lobby-screen .row-main")
    assert_accessible(page, "lobby")
    english = pages.new(width=390, height=844)
    english.goto("/?lang=en")
    english.locator('[data-list="tours"] .row').first.wait_for()
    assert_accessible(english, "first screen (en, phone)")


def test_a_table_in_play_and_its_score_sheet_have_no_serious_violation(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=2, smazzate=1, bot="heuristic")
    now = driver.wait_settled(page)
    assert not now["sheet"] and now["phase"], now
    assert_accessible(page, "table (my turn)")
    page.locator('[data-cmd="settings"]').click()
    page.wait_for_selector(".settings-panel")
    assert_accessible(page, "settings panel")
    page.keyboard.press("Escape")
    page.wait_for_selector(".settings-panel", state="detached")
    checked: list[int] = []

    def check_turn(page: Page, turn: int) -> None:
        # Later turns too: melds on the table, the pile grown, the log filled.
        if turn in (3, 8, 14):
            assert_accessible(page, f"table (turn {turn})")
            checked.append(turn)

    end = driver.play_until_sheet(page, on_turn=check_turn)
    assert end["sheet"] or end["final"], end
    assert checked, "the smazzata ended before the later turns were checked"
    page.locator(".modal .sheet-box").first.wait_for()
    assert_accessible(page, "score sheet")


def test_the_hand_is_reached_and_chosen_with_the_keyboard(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=2, smazzate=1, bot="heuristic")
    driver.wait_settled(page)
    # Each card of the hand is a labelled button; one of them is in the tab order (a roving
    # tabindex: the arrows move between cards).
    cards = page.locator(".hand .card[data-card]")
    assert cards.count() >= 11
    for i in range(cards.count()):
        card = cards.nth(i)
        assert card.get_attribute("role") == "button"
        assert card.get_attribute("aria-label")
        assert card.get_attribute("aria-pressed") == "false"
    assert page.locator('.hand .card[tabindex="0"]').count() == 1
    # The Tab key alone reaches the hand from the top of the page.
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.hand .card')"):
            break
    else:
        raise AssertionError("Tab never reached a card of the hand")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.index")
    page.keyboard.press("Enter")
    chosen = page.locator(f'.hand .card[data-index="{focused}"]')
    assert chosen.get_attribute("aria-pressed") == "true"
    # After drawing (the S key), the slot for a new meld is a button in the tab order; Enter on
    # it opens the chosen cards as a meld, as a click does (play.js key()).
    page.keyboard.press("s")
    slot = page.locator(".line-area.ours .new-meld")
    slot.wait_for()
    assert slot.get_attribute("role") == "button"
    assert slot.get_attribute("tabindex") == "0"
    assert slot.get_attribute("aria-label")
    # Each line's melds form a named, focusable area (it may scroll).
    for area in page.locator(".line-area").all():
        assert area.get_attribute("tabindex") == "0"
        assert area.get_attribute("aria-label")
    # The stock and the discard pile are reachable and named too.
    for act in ("draw", "pickup"):
        target = page.locator(f'[data-act="{act}"]')
        assert target.count() == 1, act
        assert target.get_attribute("tabindex") == "0", act
        assert target.get_attribute("aria-label"), act


def test_the_tournament_pages_have_no_serious_violation(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    page.goto("/?tournaments")
    page.wait_for_selector(".tournaments-screen")
    assert_accessible(page, "tournaments")
    create_sitgo(page, "Serata accessibile")
    assert_accessible(page, "one tournament")


def test_the_rules_page_has_no_serious_violation(pages: Pages) -> None:
    page = pages.new()
    page.goto("/?rules")
    page.wait_for_selector(".rules-cards")
    assert_accessible(page, "rules")
