"""The rules page (issue 15, "Learning the game"): one page per preset, in Italian or English,
with pictures of melds, whose numbers are the engine's own (checked here against ``find_rules``),
readable without an account and on a phone."""

from __future__ import annotations

import re

from burraco.engine import find_rules

from .conftest import Pages

SHARED_SERVER = True
"""One server for the module's tests (conftest.py): static pages."""

NUMBERS_JS = """() => [...document.querySelectorAll('.rules-values tbody tr')].map(
  (tr) => [tr.querySelector('th').textContent, Number(tr.querySelector('td').textContent)])"""


def test_each_preset_has_its_rules_page_with_the_engines_numbers(pages: Pages) -> None:
    page = pages.new()
    page.goto("/?rules=italian")  # no login needed
    page.wait_for_selector("#rules-scoring")
    italian = find_rules("italian")
    values = dict(page.evaluate(NUMBERS_JS))
    assert values == {
        "dal 3 al 7": italian.low_value,
        "dall'8 al re": italian.high_value,
        "asso": italian.ace_value,
        "2 (pinella)": italian.two_value,
        "jolly": italian.joker_value,
    }
    text = page.locator("main").inner_text()
    assert f"+{italian.bonus_clean}" in text and f"+{italian.bonus_dirty}" in text
    assert "serve almeno un burraco" in text.lower()  # R55, in plain words
    assert page.locator(".rules-picture").count() >= 5  # run, set, wild, natural 2, burrachi
    assert "learn." not in text  # every line came from the catalog

    # Burraco Reale (RULES.md §3.2): no jokers, no sets, 2s worth 10, a clean burraco to close.
    page.locator('[data-preset="reale"]').click()
    page.wait_for_function("() => location.search === '?rules=reale'")
    reale = find_rules("reale")
    values = dict(page.evaluate(NUMBERS_JS))
    assert values["2 (pinella)"] == reale.two_value == 10 and "jolly" not in values
    text = page.locator("main").inner_text()
    assert "non ci sono tris" in text and "burraco pulito" in text
    assert "104 carte: due mazzi francesi, senza jolly" in text
    assert f"+{reale.bonus_reale}" in text and f"+{reale.bonus_nobile}" in text
    assert page.locator('.rules-picture .card[data-card="JK"]').count() == 0


def test_the_rules_page_in_english_fits_a_phone(pages: Pages) -> None:
    page = pages.new(width=390, height=844)
    page.goto("/?rules=internazionale&lang=en")
    page.wait_for_selector("#rules-melds")
    text = page.locator("main").inner_text()
    assert "Sets are allowed only of: A, 3." in text  # §3.7
    assert "108 cards: two French decks and 4 jokers" in text
    assert "at least one clean burraco" in text
    assert not re.search(r"\b(carte|scala|pozzetto non preso)\b", text, re.IGNORECASE)
    # Nothing is wider than the phone: every card picture is inside the page.
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('.rules-picture .card')].filter((c) => {
             const r = c.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth;
           }).length"""
    )
    assert overflow == 0
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    labels = page.locator(".rules-cards").first.get_attribute("aria-label") or ""
    assert "Hearts" in labels or "hearts" in labels, labels  # pictures are labelled
