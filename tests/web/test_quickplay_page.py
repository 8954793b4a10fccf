"""Quick play in Chromium (issue 16): two registered players ask for a rated 2-player table
from the lobby and land at the same table; a guest plays casual only; a player who lets bots
fill gets a table with bots after his wait; waiting can be cancelled."""

from __future__ import annotations

from playwright.sync_api import Locator, Route, expect

from . import driver
from .conftest import Pages
from .test_i18n import italian_left


def test_two_players_find_each_other_by_quick_play(pages: Pages) -> None:
    anna, bruno = pages.new(), pages.new()
    driver.register(anna, "Anna")
    driver.register(bruno, "Bruno")
    panel = anna.locator(".panel.quickplay")
    assert panel.locator('input[name="qp-rated"]').is_checked()
    # A refusal in Italian words (not the server's English sentence).
    panel.locator('input[name="qp-players"][value="4"]').check(force=True)
    panel.locator('input[name="qp-partner"]').fill("Nessuno")
    panel.locator('[data-cmd="qp-join"]').click()
    expect(panel.locator(".form-error")).to_have_text(
        "Nessun giocatore si chiama Nessuno: controlla il nome del compagno."
    )
    panel.locator('input[name="qp-players"][value="2"]').check(force=True)
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
    page.wait_for_selector(".felt", timeout=45000)
    assert page.locator(".board > .chip").count() == 2
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_a_poll_answering_after_the_leave_does_not_bring_the_wait_back(pages: Pages) -> None:
    """A status poll sent while waiting and answered after "cancel" carries a stale "waiting":
    the panel drops it instead of showing the wait again (a race seen in CI)."""
    page = pages.new()
    driver.guest(page)
    panel = page.locator(".panel.quickplay")
    panel.locator('select[name="qp-bots"]').select_option("")
    panel.locator('[data-cmd="qp-join"]').click()
    page.locator(".qp-waiting").wait_for()
    held: list[Route] = []

    def hold_one_poll(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append(route)  # answered later, after the leave
        else:
            route.continue_()

    page.route("**/api/quickplay", hold_one_poll)
    for _ in range(50):  # the panel polls every 1.5 s
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the panel did not poll while waiting"
    stale = held[0].fetch()  # asked before the leave: still "waiting"
    assert stale.json()["status"] == "waiting"
    panel.locator('[data-cmd="qp-leave"]').click()
    panel.locator('[data-cmd="qp-join"]').wait_for()
    with page.expect_event("requestfinished", lambda request: request is held[0].request):
        held[0].fulfill(response=stale)
    # A round trip of the page's own after the stale answer arrived: the panel has read it.
    assert page.evaluate("() => fetch('/api/quickplay').then((r) => r.ok)")
    assert page.locator(".qp-waiting").count() == 0
    expect(panel.locator('[data-cmd="qp-join"]')).to_be_visible()


# The catalog keys the quick-play panel shows, refusals included (test_i18n.italian_left).
PANEL_KEYS = ["qp.", "create.players", "create.rules", "create.clock", "create.rated", "cfg."]
PANEL_KEYS += ["preset.", "err."]


def assert_english(panel: Locator) -> None:
    text = panel.inner_text()
    assert not italian_left(text, PANEL_KEYS), (italian_left(text, PANEL_KEYS), text)


def test_quick_play_in_english(pages: Pages) -> None:
    """The panel, its waiting and its refusals in English, with no Italian word left."""
    anna = pages.new()
    driver.english(anna)
    driver.register(anna, "Anna")
    panel = anna.locator(".panel.quickplay")
    expect(panel.locator("h2")).to_have_text("Quick play")
    expect(panel.locator('[data-cmd="qp-join"]')).to_have_text("Find opponents")
    text = panel.inner_text()
    for english in ("Players", "2 players", "Rules", "Clock", "If players are missing", "Rated"):
        assert english in text, english
    assert panel.locator('select[name="qp-rules"] option:checked').inner_text() == (
        "Italian (tournament rules)"
    )
    assert panel.locator('select[name="qp-clock"] option').all_inner_texts() == [
        "untimed",
        "10 minutes (5:00 per side)",
        "25 minutes (12:30 per side)",
    ]
    assert "bots after 30 s" in panel.locator('select[name="qp-bots"]').inner_text()
    assert_english(panel)
    # In pairs: the partner's field, and the server's refusals in English words.
    panel.locator('input[name="qp-players"][value="4"]').check(force=True)
    partner = panel.locator('input[name="qp-partner"]')
    assert partner.get_attribute("placeholder") == "partner's name"
    assert "Partner (optional)" in panel.inner_text()
    partner.fill("Nobody")
    panel.locator('[data-cmd="qp-join"]').click()
    error = panel.locator(".form-error")
    expect(error).to_have_text("No player is called Nobody: check your partner's name.")
    panel.locator('input[name="qp-partner"]').fill("Anna")
    panel.locator('[data-cmd="qp-join"]').click()
    expect(error).to_have_text("You cannot be your own partner.")
    assert_english(panel)
    # Waiting, in English; asking again is refused in English.
    panel.locator('input[name="qp-players"][value="2"]').check(force=True)
    panel.locator('select[name="qp-bots"]').select_option("")
    panel.locator('[data-cmd="qp-join"]').click()
    waiting = panel.locator(".qp-waiting[data-qp='waiting']")
    waiting.wait_for()
    expect(waiting.locator(".qp-status")).to_have_text(
        "Looking for opponents of your level… (1 waiting)"
    )
    expect(waiting.locator(".muted")).to_contain_text("2-player table · waiting for")
    expect(waiting.locator('[data-cmd="qp-leave"]')).to_have_text("Stop looking")
    assert_english(panel)
    again = anna.evaluate(
        """async () => {
          const { api } = await import('/js/api.js');
          const { errorWords } = await import('/js/i18n.js');
          try {
            await api.quickplayJoin({ players: 2, rules: 'italian', clock: 'none', rated: true,
              bots_after: null });
          } catch (error) { return errorWords(error); }
          return 'accepted';
        }"""
    )
    assert again == "You are already looking for a table."
    waiting.locator('[data-cmd="qp-leave"]').click()
    panel.locator('[data-cmd="qp-join"]').wait_for()
    # A guest: casual only, said in English.
    guest = pages.new()
    driver.english(guest)
    driver.guest(guest)
    guest.wait_for_selector(".lobby-screen")
    panel = guest.locator(".panel.quickplay")
    assert panel.locator('input[name="qp-rated"]').is_disabled()
    assert "Guests have no rating: register to play rated matches." in panel.inner_text()
    assert_english(panel)
