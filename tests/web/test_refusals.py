"""Explanations in the player's language (issue 15, defects 3-5): every greyed Cala/Attacca/
Scarta says why (a line under the action bar and a tooltip, and a tap on it tells it too), the
engine's refusals are worded from the page's catalogs with the cards named as a player names them
(Q♣, not QC) and the rule id only as a small note, and a closing refused for lack of a burraco
says that a burraco is needed (R55), not the bare R53."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, WebSocketRoute

from . import driver
from .conftest import Pages

ROOT = Path(__file__).resolve().parents[2] / "src" / "burraco"
BAR = ".action-bar"


def received_errors(page: Page) -> list[dict[str, Any]]:
    """The ``error`` messages the page receives on its WebSocket."""
    seen: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "error":
                seen.append(message)

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return seen


def start_playing(page: Page) -> None:
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page)
    driver.wait_settled(page)
    page.locator('[data-act="draw"]').first.click()
    page.wait_for_function("() => document.querySelector('.table-screen').dataset.phase === 'play'")
    driver.wait_idle(page)


def select(page: Page, indices: tuple[int, ...]) -> None:
    driver.clear_selection(page)
    for i in indices:
        page.locator(f'.hand .card[data-index="{i}"]').click(position={"x": 6, "y": 14})
    page.wait_for_function(
        f"() => document.querySelectorAll('.hand .card.selected').length === {len(indices)}"
    )


def unmeldable_triple(page: Page, hand: list[str]) -> tuple[int, ...] | None:
    """Select three natural cards that Cala does not light (they make no meld)."""
    for triple in combinations(range(len(hand)), 3):
        if any(hand[i] == "JK" or hand[i].startswith("2") for i in triple):
            continue
        select(page, triple)
        if page.locator(f'{BAR} [data-cmd="open"]').is_disabled():
            return triple
    return None


def english_words(sentence: str) -> set[str]:
    """The words of an engine sentence that would betray English in an Italian page."""
    return set(re.findall(r"[A-Za-z]{4,}", sentence)) - {"pozzetto", "burraco"}


@pytest.mark.seed(3)
def test_greyed_actions_tell_the_mouse_user_why(pages: Pages) -> None:
    """Defect 3: with the mouse, Cala and Scarta were greyed with no reason at all."""
    page = pages.new()
    start_playing(page)
    # One card chosen: Cala is greyed, and the page says why, in a line and as a tooltip.
    select(page, (0,))
    cala = page.locator(f'{BAR} [data-cmd="open"]')
    assert cala.is_disabled()
    why = page.locator("#action-why")
    assert why.is_visible()
    assert "Seleziona almeno 3 carte" in why.inner_text()
    assert "Seleziona almeno 3 carte" in (cala.get_attribute("title") or "")
    described = cala.get_attribute("aria-describedby")
    assert described and "almeno 3 carte" in page.locator(f"#{described}").inner_text()
    # Two cards chosen: Scarta is greyed and says so.
    select(page, (0, 1))
    scarta = page.locator(f'{BAR} [data-cmd="discard"]')
    assert scarta.is_disabled()
    assert "una sola carta" in (scarta.get_attribute("title") or "")
    # A click (or a tap) on the greyed button shows its reason as a notice.
    scarta.click(force=True)
    notice = page.locator(".notice.warn")
    notice.wait_for()
    assert "una sola carta" in notice.inner_text()
    # A lit button has no reason attached.
    select(page, (0,))
    if not scarta.is_disabled():
        assert scarta.get_attribute("title") is None


@pytest.mark.seed(3)
def test_a_refusal_in_the_italian_page_has_no_english_and_names_cards_as_players_do(
    pages: Pages,
) -> None:
    """Defect 4: refusals showed the engine's English sentence with card codes and rule ids."""
    page = pages.new()
    errors = received_errors(page)
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # everything passes through; the test may add a message
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws$"), route)
    start_playing(page)
    hand = driver.state(page)["hand"]
    # Three cards that do not make a meld: a tap on the greyed Cala asks the engine, which
    # refuses (R21-R38) and the page words the refusal itself.
    assert unmeldable_triple(page, hand)
    page.locator(f'{BAR} [data-cmd="open"]').click(force=True)
    notice = page.locator(".notice.error")
    notice.wait_for()
    page.wait_for_function("() => document.querySelector('.notice.error .notice-title')")
    assert errors and errors[-1]["code"] == "illegal_action"
    detail = errors[-1]["detail"]
    assert detail["rule"] == errors[-1]["rule"]
    text = notice.inner_text()
    assert "Mossa non consentita" in text
    assert f"(regola {detail['rule']})" in text
    leaked = {w for w in english_words(errors[-1]["message"]) if re.search(rf"\b{w}\b", text)}
    assert not leaked, (leaked, text)
    # The refusal of the issue, as the server sends it: the card is Q♣, never QC.
    routes[0].send(
        json.dumps(
            {
                "type": "error",
                "code": "illegal_action",
                "message": "QC cannot be discarded: the single card picked up from the discard pile"
                " (or its twin) may not be discarded in the same turn (R17)",
                "rule": "R17",
                "detail": {"code": "discard_locked_twin", "rule": "R17", "params": {"card": "QC"}},
                "table": page.evaluate("() => new URLSearchParams(location.search).get('table')"),
            }
        )
    )
    page.wait_for_function("() => document.querySelector('.notice.error').innerText.includes('Q♣')")
    text = notice.inner_text()
    assert "QC" not in text and "(regola R17)" in text
    assert not {
        w
        for w in english_words(
            "QC cannot be discarded: the single card picked up from"
            " the discard pile (or its twin) may not be discarded in"
            " the same turn"
        )
        if re.search(rf"\b{w}\b", text)
    }
    # An unknown code falls back to a generic line in Italian, never to the English message.
    routes[0].send(
        json.dumps(
            {
                "type": "error",
                "code": "illegal_action",
                "message": "something brand new (R99)",
                "rule": "R99",
                "detail": {"code": "brand_new", "rule": "R99", "params": {}},
            }
        )
    )
    page.wait_for_function(
        "() => document.querySelector('.notice.error').innerText.includes('R99')"
    )
    text = notice.inner_text()
    assert "brand new" not in text and "le regole non permettono" in text


@pytest.mark.seed(3)
def test_closing_without_a_burraco_says_a_burraco_is_needed(pages: Pages) -> None:
    """Defect 5: a meld that would leave one card with no burraco on the table was explained as
    R53 ("non potresti più finire il turno") without ever saying that a burraco is needed."""
    page = pages.new()
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws$"), route)
    start_playing(page)
    # The engine's refusal of that meld (tests/engine/test_refusal_codes.py builds it).
    routes[0].send(
        json.dumps({
            "type": "error", "code": "illegal_action", "rule": "R55",
            "message": "after this meld the last card QS could not be discarded: the line cannot"
            " close without a burraco on the table (R55)",
            "detail": {"code": "close_needs_burraco", "rule": "R55",
                       "params": {"card": "QS", "after_meld": True}},
        })
    )  # fmt: skip
    notice = page.locator(".notice.error")
    notice.wait_for()
    text = notice.inner_text()
    assert "non puoi chiudere: serve un burraco" in text and "Q♠" in text and "(regola R55)" in text
    assert "finire il turno" not in text
    # The greyed buttons say it before anything is tried: the page works it out from the view
    # (pozzetto taken, no burraco on the line) and the selection.
    reasons = page.evaluate(
        """async () => {
          const m = await import('/js/explain.js');
          const view = {phase: 'play', locked_card: null,
                        lines: [{line: 0, seats: [0], taken_pozzetto: true,
                                 melds: [{burraco: null}]}]};
          const hints = {open: false, discard: false, attach: new Set()};
          const base = {view, seat: 0, myTurn: true, pending: false, hints};
          return {
            discard: m.actionReasons({...base, hand: ['QS'], chosen: ['QS']}),
            open: m.actionReasons(
              {...base, hand: ['QS', '5D', '6D', '7D'], chosen: ['5D', '6D', '7D']}),
          };
        }"""
    )
    assert reasons["discard"]["discard"] == "Non puoi chiudere: serve un burraco."
    assert reasons["open"]["open"] == "Non puoi chiudere: serve un burraco."
    assert reasons["discard"]["hint"] == "Serve un burraco per chiudere."


def test_every_engine_refusal_code_has_words_in_both_languages() -> None:
    engine = "".join(
        (ROOT / "engine" / n).read_text(encoding="utf-8") for n in ("state.py", "melds.py")
    )
    codes = set(re.findall(r'"(?:R\d+[^"]*|3\.7)",\s*"([a-z]+(?:_[a-z]+)+)"', engine))
    codes |= set(re.findall(r' else "([a-z]+(?:_[a-z]+)+)"', engine))
    assert {"close_needs_burraco", "discard_wild_closing", "not_a_meld"} <= codes
    for lang in ("it", "en"):
        catalog = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        missing = {c for c in codes | {"smazzata_over"} if f"refusal.{c}" not in catalog}
        assert not missing, (lang, missing)
