"""The tournament pages in the browser: a Sit&Go created from the form, registration and
withdrawal, bots entered by the organiser, and the standings, pairings and results arriving
over the WebSocket while the rounds are played (the page never asks for them again)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, Request, Route

from . import driver
from .conftest import Pages


def create_sitgo(
    page: Page, name: str, *, size: int = 4, rounds: int = 2, kind: str = "individual"
) -> str:
    """Fill the form of the tournaments' page and wait for the new tournament's page."""
    form = page.locator('form[data-form="tournament"]')
    form.locator('select[name="kind"]').select_option(kind)
    form.locator('input[name="name"]').fill(name)
    form.locator('select[name="size"]').select_option(str(size))
    form.locator('select[name="rounds"]').select_option(str(rounds))
    form.locator('select[name="smazzate"]').select_option("1")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"\?tournament="))
    screen = page.locator(".tournament-screen")
    screen.wait_for()
    tid = screen.get_attribute("data-tournament")
    assert tid
    page.wait_for_selector('.tournament-screen[data-conn="open"]')
    return tid


def test_a_sit_and_go_on_the_tournament_page(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    me = page.locator(".user-name").inner_text()

    # Register and withdraw.
    page.locator('[data-cmd="tournaments"]').click()
    page.wait_for_selector(".tournaments-screen")
    create_sitgo(page, "Serata di prova")
    assert page.locator(".tour-status").inner_text() == "Iscrizioni aperte"
    page.locator('[data-cmd="register"]').click()
    page.locator(".tour-entrant-list li").first.wait_for()
    assert me.endswith(page.locator(".tour-entrant-list li").inner_text())
    page.locator('[data-cmd="unregister"]').click()
    page.wait_for_selector('[data-cmd="register"]')
    assert page.locator(".tour-entrant-list li").count() == 0

    # A pairs tournament: a pair registers with the partner's name.
    partner = pages.new()
    driver.guest(partner)
    partner.wait_for_selector(".lobby-screen")
    partner_name = partner.locator(".user-name").inner_text().split()[-1]
    page.locator(".tour-back a").click()
    page.wait_for_selector(".tournaments-screen")
    create_sitgo(page, "Coppie", kind="pairs")
    page.locator('input[name="partner"]').fill("Nessuno")
    page.locator('[data-cmd="register"]').click()
    # The pairs form shows its own hint as a warning first: wait for the server's refusal.
    page.wait_for_selector(".notice.warn:has-text('Non c')")
    assert "Non c'è un giocatore con quel nome." in page.locator(".notice.warn").inner_text()
    page.locator('input[name="partner"]').fill(partner_name)
    page.locator('[data-cmd="register"]').click()
    page.wait_for_selector('[data-cmd="unregister"]')
    page.wait_for_selector("[data-awaiting]")
    entrant = page.locator(".tour-entrant-list li").inner_text()
    pair = entrant.removesuffix(" (in attesa del compagno)")
    assert entrant.endswith("(in attesa del compagno)")
    assert me.endswith(pair.split(" & ")[0]) and pair.endswith(f" & {partner_name}")
    # The partner sees it in the lobby (on opening it), finds it on the tournaments page and
    # confirms it.
    partner.reload()
    partner.wait_for_selector(".lobby-invitations [data-invitation]")
    assert "ti ha iscritto come compagno" in partner.locator(".lobby-invitations").inner_text()
    partner.locator('[data-cmd="tournaments"]').click()
    partner.wait_for_selector(".tour-invitations [data-invitation]")
    assert me.split()[-1] in partner.locator(".tour-invitations").inner_text()
    partner.locator('.tour-invitations [data-cmd="open"]').click()
    partner.wait_for_selector('[data-cmd="confirm"]')
    partner.locator('[data-cmd="confirm"]').click()
    partner.wait_for_selector('.tour-entrant-list li[data-status="registered"]')
    assert partner.locator(".tour-entrant-list li").inner_text() == pair
    # The registrant's page hears of it over its socket.
    page.wait_for_selector(".notice:has-text('ha confermato')")
    page.wait_for_selector('.tour-entrant-list li[data-status="registered"]')

    # A third tournament, for four bots, followed live from its page.
    page.locator(".tour-back a").click()
    page.wait_for_selector(".tournaments-screen")
    tid = create_sitgo(page, "Quattro bot")
    gets: list[str] = []

    def note(request: Request) -> None:
        if request.method == "GET" and f"/api/tournaments/{tid}" in request.url:
            gets.append(request.url)

    page.on("request", note)
    page.locator('.tour-bots select[name="level"]').select_option("greedy")
    page.locator('.tour-bots input[name="count"]').fill("4")
    page.locator('.tour-bots input[name="count"]').dispatch_event("change")
    page.locator('[data-cmd="bots"]').click()
    page.wait_for_selector('.tour-round[data-round="1"]')
    assert page.locator(".tour-status").inner_text() == "In corso"
    assert page.locator('.tour-round[data-round="1"] li.row[data-table]').count() == 2
    page.wait_for_selector('.tour-status[data-status="finished"]', timeout=90_000)
    assert page.locator(".tour-standings h2").inner_text() == "Classifica finale"
    rows = page.locator(".tour-standings tbody tr")
    assert rows.count() == 4
    assert rows.first.locator("td").first.inner_text().startswith("1")
    vps = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(4)]
    assert vps == sorted(vps, reverse=True) and sum(vps) == 80  # 2 rounds x 2 tables x 20
    for number in (1, 2):
        results = page.locator(f'.tour-round[data-round="{number}"] li.row[data-table] .muted')
        assert results.count() == 2
        assert all("VP" in results.nth(i).inner_text() for i in range(2))
    # Everything after the first look came over the WebSocket, several times.
    assert gets == []
    assert int(page.locator(".tournament-screen").get_attribute("data-pushes") or 0) >= 4

    # A table of the tournament opens from its row.
    page.locator('.tour-round[data-round="2"] li.row[data-table] a').first.click()
    page.wait_for_url(re.compile(r"\?table="))
    page.wait_for_selector(".table-screen")
    # ... and its arrow leads back to the tournament.
    page.locator('[data-cmd="lobby"]').click()
    page.wait_for_url(re.compile(rf"\?tournament={re.escape(tid)}$"))
    page.wait_for_selector('.tour-status[data-status="finished"]')


def test_a_push_keeps_the_partner_name_being_typed(pages: Pages) -> None:
    """The page redraws on every push: the partner's name typed in the pairs form, and the focus,
    must survive it (a guest registering elsewhere sends one)."""
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    page.locator('[data-cmd="tournaments"]').click()
    page.wait_for_selector(".tournaments-screen")
    create_sitgo(page, "Coppie in corso", kind="pairs", size=8)
    screen = page.locator(".tournament-screen")
    field = page.locator('input[name="partner"]')
    field.click()
    field.type("Nessu")
    pushes = int(screen.get_attribute("data-pushes") or 0)
    # Another pair registers: the server pushes the tournament to every watcher.
    other, partner = pages.new(), pages.new()
    driver.guest(partner)
    partner.wait_for_selector(".lobby-screen")
    partner_name = partner.locator(".user-name").inner_text().split()[-1]
    driver.guest(other)
    other.wait_for_selector(".lobby-screen")
    other.goto(page.url)
    other.locator('input[name="partner"]').fill(partner_name)
    other.locator('[data-cmd="register"]').click()
    other.wait_for_selector('[data-cmd="unregister"]')
    page.wait_for_function(
        "n => Number(document.querySelector('.tournament-screen').dataset.pushes || 0) > n",
        arg=pushes,
    )
    page.wait_for_selector(".tour-entrant-list li")
    assert field.input_value() == "Nessu"
    assert page.evaluate("document.activeElement.getAttribute('name')") == "partner"
    field.type("no")
    page.locator('[data-cmd="register"]').click()
    page.wait_for_selector(".notice.warn:has-text('Non c')")


def test_partial_elimination_t21_from_the_form(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    page.locator('[data-cmd="tournaments"]').click()
    page.wait_for_selector(".tournaments-screen")
    form = page.locator('form[data-form="tournament"]')
    form.locator('input[name="name"]').fill("Eliminazione")
    form.locator('select[name="rounds"]').select_option("1")
    # One round: nothing can follow an elimination, so the field is not offered.
    form.locator('input[name="elimination"]').wait_for(state="detached")
    form.locator('select[name="rounds"]').select_option("3")
    form.locator('input[name="elimination"]').fill("dopo il primo")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector(".form-error:has-text('turno:VP')")
    form.locator('input[name="elimination"]').fill("1:7, 2:14")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"\?tournament="))
    page.wait_for_selector(".tournament-screen .tour-head")
    assert "eliminazione 1:7, 2:14" in page.locator(".tour-head").inner_text()


def test_a_late_list_keeps_the_form_being_typed(pages: Pages) -> None:
    """The list of tournaments arrives after the player has begun the form (a slow server): its
    redraw keeps what he typed and where (the elimination typed, not yet committed by a change
    event, was lost under load: the form was sent without it). T21: the bad elimination is
    refused with its hint, the good one goes into the tournament."""
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(re.compile(r"/api/tournaments$"), hold)
    page.locator('[data-cmd="tournaments"]').click()
    page.wait_for_selector(".tournaments-screen")
    form = page.locator('form[data-form="tournament"]')
    form.locator('input[name="name"]').fill("Eliminazione lenta")
    form.locator('select[name="rounds"]').select_option("3")
    field = form.locator('input[name="elimination"]')
    field.click()
    field.type("dopo il primo")
    for _ in range(200):  # the list is being asked (Playwright hands the route over)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the list of tournaments was never asked"
    before = form.element_handle()
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/api/tournaments$"))
    page.wait_for_function("form => !form.isConnected", arg=before)  # the page was redrawn
    assert field.input_value() == "dopo il primo"
    assert page.evaluate("document.activeElement.getAttribute('name')") == "elimination"
    form.locator('button[type="submit"]').click()
    page.wait_for_selector(".form-error:has-text('turno:VP')")
