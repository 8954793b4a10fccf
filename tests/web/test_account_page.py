"""Accounts that last in Chromium (issue 16), with a real SMTP server on loopback: a player
confirms an address from his account page through the mailed link, asks for invitations by
mail (it/en), forgets his password, gets a reset link by mail and logs in with the new
password; the account page has no serious accessibility violation; the site's notes exist in
both languages."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser

from tests.server.test_account_mail import Inbox

from . import driver
from .conftest import Pages, Server, start_server
from .test_accessibility import assert_accessible


@pytest.fixture
def mail_site(tmp_path: Path, browser: Browser) -> Iterator[tuple[Pages, Inbox]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    server: Server = start_server(
        tmp_path, seed=1, extra=["--smtp-host", "127.0.0.1", "--smtp-port", str(port)]
    )
    pages = Pages(browser, server.url)
    try:
        yield pages, inbox
    finally:
        pages.close()
        server.stop()
        controller.stop()
    assert not pages.errors, pages.errors


def path_of(inbox: Inbox) -> str:
    kind, token = inbox.link()
    return f"/?{kind}={token}"


def test_confirm_an_address_then_reset_a_forgotten_password(
    mail_site: tuple[Pages, Inbox],
) -> None:
    pages, inbox = mail_site
    page = pages.new()
    driver.register(page, "Giulia")
    page.locator('.lobby-top [data-cmd="account"]').click()
    page.locator(".account-page", has_text="Nessun indirizzo confermato").wait_for()
    assert page.locator('input[name="standings"]').is_disabled()
    assert page.locator('input[name="invitations"]').is_disabled()
    assert_accessible(page, "account")
    page.fill('form[data-form="email"] input[name="email"]', "giulia@example.org")
    page.locator('form[data-form="email"] button[type="submit"]').click()
    page.locator(".notice.ok").wait_for()
    assert "giulia@example.org" in page.locator(".notice.ok").inner_text()
    assert inbox.messages and inbox.messages[-1][0] == ["giulia@example.org"]
    page.goto(path_of(inbox))
    page.locator(".notice.ok").wait_for()
    assert "confermato" in page.locator(".notice.ok").inner_text()
    page.goto("/?account")
    page.locator(".account-page", has_text="giulia@example.org").wait_for()
    assert page.locator('input[name="standings"]').is_enabled()
    # Invitations by mail: the box, in Italian and in English, kept once ticked.
    invitations = page.locator('label.check:has(input[name="invitations"])')
    assert "inviti e le sfide" in invitations.inner_text()
    invitations.locator("input").check()
    page.locator(".notice.ok", has_text="Salvato").wait_for()
    page.reload()
    page.locator(".account-page", has_text="giulia@example.org").wait_for()
    assert page.locator('input[name="invitations"]').is_checked()
    assert not page.locator('input[name="standings"]').is_checked()
    page.locator(".page-header .lang-btn").click()
    assert "invitations and challenges" in invitations.inner_text()
    page.locator(".page-header .lang-btn").click()
    assert "inviti e le sfide" in invitations.inner_text()
    # Log out everywhere, then the password is "forgotten".
    page.locator('[data-cmd="logout-everywhere"]').click()
    page.wait_for_selector(".auth-card")
    page.locator('.auth-card a[data-link="forgot"]').click()
    page.fill('form[data-form="forgot"] input[name="email"]', "giulia@example.org")
    page.locator('form[data-form="forgot"] button[type="submit"]').click()
    page.locator(".notice.ok").wait_for()
    assert len(inbox.messages) == 2 and "Nuova password" in inbox.messages[-1][1]["Subject"]
    page.goto(path_of(inbox))
    page.fill('form[data-form="reset"] input[name="password"]', "una nuova password")
    page.locator('form[data-form="reset"] button[type="submit"]').click()
    page.locator(".notice.ok").wait_for()
    # The link is spent: opened again, it says so in words.
    again = pages.new()
    again.goto(path_of(inbox))
    again.fill('form[data-form="reset"] input[name="password"]', "ancora un'altra")
    again.locator('form[data-form="reset"] button[type="submit"]').click()
    again.locator(".notice.error").wait_for()
    assert "già stato usato" in again.locator(".notice.error").inner_text()
    # The new password opens the account.
    page.goto("/")
    page.fill("#auth-name", "Giulia")
    page.fill("#auth-password", "una nuova password")
    page.locator('.auth-form button[type="submit"]').click()
    page.wait_for_selector(".lobby-screen")


def test_the_site_notes_in_both_languages(mail_site: tuple[Pages, Inbox]) -> None:
    pages, _ = mail_site
    page = pages.new()
    page.goto("/?privacy")
    page.wait_for_selector(".account-page")
    assert page.locator("h1").inner_text() == "Privacy"
    assert re.search(r"argon2", page.locator(".account-page").inner_text())
    page.goto("/?terms")
    page.wait_for_selector(".account-page")
    assert page.locator("h1").inner_text() == "Condizioni d'uso"
    page.locator(".page-header .lang-btn").click()
    assert page.locator("h1").inner_text() == "Terms of use"
