"""The leaderboards and the profile in Chromium (issue 16): a registered player's rated match
(lost on time here: the quickest honest end) moves his rating; his profile shows it with the
chart and the match, the leaderboard lists him among the provisional players, with the bots at
their fixed ratings, in Italian and in English."""

from __future__ import annotations

import pytest

from . import driver
from .conftest import Pages
from .test_accessibility import assert_accessible


@pytest.mark.seed(5)
def test_a_rated_match_shows_on_the_profile_and_the_leaderboard(pages: Pages) -> None:
    page = pages.new(width=1280, height=860)
    driver.register(page, "Giulia")
    table = page.evaluate(
        """async () => {
          const { api } = await import('/js/api.js');
          const t = await api.create({ rules: 'italian', players: 2, smazzate: 3, seat: 0,
            public: false, rated: true, round_seconds: 60, bots: { 1: 'heuristic' } });
          return t.id;
        }"""
    )
    page.goto(f"/?table={table}")
    page.wait_for_selector(".felt")
    # Giulia does not play: her 30 s run out (T14) and the rated match is lost.
    page.locator(".modal .sheet-box[data-final]").wait_for(timeout=60000)
    # The final sheet tells what the rated match did: Giulia down, the bot at its anchor.
    news = page.locator(".modal .rating-news")
    assert "Punteggi in classifica" in news.inner_text()
    mine = news.locator("li[data-seat='0']")
    assert mine.locator(".down").count() == 1 and "Giulia" in mine.inner_text()
    assert news.locator("li[data-seat='1'] strong").inner_text() == "1650"
    shown = int(mine.locator("strong").inner_text())
    page.goto("/?player=Giulia")
    card = page.locator(".mode-card[data-mode='2p']")
    card.wait_for()
    rating = int(card.locator(".big-rating strong").inner_text())
    assert rating < 1500 and rating == shown
    assert "provvisorio" in card.inner_text()
    assert card.locator("svg.rating-chart circle").count() == 1
    row = card.locator(".history-table tbody tr")
    assert row.count() == 1 and "persa" in row.inner_text()
    assert row.locator("a").get_attribute("href") == f"/?replay={table}&match=1"
    # The statistics and the history with its filters (the match lost on time: 0 smazzate
    # finished, maybe 1).
    stats = page.locator("[data-board='stats']")
    assert "Statistiche" in stats.inner_text()
    assert stats.locator("tr[data-stat='profile.matches'] td").inner_text() == "1"
    history = page.locator("[data-board='history'] .history-table tbody tr")
    history.first.wait_for()
    assert history.count() == 1 and "persa" in history.inner_text()
    assert history.locator("a[data-link='record']").get_attribute("href") == (
        f"/api/tables/{table}/record?match=1"
    )
    page.locator("[data-board='history'] select[name='result']").select_option("win")
    page.locator("[data-board='history'] p.muted").wait_for()
    assert page.locator("[data-board='history'] .history-table").count() == 0
    assert_accessible(page, "profile")
    # The leaderboard: among the provisional players, linked to the profile; the bots apart.
    page.goto("/?ratings=2p")
    provisional = page.locator("[data-board='provisional']")
    provisional.locator("tr[data-player='Giulia']").wait_for()
    assert str(rating) in provisional.locator("tr[data-player='Giulia']").inner_text()
    assert page.locator("[data-board='main'] tr[data-player='Giulia']").count() == 0
    assert page.locator("[data-board='bots'] li[data-bot='heuristic']").inner_text() == (
        "Bot Esperto ~1650"
    )
    assert_accessible(page, "leaderboard")
    page.locator("[data-period='month']").click()
    page.locator("[data-board='provisional'] tr[data-player='Giulia']").wait_for()
    page.locator("[data-mode='4p']").click()
    page.locator("[data-board='provisional'] p.muted >> nth=1").wait_for()
    assert page.locator("tr[data-player='Giulia']").count() == 0
    # In English.
    page.locator(".page-header .lang-btn").click()
    assert page.locator(".ratings-page h1").inner_text() == "Leaderboards"
    assert "Bot Expert ~1650" in page.locator("[data-board='bots']").inner_text()
    # An unknown name says so in the page's language.
    page.goto("/?player=Nessuno")
    page.locator(".notice.error").wait_for()
    assert page.locator(".notice.error").inner_text() == "No player has that name."


def test_the_lobby_offers_a_rated_table_only_where_it_can_be_rated(pages: Pages) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    rated = page.locator('.create-form input[name="rated"]')
    assert rated.is_disabled()
    assert "Gli ospiti non hanno punteggio" in page.locator(".create-form").inner_text()
    page.locator('[data-cmd="logout"]').click()
    driver.register(page, "Marco")
    rated = page.locator('.create-form input[name="rated"]')
    assert rated.is_enabled()  # the form's default: 3 smazzate
    page.locator('.create-form select[name="smazzate"]').select_option("1")
    rated = page.locator('.create-form input[name="rated"]')
    assert rated.is_disabled()
    assert "almeno 3 smazzate" in page.locator(".create-form").inner_text()
    page.locator('.create-form select[name="smazzate"]').select_option("3")
    page.locator('.create-form input[name="rated"]').check()
    page.locator('.create-form select[name="bot1"]').select_option("heuristic")
    page.locator('.create-form button[type="submit"]').click()
    page.wait_for_selector(".felt")
    table = page.evaluate("() => new URLSearchParams(location.search).get('table')")
    config = page.evaluate(
        "async (id) => (await (await fetch('/api/tables/' + id)).json()).config", table
    )
    assert config["rated"] is True and config["absent"] == "forfeit"
    # The user's name in the lobby leads to his profile; the header to the leaderboards.
    page.goto("/")
    page.locator(".lobby-top a.user-name").click()
    page.wait_for_selector(".profile-screen")
    assert page.locator(".ratings-page h1").inner_text() == "Marco"
