"""Bot accounts in Chromium (issue 18): a person creates a bot on the account page and sees its
token once (Italian and English), the bot (driven here over HTTP with that token) opens a
table, and its BOT mark is beside its name in the lobby, among friends, at the table and on
its profile."""

from __future__ import annotations

from playwright.sync_api import expect

from . import driver
from .conftest import Pages, Server
from .test_accessibility import assert_accessible
from .test_i18n import italian_left

PANEL_KEYS = ["bots.", "bot.", "err."]


def test_a_bot_is_created_its_token_shown_once_and_it_is_marked(
    pages: Pages, server: Server
) -> None:
    page = pages.new()
    driver.register(page, "Giulia")
    page.locator('.lobby-top [data-cmd="account"]').click()
    panel = page.locator('[data-panel="bots"]')
    panel.locator(".muted", has_text="Non hai ancora bot.").wait_for()
    panel.locator('form[data-form="bot"] input[name="name"]').fill("GiuliaBot")
    panel.locator('form[data-form="bot"] button[type="submit"]').click()
    shown = panel.locator('.bot-token[data-token="GiuliaBot"]')
    shown.wait_for()
    assert "non sarà più mostrato" in shown.inner_text()
    token = shown.locator("code[data-secret]").inner_text().strip()
    assert len(token) > 30 and f"--token {token}" in shown.inner_text()
    row = panel.locator('li[data-bot="GiuliaBot"]')
    expect(row).to_contain_text("codice attivo")
    expect(row.locator(".bot-mark")).to_have_text("BOT")
    assert_accessible(page, "account-bots")
    # A second name that is taken: refused in the page's words.
    panel.locator('form[data-form="bot"] input[name="name"]').fill("Giulia")
    panel.locator('form[data-form="bot"] button[type="submit"]').click()
    page.locator(".notice.error").wait_for()
    # Shown once: after a reload only "token active" is left.
    page.reload()
    row.wait_for()
    assert panel.locator("code[data-secret]").count() == 0
    page.locator(".page-header .lang-btn").click()
    panel.locator("h2", has_text="Your bots").wait_for()
    expect(row).to_contain_text("token active")
    text = panel.inner_text()
    assert not italian_left(text, PANEL_KEYS), italian_left(text, PANEL_KEYS)
    page.locator(".page-header .lang-btn").click()
    panel.locator("h2", has_text="I tuoi bot").wait_for()

    # The bot opens a public table with its token; Giulia sees the mark in the lobby, sits.
    bot = server.client(base_url=server.url, token=token)
    made = bot.post("/api/tables", json={"smazzate": 1, "seat": 0})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    page.goto("/")
    lobby_row = page.locator(f'li[data-table="{table}"]')
    lobby_row.wait_for(timeout=15000)
    expect(lobby_row.locator(".bot-mark")).to_have_count(1)
    assert "GiuliaBot" in lobby_row.inner_text()
    # Following a bot makes it a friend at once (it follows nobody back), marked.
    friends = page.locator(".panel.friends")
    friends.locator('input[name="player"]').fill("GiuliaBot")
    friends.locator('button[type="submit"]').click()
    expect(friends.locator('li[data-friend="GiuliaBot"] .bot-mark')).to_have_count(1)
    lobby_row.locator('[data-cmd="sit"]').click()
    page.wait_for_selector(".felt", timeout=15000)
    chip = page.locator(".chip", has=page.locator(".chip-name", has_text="GiuliaBot"))
    expect(chip.locator(".bot-mark")).to_have_count(1)
    expect(chip.locator(".bot-mark")).to_have_attribute("title", "Account bot: gioca un programma")
    # The profile says it is a bot, and whose.
    page.goto("/?player=GiuliaBot")
    page.locator("h1 .bot-mark").wait_for()
    expect(page.locator('[data-bot-owner="Giulia"]')).to_have_text("Bot di Giulia")
