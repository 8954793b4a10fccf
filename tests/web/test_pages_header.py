"""The tournament and club pages as a person meets them (issue 15, defect 10 and part of 4):
a header with who is signed in and the ways out, no console error for a visitor, the browser's
language, a kept password, a default season that includes today, club refusals in Italian."""

from __future__ import annotations

import re
from datetime import date

from playwright.sync_api import ConsoleMessage, expect

from .conftest import Pages, Server
from .test_club_page import ok, register, signed_in

SHARED_SERVER = True
"""One server for the module's tests (conftest.py): each test registers a name of its own and
sees only what it made."""


def test_tournament_page_header_has_user_lobby_and_logout(pages: Pages, server: Server) -> None:
    client = register(server, "Header1")
    page = signed_in(pages, server, client)
    page.goto("/?tournaments")
    header = page.locator("header.page-header")
    expect(header.locator("[data-header=user]")).to_have_text("Header1")
    expect(header.locator("[data-header=lobby]")).to_be_visible()
    header.locator("[data-header=logout]").click()
    expect(page.locator("#auth-password")).to_be_visible()


def test_club_page_header_has_user_lobby_and_logout(pages: Pages, server: Server) -> None:
    client = register(server, "Header2")
    page = signed_in(pages, server, client)
    page.goto("/?club")
    header = page.locator("header.page-header")
    expect(header.locator("[data-header=user]")).to_have_text("Header2")
    expect(header.locator("[data-header=lobby]")).to_be_visible()
    expect(header.locator("[data-header=logout]")).to_be_visible()


def test_a_logged_out_visit_logs_no_console_error(pages: Pages) -> None:
    page = pages.new()
    seen: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            seen.append(message.text)

    page.on("console", console)
    page.goto("/?tournaments")
    expect(page.locator("#auth-password")).to_be_visible()
    assert seen == []


def test_an_en_us_browser_opens_in_english(pages: Pages, server: Server) -> None:
    context = pages.browser.new_context(base_url=server.url, locale="en-US")
    pages.contexts.append(context)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("label[for=auth-password]")).to_have_text("Password")


def test_the_password_stays_after_a_failed_login(pages: Pages, server: Server) -> None:
    register(server, "Header3").close()
    page = pages.new()
    page.goto("/")
    page.fill("#auth-name", "Header3")
    page.fill("#auth-password", "wrong-password-9")
    page.locator("#auth-password").press("Enter")
    expect(page.locator(".auth-error")).not_to_be_empty()
    expect(page.locator("#auth-password")).to_have_value("wrong-password-9")


def test_new_club_default_season_and_italian_refusals(pages: Pages, server: Server) -> None:
    client = register(server, "Header4")
    club = ok(client.post("/clubs", json={"name": "Circolo Oggi", "founder": "Anna"}), 201)
    page = signed_in(pages, server, client)
    page.goto(f"/?club={club['id']}")
    expect(page.locator(".club-body")).to_contain_text("Nessun torneo ancora.")
    assert page.get_by_text("Nessun torneo ancora.").count() == 1
    page.locator(".club-details summary").click()
    form = page.locator("form[data-form=new-season]")
    today = date.today().isoformat()
    starts = form.locator("input[name=starts_on]").input_value()
    ends = form.locator("input[name=ends_on]").input_value()
    assert starts <= today <= ends
    # A season ending before it starts: refused, said in Italian only.
    form.locator("input[name=name]").fill("Inverno")
    form.locator("input[name=ends_on]").fill("2020-01-01")
    form.locator("button[type=submit]").click()
    alert = page.locator("[data-error]")
    expect(alert).to_contain_text("Il torneo finisce dopo l'inizio")
    assert not re.search(r"\b(season|the|ends|after|starts)\b", alert.inner_text())
