"""Moderation in Chromium (issue 16): a player reports an abusive chat message from the table,
a moderator sees it with its context on the moderation page, mutes the author (whose next line
is refused) and closes the report; an announcement reaches a table page at once; the page is
refused to players; the first administrator is made with ``burraco db role``."""

from __future__ import annotations

import subprocess
import sys

from . import driver
from .conftest import Pages, Server
from .test_accessibility import assert_accessible


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
    assert_accessible(mara, "moderation")
    report.locator('[data-sanction="mute"]').click()
    mara.locator(".notice.ok").wait_for()
    # Bruno's next line is refused, in words.
    chat.fill("e ancora")
    bruno.locator('.chat-form button[type="submit"]').click()
    bruno.locator(".notice.error", has_text="silenziato").wait_for()
    mara.once("dialog", lambda dialog: dialog.accept("chat silenziata"))
    mara.locator('.report [data-cmd="close-report"]').click()
    mara.locator(".muted", has_text="Nessuna segnalazione aperta").wait_for()
    assert "mute" in mara.locator('[data-panel="audit"]').inner_text()
    # An announcement reaches the table page at once.
    mara.fill('form[data-form="announce"] input[name="text"]', "Manutenzione alle 23")
    mara.locator('form[data-form="announce"] button[type="submit"]').click()
    bruno.locator(".notice", has_text="Avviso: Manutenzione alle 23").wait_for()
