"""The leaderboards and the profile in Chromium (issue 16): a registered player's rated match
(lost on time here: the quickest honest end) moves his rating; his profile shows it with the
chart and the match, the leaderboard lists him among the provisional players, with the bots at
their fixed ratings, in Italian and in English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from . import driver
from .conftest import Pages
from .test_accessibility import assert_accessible


@pytest.mark.seed(5)
def test_a_rated_match_shows_on_the_profile_and_the_leaderboard(pages: Pages) -> None:
    page = pages.new(width=1280, height=860)
    driver.register(page, "Giulia")
    # Two matches of two rulesets, played side by side in two tabs: a rated one to the Italian
    # rules, and a casual one to the classic rules ended by its 5 s turn timer.
    table, classic = page.evaluate(
        """async () => {
          const { api } = await import('/js/api.js');
          const t = await api.create({ rules: 'italian', players: 2, smazzate: 3, seat: 0,
            public: false, rated: true, round_seconds: 60, bots: { 1: 'heuristic' } });
          const c = await api.create({ rules: 'classic', players: 2, smazzate: 2, seat: 0,
            public: false, round_seconds: 600, hand_seconds: 5, between_smazzate: 0,
            bots: { 1: 'heuristic' } });
          return [t.id, c.id];
        }"""
    )
    side = page.context.new_page()
    side.goto(f"/?table={classic}")
    side.wait_for_selector(".felt")
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
    side.locator(".modal .sheet-box[data-final]").wait_for(timeout=60000)
    side.close()
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
    # The statistics and the history with its filters (the matches lost on time: 0 smazzate
    # finished, maybe 1).
    stats = page.locator("[data-board='stats']")
    assert "Statistiche" in stats.inner_text()
    assert stats.locator("tr[data-stat='profile.matches'] td").inner_text() == "2"
    board = page.locator("[data-board='history']")
    history = board.locator(".history-table tbody tr")
    expect(history).to_have_count(2)
    assert sorted(history.evaluate_all("rows => rows.map((r) => r.dataset.table)")) == sorted(
        [table, classic]
    )
    assert "persa" in history.first.inner_text() and "persa" in history.last.inner_text()
    assert history.locator("td[data-rules='classic']").inner_text() == "Classico (a 2005)"
    assert board.locator(f"tr[data-table='{table}'] a[data-link='record']").get_attribute(
        "href"
    ) == (f"/api/tables/{table}/record?match=1")
    # The ruleset filter: its choices are the server's rulesets by their names.
    rules = board.locator("select[name='rules']")
    assert rules.get_attribute("aria-label") == "Regole"
    assert rules.locator("option").all_inner_texts() == [
        "tutte le regole",
        *page.evaluate(
            """async () => {
              const { t } = await import('/js/i18n.js');
              const info = await (await fetch('/api/info')).json();
              return info.presets.map((p) => t('preset.' + p));
            }"""
        ),
    ]
    rules.select_option("classic")
    expect(history).to_have_count(1)
    expect(history).to_have_attribute("data-table", classic)
    rules.select_option("italian")
    expect(history).to_have_attribute("data-table", table)
    assert history.locator("td[data-rules]").inner_text() == "Italiano (regole da torneo)"
    rules.select_option("reale")
    board.locator("p.muted", has_text="Nessuna partita con questi filtri.").wait_for()
    rules.select_option("")
    expect(history).to_have_count(2)
    board.locator("select[name='result']").select_option("win")
    board.locator("p.muted").wait_for()
    assert board.locator(".history-table").count() == 0
    # In English: the filter and its rulesets in English words.
    page.locator(".page-header .lang-btn").click()
    assert rules.get_attribute("aria-label") == "Rules"
    assert rules.locator("option").first.inner_text() == "any rules"
    assert "Classic (to 2005)" in rules.locator("option").all_inner_texts()
    rules.select_option("classic")
    board.locator("select[name='result']").select_option("")
    expect(history).to_have_count(1)
    assert history.locator("td[data-rules]").inner_text() == "Classic (to 2005)"
    assert "lost" in history.inner_text()
    page.locator(".page-header .lang-btn").click()  # back to Italian
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
