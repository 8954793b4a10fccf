"""The bot's review in the browser's replay (issue 18, review.js): a player opens a recorded
match of his, asks for the review ("Analisi del bot"), waits, sees his mistakes listed with a
summary per smazzata, clicks one and sees it on the table with the better move drawn; the same
in English. The server runs reviews in a worker process with a tiny budget."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from burraco.bots import make_bot
from burraco.engine import find_rules
from burraco.engine.game import Game
from burraco.engine.record import write_record
from burraco.store import Store

from . import driver
from .conftest import Pages, Server, start_server

WEB = Path(__file__).resolve().parents[2] / "src" / "burraco" / "web"
IT: dict[str, str] = json.loads((WEB / "i18n" / "it.json").read_text(encoding="utf-8"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """``burraco serve`` with quick reviews: one worker process, 0.01 s a decision."""
    running = start_server(
        tmp_path, seed=1, extra=["--review-seconds", "0.01", "--review-workers", "1"]
    )
    try:
        yield running
    finally:
        running.stop()


def record_of(name: str) -> str:
    """A short finished match of one smazzata: ``name`` (seat 0) and a bot, both played by
    greedy bots (the search bot finds plenty to say about them)."""
    rules = find_rules("italian", players=2, smazzate=1)
    game = Game(rules, (name, "bot greedy"), rng=random.Random(3))
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while not game.is_over:
        state = game.state
        seat = state.current
        game.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    return write_record(game.record())


def recorded_match(data_dir: Path, table: str, user_id: int, name: str) -> None:
    """The finished match written in the server's database, as a table's end writes it."""

    async def write() -> None:
        store = await Store.open(f"sqlite:///{data_dir / 'burraco.db'}")
        try:
            await store.create_table(
                table,
                created_by=user_id,
                config={"smazzate": 1},
                public=True,
                invite_code=None,
                players=2,
            )
            await store.set_seat(table, 0, user_id=user_id, bot=None)
            await store.set_seat(table, 1, user_id=None, bot="greedy")
            await store.log_match(
                table,
                1,
                players=[name, "bot greedy"],
                totals=[0, 0],
                winner=None,
                ended="complete",
                record=record_of(name),
            )
            await store.set_status(table, "finished")
        finally:
            await store.close()

    # Playwright's sync API runs an event loop in this thread: the store's in a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, write()).result()


def a_player_with_a_match(
    page: Page, server: Server, tmp_path: Path, path: str = "/?replay=t1&match=1"
) -> None:
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    recorded_match(tmp_path, "t1", me["id"], me["name"])
    page.goto(path)
    page.wait_for_selector(".replay-screen .felt")


def see_a_mistake_on_the_table(page: Page) -> None:
    item = page.locator(".review-item").first
    step = item.get_attribute("data-step")
    item.click()
    expect(page.locator(".replay-screen")).to_have_attribute("data-step", str(step))
    expect(page.locator(".review-note")).to_be_visible()
    expect(page.locator(".review-item.focused")).to_have_count(1)
    # The better move is drawn: a card of the hand, the pile or the stock, or a meld.
    expect(page.locator(".felt .review-better").first).to_be_visible()


def test_a_player_asks_for_the_review_and_sees_his_mistakes_on_the_table(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    page = pages.new()
    a_player_with_a_match(page, server, tmp_path)
    button = page.locator('.review-panel [data-cmd="review"]')
    expect(button).to_have_text(IT["review.ask"])
    button.click()
    expect(page.locator('.review-panel[data-review="done"]')).to_be_visible(timeout=60_000)
    expect(page.locator(".review-of")).to_contain_text("MP persi in tutto")
    summary = page.locator(".review-summary").first
    expect(summary).to_contain_text("MP persi:")
    expect(summary).to_contain_text("del turno")
    assert page.locator(".review-item").count() > 0
    expect(page.locator(".review-item .review-cost").first).to_contain_text("IC 95%")
    see_a_mistake_on_the_table(page)
    expect(page.locator(".review-note")).to_contain_text("Meglio:")
    # In English: the same review, every word of it in English.
    page.locator(".replay-screen .lang-btn").click()
    expect(page.locator(".review-panel h3")).to_have_text("Bot review")
    expect(page.locator(".review-summary").first).to_contain_text("MP lost:")
    expect(page.locator(".review-note")).to_contain_text("Better:")
    panel = page.locator(".review-panel").inner_text() + page.locator(".review-note").inner_text()
    for italian in ("MP persi", "Meglio", "Turno", "Errore", "Imprecisione", "scarta", "pesca"):
        assert italian not in panel, italian


def test_the_review_asked_from_an_english_page(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    page = pages.new()
    driver.english(page)
    a_player_with_a_match(page, server, tmp_path)
    button = page.locator('.review-panel [data-cmd="review"]')
    expect(button).to_have_text("Bot review")
    button.click()
    expect(page.locator('.review-panel[data-review="done"]')).to_be_visible(timeout=60_000)
    expect(page.locator(".review-summary").first).to_contain_text("of which")
    see_a_mistake_on_the_table(page)
    expect(page.locator(".review-note")).to_contain_text("Better:")


def test_the_end_of_match_link_asks_for_the_review_as_the_replay_opens(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    """The final panel's "Analisi del bot" link (play.js) opens the replay with ``review=1``."""
    page = pages.new()
    a_player_with_a_match(page, server, tmp_path, "/?replay=t1&match=1&review=1")
    expect(page.locator('.review-panel[data-review="done"]')).to_be_visible(timeout=60_000)
    expect(page.locator(".review-item").first).to_be_visible()


def test_on_a_phone_the_review_is_under_the_controls(
    pages: Pages, server: Server, tmp_path: Path
) -> None:
    page = pages.new(width=390, height=844, touch=True)
    a_player_with_a_match(page, server, tmp_path)
    expect(page.locator(".replay-side")).to_be_hidden()
    drawer = page.locator(".review-drawer")
    drawer.locator("summary").click()
    drawer.locator('[data-cmd="review"]').click()
    expect(drawer.locator('.review-panel[data-review="done"]')).to_be_visible(timeout=60_000)
    see_a_mistake_on_the_table(page)
    expect(page.locator(".review-drawer")).to_have_attribute("open", "")
