"""Friends in Chromium (issue 16): two players follow each other from the lobby and become
friends, one invites the other from his table's waiting room, the invitation shows in the
other's lobby and leads to the table; the lobby says who is online and what is played."""

from __future__ import annotations

import re

from . import driver
from .conftest import Pages


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
    invitation.locator("a").click()
    tito.wait_for_url(f"**/?table={table}")
    tito.locator('.waiting [data-cmd="sit"]').first.click()
    tito.wait_for_selector(".felt", timeout=15000)
