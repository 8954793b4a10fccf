"""Friends in Chromium (issue 16): two players follow each other from the lobby and become
friends, one invites the other from his table's waiting room, the invitation shows in the
other's lobby and leads to the table; the lobby says who is online and what is played."""

from __future__ import annotations

import re

from playwright.sync_api import APIResponse, Locator, Page, Route, expect

from . import driver
from .conftest import Pages
from .test_i18n import italian_left

# The catalog keys the friends panel, the lobby's presence line and the invitation form show,
# refusals included (test_i18n.italian_left).
PANEL_KEYS = ["friends.", "lobby.presence", "wait.invite", "wait.invited", "err."]


def test_friends_follow_each_other_and_one_invites_the_other(pages: Pages) -> None:
    sara, tito = pages.new(), pages.new()
    driver.register(sara, "Sara")
    driver.register(tito, "Tito")
    panel = sara.locator(".panel.friends")
    panel.locator('input[name="player"]').fill("Tito")
    panel.locator('button[type="submit"]').click()
    panel.locator(".muted", has_text="Aspetti che ti seguano: Tito").wait_for()
    tito.locator('.panel.friends li[data-request="Sara"]').wait_for(timeout=15000)
    tito.locator('.panel.friends li[data-request="Sara"] button').click()
    tito.locator('.panel.friends li[data-friend="Sara"]').wait_for()
    # Sara opens a table (a seat left for a person) and invites Tito by name.
    form = sara.locator(".create-form")
    form.locator('select[name="bot1"]').select_option("open")
    form.locator('button[type="submit"]').click()
    sara.locator('form[data-form="invite"]').wait_for()
    sara.fill("#invite-name", "Tito")
    sara.locator('form[data-form="invite"] button[type="submit"]').click()
    sara.locator(".notice", has_text="Tito").wait_for()
    table = sara.evaluate("() => new URLSearchParams(location.search).get('table')")
    invitation = tito.locator(f'.panel.friends li[data-invitation="{table}"]')
    invitation.wait_for(timeout=15000)
    assert "Sara ti invita al suo tavolo" in invitation.inner_text()
    presence = tito.locator(".lobby-presence").inner_text()
    assert re.search(r"\d+ in linea · \d+ tavoli in gioco · [1-9]\d* in attesa", presence), presence
    # A refusal at the table in Italian words only (not the server's English sentence).
    sara.fill("#invite-name", "Nessuno")
    sara.locator('form[data-form="invite"] button[type="submit"]').click()
    refused = sara.locator(".notice.error")
    expect(refused).to_contain_text("Nessun giocatore con questo nome.")
    assert "player" not in refused.inner_text()
    invitation.locator("a").click()
    tito.wait_for_url(f"**/?table={table}")
    tito.locator('.waiting [data-cmd="sit"]').first.click()
    tito.wait_for_selector(".felt", timeout=15000)


def assert_english(where: Locator) -> None:
    text = where.inner_text()
    assert not italian_left(text, PANEL_KEYS), (italian_left(text, PANEL_KEYS), text)


def invite(page: Page, name: str) -> Locator:
    """Invite ``name`` from the waiting room; the notice that answers."""
    page.fill("#invite-name", name)
    page.locator('form[data-form="invite"] button[type="submit"]').click()
    notice = page.locator(".notices .notice")
    expect(notice).to_contain_text(name)
    return notice


def test_friends_in_english(pages: Pages) -> None:
    """The friends panel, the invitation and the server's refusals in English, with no Italian
    word left: following nobody or oneself, inviting someone who blocked you."""
    sara, tito = pages.new(), pages.new()
    for page, name in ((sara, "Sara"), (tito, "Tito")):
        driver.english(page)
        driver.register(page, name)
    panel = sara.locator(".panel.friends")
    expect(panel.locator("h2")).to_have_text("Friends")
    expect(panel.locator(".muted")).to_have_text("No friends yet: follow someone who follows you.")
    player = panel.locator('input[name="player"]')
    assert player.get_attribute("placeholder") == "a player's name"
    expect(panel.locator('button[type="submit"]')).to_have_text("Follow")
    error = panel.locator(".form-error")
    for name, words in (
        ("Nobody", "No player has that name."),
        ("Sara", "That is you: choose another player."),
    ):
        player.fill(name)
        panel.locator('button[type="submit"]').click()
        expect(error).to_have_text(words)
        assert_english(panel)
    # The lobby draws the panel again every few seconds: a name being typed stays.
    player.fill("Tit")
    player.focus()
    with sara.expect_response(lambda r: r.url.endswith("/api/friends"), timeout=15000):
        pass
    sara.wait_for_timeout(200)  # the answer drawn
    assert player.input_value() == "Tit"
    assert sara.evaluate("() => document.activeElement.name") == "player"
    player.fill("Tito")
    panel.locator('button[type="submit"]').click()
    panel.locator(".muted", has_text="Waiting for them to follow you: Tito").wait_for()
    assert player.input_value() == ""  # followed: the field is empty again
    request = tito.locator('.panel.friends li[data-request="Sara"]')
    request.wait_for(timeout=15000)
    assert request.inner_text().startswith("Sara wants to be your friend.")
    expect(request.locator("button")).to_have_text("Accept")
    assert_english(tito.locator(".panel.friends"))
    request.locator("button").click()
    friend = tito.locator('.panel.friends li[data-friend="Sara"]')
    friend.wait_for()
    # Online means a table page open (a socket): Sara is only in the lobby.
    assert friend.locator(".dot").get_attribute("aria-label") == "offline"
    expect(friend.locator("button")).to_have_text("Unfollow")
    assert_english(tito.locator(".panel.friends"))
    # Sara's table: the invitation form, its answers and refusals in English.
    form = sara.locator(".create-form")
    form.locator('select[name="bot1"]').select_option("open")
    form.locator('button[type="submit"]').click()
    invitation_form = sara.locator('form[data-form="invite"]')
    invitation_form.wait_for()
    assert "Invite a player by name" in invitation_form.inner_text()
    expect(invitation_form.locator('button[type="submit"]')).to_have_text("Invite")
    notice = invite(sara, "Nobody")
    expect(notice).to_contain_text("No player has that name.")
    assert_english(notice)
    notice = invite(sara, "Tito")
    expect(notice).to_contain_text("Tito is not online: the invitation waits in their lobby.")
    table = sara.evaluate("() => new URLSearchParams(location.search).get('table')")
    invitation = tito.locator(f'.panel.friends li[data-invitation="{table}"]')
    invitation.wait_for(timeout=15000)
    assert "Sara invites you to their table." in invitation.inner_text()
    expect(invitation.locator("a")).to_have_text("Go to the table")
    presence = tito.locator(".lobby-presence").inner_text()
    assert re.search(r"\d+ online · \d+ tables in play · [1-9]\d* waiting", presence), presence
    assert_english(tito.locator(".panel.friends"))
    assert_english(tito.locator(".lobby-presence"))
    # Tito blocks Sara: her next invitation is refused, in English words.
    tito.evaluate("async () => (await import('/js/api.js')).api.relate('Sara', 'block')")
    sara.locator('.notice [data-cmd="close-notice"]').click()
    notice = invite(sara, "Tito")
    expect(notice).to_contain_text("Tito does not take invitations from you.")
    assert notice.get_attribute("class") == "notice error"
    assert_english(notice)


def test_a_list_asked_before_a_follow_does_not_undo_it(pages: Pages) -> None:
    """The lobby's poll asked for the friends list just before a follow, and its answer came
    after the follow's (a slow server): the panel keeps the newer list. Before the fix the old
    list came back and the name just followed vanished from the panel until the next poll (a
    loaded run's bot-account page test failed on it)."""
    sara, tito = pages.new(), pages.new()
    driver.register(tito, "Tito")
    driver.register(sara, "Sara")
    panel = sara.locator(".panel.friends")
    panel.locator('input[name="player"]').wait_for()
    held: list[tuple[Route, APIResponse]] = []

    def hold(route: Route) -> None:
        if route.request.method == "GET":
            held.append((route, route.fetch()))  # the list as the server has it now
        else:
            route.continue_()

    sara.route(re.compile(r"/api/friends$"), hold)
    for _ in range(200):  # the lobby's next poll (every 4 s)
        if held:
            break
        sara.wait_for_timeout(50)
    assert held, "the lobby never asked for the friends list"
    before = list(held)  # asked (and answered by the server) before the follow
    panel.locator('input[name="player"]').fill("Tito")
    panel.locator('button[type="submit"]').click()
    pending = panel.locator(".muted", has_text="Aspetti che ti seguano: Tito")
    pending.wait_for()
    for route, answer in before:  # only the old lists reach the page now
        route.fulfill(response=answer)
    before[-1][0].request.response()  # delivered to the page
    sara.wait_for_timeout(300)  # the page's own turn to read it
    expect(pending).to_be_visible()
    for route, answer in held[len(before) :]:
        route.fulfill(response=answer)
    sara.unroute(re.compile(r"/api/friends$"))
