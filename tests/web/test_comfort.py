"""Comfort at the table (issue 15): the hand in the player's own order (defect 9: dragging,
Shift+arrows, kept across new events and a reload), the settings panel, sounds and mute, "your
turn" in the title, quick chat, and the installable app (manifest and service worker)."""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Page

from . import driver
from .conftest import Pages

HAND_JS = (
    "() => [...document.querySelectorAll('.hand .card[data-index]')].map((c) => c.dataset.card)"
)
SOUNDS_JS = "() => ({...(window.__burracoSounds || {})})"


def hand(page: Page) -> list[str]:
    cards: list[str] = page.evaluate(HAND_JS)
    return cards


def at_my_turn(page: Page) -> str:
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    table = driver.create_table(page, players=2, smazzate=1, bot="heuristic")
    now = driver.wait_settled(page)
    assert now["myTurn"] and now["phase"] == "acquire", now
    return table


def drag_first_card_to_the_end(page: Page) -> None:
    cards = page.locator(".hand .card[data-index]")
    first = cards.first.bounding_box()
    last = cards.last.bounding_box()
    assert first is not None and last is not None
    page.mouse.move(first["x"] + 6, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(first["x"] + 40, first["y"] + first["height"] / 2, steps=4)
    page.mouse.move(last["x"] + last["width"] - 4, last["y"] + last["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.seed(2)
def test_dragging_a_card_reorders_the_hand_and_the_order_survives_a_draw_and_a_reload(
    pages: Pages,
) -> None:
    # Defect 9: the hand could only be sorted per seme / per valore.
    page = pages.new()
    at_my_turn(page)
    before = hand(page)
    assert len(before) == 11  # R10: eleven cards each
    drag_first_card_to_the_end(page)
    page.wait_for_function(f"() => ({HAND_JS})()[10] === {before[0]!r}")
    moved = before[1:] + before[:1]
    assert hand(page) == moved
    # A new event (the card drawn, R13) keeps the order and appends the new card.
    seq = driver.state(page)["seq"]
    page.locator(".stock").click()
    page.wait_for_function(f"() => document.querySelector('.table-screen').dataset.seq !== {seq!r}")
    page.wait_for_function(f"() => ({HAND_JS})().length === 12")
    after_draw = hand(page)
    assert after_draw[:11] == moved, after_draw
    # A reload keeps it too (sessionStorage, per table).
    page.reload()
    page.wait_for_selector(".hand .card[data-index]")
    page.wait_for_function(f"() => ({HAND_JS})().length === 12")
    assert hand(page) == after_draw
    # The keyboard: Shift+arrow moves the focused card one place.
    page.locator('.hand .card[data-index="0"]').focus()
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_function(f"() => ({HAND_JS})()[1] === {after_draw[0]!r}")
    assert hand(page)[:2] == [after_draw[1], after_draw[0]]
    focused = page.evaluate("() => document.activeElement.dataset.index")
    assert focused == "1"
    # Sorting by suit or rank replaces the custom order; "group my melds" is a custom order
    # again, kept like a dragged one.
    page.locator('.action-bar [data-cmd="sort"]').click()
    assert stored(page)["mode"] == "suit"
    page.locator('.action-bar [data-cmd="sort"]').click()
    page.wait_for_selector('.action-bar [data-cmd="sort"][data-sort="rank"]')
    assert sorted(hand(page)) == sorted(after_draw)
    assert stored(page)["mode"] == "rank"
    page.locator('.action-bar [data-cmd="group"]').click()
    page.wait_for_function(
        "() => JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage)"
        ".find((k) => k.startsWith('burraco:hand:')))).mode === 'custom'"
    )
    grouped = hand(page)
    assert sorted(grouped) == sorted(after_draw)
    assert stored(page)["custom"] == grouped
    # Legal openings first (largest first); without any (not the player's turn), three natural
    # cards of a rank go together, then the rest by suit.
    examples = page.evaluate(
        """async () => {
          const { groupMelds } = await import('/js/handorder.js');
          return [
            groupMelds(
              ['KH', '5S', '6S', '7S', 'QD', '4S'], ['0 open 5S 6S 7S', '0 open 4S 5S 6S 7S'],
            ),
            groupMelds(['KH', '9C', '9D', '2H', '9S', '4C'], null),
          ];
        }"""
    )
    assert examples[0][:4] == ["4S", "5S", "6S", "7S"]
    assert sorted(examples[1][:3]) == ["9C", "9D", "9S"]
    assert sorted(examples[1]) == sorted(["KH", "9C", "9D", "2H", "9S", "4C"])


def stored(page: Page) -> dict[str, object]:
    saved: dict[str, object] = page.evaluate(
        "() => JSON.parse(sessionStorage.getItem('burraco:hand:' +"
        " new URLSearchParams(location.search).get('table')))"
    )
    return saved


@pytest.mark.seed(2)
def test_settings_persist_in_the_browser(pages: Pages) -> None:
    page = pages.new()
    at_my_turn(page)
    width_before = page.locator(".hand .card[data-index]").first.bounding_box()
    page.locator('[data-cmd="settings"]').click()
    panel = page.locator(".settings-panel")
    assert panel.locator("h2").inner_text() == "Impostazioni"
    panel.locator('input[name="cardSize"][value="large"]').check()
    panel.locator('input[name="sound"]').uncheck()
    panel.locator('input[name="sort"][value="rank"]').check()
    panel.locator('input[name="confirmLast"]').check()
    panel.locator('[data-setting="close"]').click()
    assert panel.count() == 0
    width_after = page.locator(".hand .card[data-index]").first.bounding_box()
    assert width_before is not None and width_after is not None
    assert width_after["width"] > width_before["width"]
    page.reload()
    page.wait_for_selector(".hand .card[data-index]")
    assert page.evaluate("() => document.documentElement.dataset.cardSize") == "large"
    page.locator('[data-cmd="settings"]').click()
    assert panel.locator('input[name="cardSize"][value="large"]').is_checked()
    assert not panel.locator('input[name="sound"]').is_checked()
    assert panel.locator('input[name="sort"][value="rank"]').is_checked()
    assert panel.locator('input[name="confirmLast"]').is_checked()
    # English on request: the panel's words come from the catalogs.
    panel.locator('[data-setting="close"]').click()
    page.locator('[data-cmd="lang"]').click()
    page.locator('[data-cmd="settings"]').click()
    assert panel.locator("h2").inner_text() == "Settings"


@pytest.mark.seed(2)
def test_your_turn_sounds_and_shows_in_the_title_and_mute_silences_it(pages: Pages) -> None:
    page = pages.new()
    at_my_turn(page)
    page.wait_for_function("() => document.title === 'Tocca a te · Burraco'")
    first = page.evaluate(SOUNDS_JS)
    assert first.get("turn", 0) >= 1
    stats: Counter[str] = Counter()
    driver.play_turn(page, stats, allow_pickup=False)
    driver.wait_settled(page)
    again = page.evaluate(SOUNDS_JS)
    assert again["turn"] == first["turn"] + 1
    assert page.title() == "Tocca a te · Burraco"
    # Muted: the next turn makes no sound.
    page.locator('[data-cmd="settings"]').click()
    page.locator('.settings-panel input[name="sound"]').uncheck()
    page.locator('.settings-panel [data-setting="close"]').click()
    driver.play_turn(page, stats, allow_pickup=False)
    driver.wait_settled(page)
    assert page.evaluate(SOUNDS_JS) == again
    # The low-time alarm of the player's clock rings once at 30 s and once at 10 s, if not muted.
    counts = page.evaluate(
        """async () => {
          const { ClockAlarm } = await import('/js/sounds.js');
          const { saveSettings } = await import('/js/settings.js');
          const ring = () => {
            const alarm = new ClockAlarm();
            for (const left of [45, 31, 29.5, 20, 11, 9.8, 3]) alarm.update(left);
          };
          ring();
          const muted = {...window.__burracoSounds};
          saveSettings({ sound: true });
          ring();
          return [muted, {...window.__burracoSounds}];
        }"""
    )
    assert counts[0].get("low30", 0) == 0 and counts[0].get("low10", 0) == 0
    assert counts[1]["low30"] == 1 and counts[1]["low10"] == 1


@pytest.mark.seed(2)
def test_quick_chat_sends_a_chat_line(pages: Pages) -> None:
    page = pages.new()
    at_my_turn(page)
    buttons = page.locator(".quick-chat .quick-phrase")
    assert buttons.all_inner_texts() == ["Ciao", "Buona partita", "Bravo!", "Grazie"]
    page.locator('.quick-phrase[data-phrase="good_game"]').click()
    page.locator(".chat-line .chat-text", has_text="Buona partita").wait_for()


def test_the_app_is_installable_manifest_and_service_worker(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector('[data-cmd="guest"]')
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    scope = page.evaluate(
        """async () => {
          const reg = await navigator.serviceWorker.ready;
          return reg.scope;
        }"""
    )
    assert scope == page.url.split("?")[0].rstrip("/") + "/"
    manifest = page.evaluate("async () => (await fetch('/manifest.webmanifest')).json()")
    assert manifest["display"] == "standalone"


@pytest.mark.seed(2)
def test_a_finger_drags_a_card_within_the_hand(pages: Pages) -> None:
    # The same reordering with touch (pointer events from a touch screen, as on a phone).
    page = pages.new(width=390, height=844, touch=True)
    at_my_turn(page)
    before = hand(page)
    cards = page.locator(".hand .card[data-index]")
    first = cards.first.bounding_box()
    last = cards.last.bounding_box()
    assert first is not None and last is not None
    cdp = page.context.new_cdp_session(page)
    y = first["y"] + first["height"] / 2
    x0 = first["x"] + 4
    x1 = last["x"] + last["width"] - 3
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for step in range(1, 11):
        x = x0 + (x1 - x0) * step / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(f"() => ({HAND_JS})()[10] === {before[0]!r}")
    assert hand(page) == before[1:] + before[:1]
