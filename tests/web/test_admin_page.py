"""Moderation in Chromium (issue 16): a player reports an abusive chat message from the table,
a moderator sees it with its context on the moderation page, mutes the author (whose next line
is refused) and closes the report; an announcement reaches a table page at once; the page is
refused to players; the first administrator is made with ``burraco db role``."""

from __future__ import annotations

import subprocess
import sys

from playwright.sync_api import Locator, Page, expect

from . import driver
from .conftest import Pages, Server
from .test_accessibility import assert_accessible
from .test_i18n import italian_left

# The catalog keys the moderation page and the refusals it leads to show (test_i18n).
PAGE_KEYS = ["admin.", "status.table.", "seat.", "bot.", "chat.report", "announcement", "err."]


def make_admin(server: Server, name: str) -> None:
    data_dir = server.log.parent  # the server's data folder (its SQLite database)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "burraco.cli.main",
            "db",
            "role",
            name,
            "admin",
            "--data-dir",
            str(data_dir),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{name} is now admin"


def test_a_reported_message_is_acted_on_by_a_moderator(pages: Pages, server: Server) -> None:
    bruno = pages.new()
    driver.register(bruno, "Bruno")
    table = driver.create_table(bruno, players=2, smazzate=1, bot="heuristic")
    bruno.locator('.topbar [data-cmd="side"]').click() if bruno.locator(
        '.topbar [data-cmd="side"]'
    ).is_visible() else None
    chat = bruno.locator(".chat-form .chat-input")
    chat.fill("sei un idiota")
    bruno.locator('.chat-form button[type="submit"]').click()
    bruno.locator(".chat-line", has_text="sei un idiota").wait_for()
    # Anna watches the table and reports the line.
    anna = pages.new()
    driver.register(anna, "Anna")
    anna.goto(f"/?table={table}")
    line = anna.locator('.chat-line[data-author="Bruno"]', has_text="sei un idiota")
    line.wait_for()
    anna.once("dialog", lambda dialog: dialog.accept("insulti in chat"))
    line.locator('[data-cmd="report-line"]').click()
    anna.locator(".notice", has_text="Segnalazione inviata").wait_for()
    # The page is not for players.
    anna.goto("/?admin")
    anna.locator(".notice.error", has_text="per i moderatori").wait_for()
    # Mara, made administrator from the command line, acts on it.
    mara = pages.new()
    driver.register(mara, "Mara")
    make_admin(server, "Mara")
    mara.goto("/?admin")
    report = mara.locator(".report", has_text="sei un idiota")
    report.wait_for()
    assert "insulti in chat" in report.inner_text() and "Anna" in report.inner_text()
    # Bruno's table in play, said in Italian (its state, the bot by its level).
    live = mara.locator(f'[data-panel="tables"] li[data-table="{table}"]')
    assert live.inner_text().startswith("Bruno · Bot Esperto (In gioco)")
    assert_accessible(mara, "moderation")
    report.locator('[data-sanction="mute"]').click()
    mara.locator(".notice.ok").wait_for()
    # Bruno's next line is refused, in words.
    chat.fill("e ancora")
    bruno.locator('.chat-form button[type="submit"]').click()
    refused = bruno.locator(".notice.error", has_text="silenziato")
    refused.wait_for()
    assert "fino al" in refused.inner_text() and "moderator muted" not in refused.inner_text()
    mara.once("dialog", lambda dialog: dialog.accept("chat silenziata"))
    mara.locator('.report [data-cmd="close-report"]').click()
    mara.locator(".muted", has_text="Nessuna segnalazione aperta").wait_for()
    audit = mara.locator('[data-panel="audit"]')
    assert "Mara · chat silenziata · Bruno" in audit.locator('li[data-action="mute"]').inner_text()
    assert "segnalazione chiusa" in audit.locator('li[data-action="close_report"]').inner_text()
    # An announcement reaches the table page at once.
    mara.fill('form[data-form="announce"] input[name="text"]', "Manutenzione alle 23")
    mara.locator('form[data-form="announce"] button[type="submit"]').click()
    bruno.locator(".notice", has_text="Avviso: Manutenzione alle 23").wait_for()


def assert_english(where: Locator) -> None:
    text = where.inner_text()
    assert not italian_left(text, PAGE_KEYS), (italian_left(text, PAGE_KEYS), text)


def chat(page: Page, text: str) -> None:
    side = page.locator('.topbar [data-cmd="side"]')
    if side.is_visible():
        side.click()
    page.locator(".chat-form .chat-input").fill(text)
    page.locator('.chat-form button[type="submit"]').click()


def test_moderation_in_english(pages: Pages, server: Server) -> None:
    """The moderation page, the report, the mute and its refusal at the table, the
    announcement, and the server's refusals, all in English with no Italian word left."""
    bruno = pages.new()
    driver.english(bruno)
    driver.register(bruno, "Bruno")
    table = driver.create_table(bruno, players=2, smazzate=1, bot="heuristic")
    chat(bruno, "you are an idiot")
    bruno.locator(".chat-line", has_text="you are an idiot").wait_for()
    anna = pages.new()
    driver.english(anna)
    driver.register(anna, "Anna")
    anna.goto(f"/?table={table}")
    line = anna.locator('.chat-line[data-author="Bruno"]', has_text="you are an idiot")
    line.wait_for()
    anna.once("dialog", lambda dialog: dialog.accept("insults in the chat"))
    line.locator('[data-cmd="report-line"]').click()
    anna.locator(".notice", has_text="Report sent to the moderators.").wait_for()
    anna.goto("/?admin")
    expect(anna.locator(".notice.error")).to_have_text("This page is for moderators.")
    expect(anna.locator("h1")).to_have_text("Moderation")
    mara = pages.new()
    driver.english(mara)
    driver.register(mara, "Mara")
    make_admin(server, "Mara")
    mara.goto("/?admin")
    page = mara.locator(".admin-screen")
    report = mara.locator(".report", has_text="you are an idiot")
    report.wait_for()
    text = report.inner_text()
    assert "reported by Anna" in text and "Reason: insults in the chat" in text
    assert [b.inner_text() for b in report.locator("[data-sanction]").all()] == [
        "Mute 30 min",
        "Suspend 7 days",
        "Ban",
        "Lift the sanctions",
    ]
    headings = mara.locator(".admin-screen h2").all_inner_texts()
    assert headings == [
        "Open reports",
        "Players",
        "Tables in play",
        "Server",
        "Notice to everyone",
        "Actions log",
    ]
    live = mara.locator(f'[data-panel="tables"] li[data-table="{table}"]')
    assert live.inner_text().startswith("Bruno · Bot Expert (Playing)")
    expect(live.locator("button")).to_have_text("Close the table")
    assert "tables in memory" in mara.locator('[data-panel="stats"]').inner_text()
    assert_english(page)
    report.locator('[data-sanction="mute"]').click()
    expect(mara.locator(".notice.ok")).to_have_text("Done.")
    # Bruno's next line is refused in English, with the time it lasts.
    chat(bruno, "and again")
    refused = bruno.locator(".notice.error", has_text="A moderator muted your chat until")
    refused.wait_for()
    assert_english(refused)
    mara.once("dialog", lambda dialog: dialog.accept("chat muted"))
    mara.locator('.report [data-cmd="close-report"]').click()
    mara.locator(".muted", has_text="No open report.").wait_for()
    audit = mara.locator('[data-panel="audit"]')
    assert "Mara · chat muted · Bruno" in audit.locator('li[data-action="mute"]').inner_text()
    assert "report closed · report " in audit.locator('li[data-action="close_report"]').inner_text()
    # A player's standing, and the refusals: nobody of that name, oneself.
    lookup = mara.locator('form[data-form="lookup"]')
    assert "Player's name" in lookup.inner_text()
    lookup.locator('input[name="name"]').fill("Nobody")
    lookup.locator('button[type="submit"]').click()
    expect(mara.locator(".notice.error")).to_have_text("No player has that name.")
    lookup.locator('input[name="name"]').fill("Bruno")
    lookup.locator('button[type="submit"]').click()
    standing = mara.locator('.standing[data-player="Bruno"]')
    standing.wait_for()
    text = standing.inner_text()
    assert "Bruno: player" in text and "Chat muted until" in text
    assert standing.locator('select[name="role"] option').all_inner_texts() == [
        "player",
        "moderator",
        "administrator",
    ]
    assert_english(page)
    lookup.locator('input[name="name"]').fill("Mara")
    lookup.locator('button[type="submit"]').click()
    mara.locator('.standing[data-player="Mara"] [data-sanction="mute"]').click()
    expect(mara.locator(".notice.error")).to_have_text("That is you: choose another player.")
    # The announcement, on the table page at once, in English.
    mara.fill('form[data-form="announce"] input[name="text"]', "Maintenance at 11 pm")
    mara.locator('form[data-form="announce"] button[type="submit"]').click()
    expect(mara.locator(".notice.ok")).to_have_text("Notice sent.")
    bruno.locator(".notice", has_text="Notice: Maintenance at 11 pm").wait_for()
    announced = audit.locator('li[data-action="announce"]')
    assert "notice to everyone · everyone" in announced.inner_text()
    assert_english(page)
