"""At the table: refusals explained, a reload in the middle of a turn, spectators, chat, the
notice of a disconnection, invitations to a private table, keyboard play."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket

from . import driver
from .conftest import Pages


def frames(page: Page) -> dict[str, list[dict[str, Any]]]:
    """Record the WebSocket frames of the page (sent and received, decoded)."""
    seen: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}

    def on_socket(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: seen["sent"].append(json.loads(payload)))
        socket.on("framereceived", lambda payload: seen["received"].append(json.loads(payload)))

    page.on("websocket", on_socket)
    return seen


def table_facts(page: Page) -> dict[str, Any]:
    now = driver.state(page)
    return {
        "hand": sorted(c for c in now["hand"] if c),
        "pile": now["pile"],
        "stock": now["stock"],
        "melds": now["melds"],
        "phase": now["phase"],
        "seq": now["seq"],
        "count": page.locator(".chip.me .chip-count").get_attribute("data-count"),
    }


@pytest.mark.seed(3)
def test_an_illegal_attempt_is_explained_in_words_and_changes_nothing(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page)
    driver.wait_settled(page)
    assert driver.state(page)["phase"] == "acquire"
    before = table_facts(page)
    # Discarding before drawing: the server refuses (R13) and the page says why.
    page.locator('.hand .card[data-index="0"]').dblclick(position={"x": 6, "y": 14})
    notice = page.locator(".notice.error")
    notice.wait_for()
    assert notice.get_attribute("data-rule") == "R13"
    assert "Mossa non consentita" in notice.inner_text()
    assert "il turno comincia pescando" in notice.inner_text()
    driver.wait_idle(page)
    assert table_facts(page) == before
    # The same explanation, in English, after switching the language.
    page.locator('.topbar [data-cmd="lang"]').click()
    assert "a turn starts by drawing" in page.locator(".notice.error").inner_text()
    page.locator('.topbar [data-cmd="lang"]').click()
    # Keyboard: S draws; a two-card meld (O) is refused with its rule.
    page.keyboard.press("s")
    page.wait_for_function("() => document.querySelector('.table-screen').dataset.phase === 'play'")
    driver.wait_idle(page)
    middle = table_facts(page)
    page.locator('.hand .card[data-index="0"]').focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.locator(".hand .card.selected").count() == 2
    assert page.locator('.action-bar [data-cmd="open"]').is_disabled()
    page.keyboard.press("o")
    page.wait_for_selector('.notice.error[data-rule="R21"], .notice.error[data-rule="R22"]')
    driver.wait_idle(page)
    assert table_facts(page) == middle
    # A second pick-up in the same turn (R14).
    page.keyboard.press("Escape")
    page.keyboard.press("p")
    page.wait_for_selector('.notice.error[data-rule="R14"]')
    driver.wait_idle(page)
    assert table_facts(page) == middle
    # Dragging a legal card onto the discard pile ends the turn.
    page.keyboard.press("Escape")
    driver.drag_discard(page)
    after = driver.state(page)
    assert after["seq"] != middle["seq"] and len(after["hand"]) == len(middle["hand"]) - 1
    page.locator('.side-tab[data-tab="log"]').click()
    log = page.locator(".log-list li").all_inner_texts()
    assert any(re.match(r"Ospite-\d+ scarta ", line) for line in log), log


@pytest.mark.seed(4)
def test_a_reload_in_the_middle_of_a_turn_restores_the_same_state(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    page.locator('.create-form select[name="clock"]').select_option("10")
    driver.create_table(page)
    stats: Counter[str] = Counter()
    # Play two turns, then stop in the middle of the third, after drawing.
    for _ in range(2):
        driver.wait_settled(page)
        driver.play_turn(page, stats)
    driver.wait_settled(page)
    driver.acquire(page, stats, allow_pickup=False)
    driver.wait_idle(page)
    clock = re.compile(r"^\d+:\d\d$")
    page.wait_for_function(
        "() => /\\d:\\d\\d/.test(document.querySelector('.turn-timer').textContent)"
    )
    banks = page.locator(".line-clock").all_inner_texts()
    assert len(banks) == 2 and all(clock.match(b) for b in banks), banks
    before = table_facts(page)
    before_seq = before["seq"]
    assert before["phase"] == "play"
    page.locator('.side-tab[data-tab="log"]').click()
    log_before = page.locator(".log-list li").all_inner_texts()
    assert len(log_before) >= 5
    seen = frames(page)
    page.reload()
    page.wait_for_selector(".felt")
    page.wait_for_function(
        "() => { const r = document.querySelector('.table-screen');"
        " return r.dataset.pending === 'false' && r.dataset.myTurn === 'true'; }"
    )
    page.wait_for_function("() => document.querySelector('.conn-dot.ok')")
    # The clocks count down from the server's times.
    page.wait_for_function(
        "() => /\\d:\\d\\d/.test(document.querySelector('.turn-timer').textContent)"
    )
    turn = page.locator(".chip.me .turn-timer").inner_text()
    assert clock.match(turn) and int(turn.split(":")[0]) * 60 + int(turn.split(":")[1]) <= 60
    after = table_facts(page)
    # Leaving and coming back are events of the table (away, back): nothing else happened.
    assert int(after.pop("seq")) >= int(before.pop("seq"))
    assert after == before
    join = next(m for m in seen["sent"] if m["type"] == "join")
    assert join["last_seq"] == int(before_seq)
    kinds = [m["type"] for m in seen["received"]]
    assert "synced" in kinds and "snapshot" not in kinds, kinds
    missed = {m["kind"] for m in seen["received"] if m["type"] == "event"}
    assert missed <= {"away", "back", "seats"}, missed
    page.locator('.side-tab[data-tab="log"]').click()
    assert page.locator(".log-list li").all_inner_texts()[: len(log_before)] == log_before
    # The turn goes on where it was: a discard is accepted.
    driver.discard(page)
    assert int(driver.state(page)["seq"]) > int(before_seq)


@pytest.mark.seed(6)
def test_a_spectator_sees_public_information_chat_and_a_disconnection(pages: Pages) -> None:
    player = pages.new()
    driver.guest(player)
    player.wait_for_selector(".lobby-screen")
    table = driver.create_table(player)
    watcher = pages.new(width=390, height=844, touch=True)
    seen = frames(watcher)
    driver.guest(watcher)
    watcher.wait_for_selector(".lobby-screen")
    row = watcher.locator(f'.table-list [data-table="{table}"]')
    row.wait_for()
    row.get_by_role("button", name="Guarda").click()
    watcher.wait_for_selector(".felt")
    # No card of any hand: the bottom hand is face down, no action buttons.
    assert watcher.locator(".hand .card[data-card]").count() == 0
    assert watcher.locator(".hand .card.back").count() >= 1
    assert watcher.locator('.action-bar [data-cmd="discard"]').count() == 0
    assert "Stai guardando" in watcher.locator(".status").inner_text()
    for message in seen["received"]:
        view = message.get("view")
        if view:
            assert view["hand"] == [] and view["seat"] == -1, message["type"]
        assert message.get("legal") is None
    # Chat is text, never markup.
    player.locator('.side-tab[data-tab="chat"]').click()
    player.fill(".chat-input", "<b>ciao</b> a tutti")
    player.locator(".chat-form button").click()
    watcher.locator('.topbar [data-cmd="side"]').click()
    line = watcher.locator(".chat-line .chat-text")
    line.wait_for()
    assert line.inner_text() == "<b>ciao</b> a tutti"
    assert watcher.locator(".chat-line b").count() == 0
    watcher.locator('.topbar [data-cmd="side"]').click()
    # The player goes away: the spectator is told; nobody else plays at this casual table,
    # so no bot is coming for him: the table waits (docs/protocol.md, absent players).
    player.context.close()
    notice = watcher.locator(".notice.warn")
    notice.wait_for()
    assert "si è disconnesso" in notice.inner_text()
    assert "Il tavolo lo aspetta." in notice.inner_text()
    assert notice.locator(".countdown").count() == 0


@pytest.mark.seed(8)
def test_a_private_table_by_invitation(pages: Pages) -> None:
    host = pages.new()
    driver.register(host, "Marco")
    host.locator('[data-cmd="logout"]').click()
    host.wait_for_selector(".auth-screen")
    host.fill("#auth-name", "Marco")
    host.fill("#auth-password", "sbagliata-del-tutto")
    host.locator('.auth-form button[type="submit"]').click()
    host.wait_for_selector(".auth-error:has-text('Nome o password sbagliati')")
    host.fill("#auth-password", "una-password-lunga")
    host.locator('.auth-form button[type="submit"]').click()
    host.wait_for_selector(".lobby-screen")
    host.locator('.create-form input[name="opponents"][value="people"]').check(force=True)
    host.locator('.create-form input[name="public"]').uncheck()
    host.locator('.create-form button[type="submit"]').click()
    host.wait_for_selector(".waiting")
    link = host.locator("#invite-link").input_value()
    assert "/?table=" in link
    assert "Link di invito" in host.locator(".invite label").inner_text()
    # Not in the lobby's list: the link is the invitation.
    friend = pages.new(width=390, height=844, touch=True)
    driver.guest(friend)
    friend.wait_for_selector(".lobby-screen")
    friend.wait_for_timeout(300)
    table = link.split("table=")[1]
    assert friend.locator(f'[data-table="{table}"]').count() == 0
    friend.goto(link.replace(friend.url.split("/?")[0].rstrip("/"), ""))
    friend.locator('.wait-seat [data-cmd="sit"]').first.click()
    # All seats taken: the match starts for both.
    host.wait_for_selector(".felt")
    friend.wait_for_selector(".felt")
    assert host.locator(".board > .chip .chip-name").inner_text() == friend.evaluate(
        "() => document.querySelector('.chip.me .chip-name').textContent"
    )
    # A finger's tap chooses a card on the phone; a second tap lets it go.
    card = friend.locator('.hand .card[data-index="0"]')
    card.tap(position={"x": 6, "y": 14})
    friend.wait_for_selector('.hand .card[data-index="0"].selected')
    friend.wait_for_timeout(500)  # not a double tap
    card.tap(position={"x": 6, "y": 14})
    friend.wait_for_selector('.hand .card[data-index="0"]:not(.selected)')
    # The friend closes the page: the host, still at the table, is told and sees the countdown
    # to the bot that will play the friend's seat with him.
    friend.context.close()
    notice = host.locator(".notice.warn")
    notice.wait_for()
    host.wait_for_function(
        "() => /\\d:\\d\\d/.test(document.querySelector('.notice.warn').textContent)"
    )
    assert "si è disconnesso" in notice.inner_text()
    assert re.search(r"Un bot prende il suo posto tra \d:\d\d", notice.inner_text())


def test_the_creator_cancels_a_waiting_table_and_a_visitor_is_told(pages: Pages) -> None:
    host = pages.new()
    driver.guest(host)
    host.wait_for_selector(".lobby-screen")
    host.locator('.create-form input[name="opponents"][value="people"]').check(force=True)
    host.locator('.create-form button[type="submit"]').click()
    host.wait_for_selector(".waiting")
    link = host.locator("#invite-link").input_value()
    visitor = pages.new()
    driver.guest(visitor)
    visitor.wait_for_selector(".lobby-screen")
    visitor.goto(link.replace(visitor.url.split("/?")[0].rstrip("/"), ""))
    visitor.wait_for_selector(".waiting")
    # Only the creator is offered the cancellation.
    assert visitor.locator('[data-cmd="cancel-table"]').count() == 0
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator('[data-cmd="cancel-table"]').click()
    for page in (host, visitor):
        page.wait_for_selector(".waiting h2:has-text('Questo tavolo è stato annullato')")
    visitor.locator('.waiting [data-cmd="lobby"]').click()
    visitor.wait_for_selector(".lobby-screen")
    table = link.split("table=")[1]
    visitor.wait_for_timeout(300)
    assert visitor.locator(f'[data-table="{table}"]').count() == 0
