"""What the table shows besides the cards (issue 15, "The table"): the last move lit, the names
with the scores in the header, the chess clock's low-time levels with a notice at 10 s, and the
clock's description saying what each side gets (defect 7: "10 minuti" gave 5:00 each, unsaid)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from . import driver
from .conftest import Pages

LAST_MELD_JS = """() => {
  const meld = document.querySelector('.line-area .meld.last-move');
  if (!meld) return null;
  return { lit: meld.querySelectorAll('.card.last-card').length,
           cards: meld.querySelectorAll('.card').length, line: meld.dataset.line };
}"""


@pytest.mark.seed(2)
def test_the_last_move_is_lit_and_the_header_names_the_scores(pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    driver.register(page, "Giulia")
    driver.create_table(page, players=2, smazzate=1, bot="heuristic")
    # The header: each line's name with its total, the viewer's own first.
    score = page.locator(".topbar .title-score")
    assert score.locator(".score-name").all_inner_texts() == ["Giulia", "Bot Esperto"]
    assert score.locator(".score-n").all_inner_texts() == ["0", "0"]
    stats: Counter[str] = Counter()
    discards_lit = 0
    meld_seen = None
    for turn in range(40):
        now = driver.wait_settled(page)
        if now["sheet"] or now["final"]:
            break
        # On my turn (after my first) the bot has just played: its discard, the pile's top
        # card, is lit ...
        top = page.locator(".pile .pile-cards .card").last
        if turn > 0 and now["phase"] == "acquire" and now["pile"]:
            assert "last-card" in (top.get_attribute("class") or ""), now["pile"]
            assert page.locator(".pile .card.last-card").count() == 1
            assert page.locator(".board > .chip.last-mover").count() == 1
            discards_lit += 1
        # ... and so are the cards its turn laid, when its last action was a meld.
        meld = page.evaluate(LAST_MELD_JS)
        if meld is not None:
            assert 1 <= meld["lit"] <= meld["cards"], meld
            meld_seen = meld
        driver.play_turn(page, stats)
    assert discards_lit >= 3, discards_lit
    assert meld_seen is not None, "no meld was ever lit as the last move"


def test_the_clock_warns_at_10_seconds_and_the_description_says_per_side(pages: Pages) -> None:
    page = pages.new(width=1366, height=800)
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    # The lobby's clock choice says how the time is split (T5: half to each side).
    options = page.locator('.create-form select[name="clock"] option').all_inner_texts()
    assert "10 minuti di partita (5:00 per parte), 60 s a mano" in options, options
    # A table with 80 s in all: 40 s each side, no turn timer (so nothing plays for us).
    table = page.evaluate(
        """async () => {
          const { api } = await import('/js/api.js');
          const t = await api.create({ rules: 'italian', players: 2, smazzate: 1, seat: 0,
            public: false, round_seconds: 80, bots: { 1: 'heuristic' } });
          return t.id;
        }"""
    )
    page.goto(f"/?table={table}")
    page.wait_for_selector(".felt")
    assert "40 s" not in page.locator(".topbar").inner_text()
    # Wait for our turn, then let the clock run: under 30 s the clock turns red, under 10 s it
    # pulses and a notice says so.
    driver.wait_settled(page)
    mine = page.locator(".line-area.ours .line-clock")
    page.wait_for_function(
        "() => { const c = document.querySelector('.line-area.ours .line-clock');"
        " return c && c.classList.contains('running') && c.classList.contains('warn'); }",
        timeout=20000,
    )
    assert "crit" not in (mine.get_attribute("class") or "")
    page.wait_for_function(
        "() => document.querySelector('.line-area.ours .line-clock').classList.contains('crit')",
        timeout=35000,
    )
    notice = page.locator(".notice.warn")
    notice.wait_for(timeout=3000)
    assert re.search(r"restano 10 secondi", notice.inner_text()), notice.inner_text()
    left = mine.inner_text()
    assert re.fullmatch(r"0:(0\d|10)", left), left
