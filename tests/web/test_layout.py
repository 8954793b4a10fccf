"""Layout facts of the felt measured in Chromium (issue 15, defects 1 and 8): every card of
every meld is visible (wrapped, scaled or scrollable, never clipped), at desktop and phone
sizes, with long melds and burrachi (RULES.md R43, R45) and with a banner open.

The position comes from a golden record with a clean and a dirty burraco (RULES.md X1), served
to the replay viewer as the server computes it (server/replay.py): the replay draws the felt
with the same code and style as the live table."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route

from burraco.server.replay import replay_json

from .conftest import Pages

SHARED_SERVER = True
"""One server for the module's tests (conftest.py): the replays are served by the page's own
route, nothing by the server."""

RECORD = Path(__file__).parent.parent / "data" / "records" / "closing-clean-dirty.toml"
SIZES = [(1366, 800), (1920, 1080), (390, 844)]

# For each meld card: is its box inside its line's panel as shown (not scrolled away), inside
# the box of every ancestor that clips its content (overflow other than visible), and inside the
# viewport unless a scrollable ancestor holds it?
CLIPPED_CARDS = """
() => {
  const bad = [];
  const slack = 1;
  const inside = (a, b) => a.left >= b.left - slack && a.right <= b.right + slack
    && a.top >= b.top - slack && a.bottom <= b.bottom + slack;
  for (const card of document.querySelectorAll(".line-area .meld .card")) {
    const box = card.getBoundingClientRect();
    // The line's meld panel shows every card at once: no scrolling inside it.
    const area = card.closest(".line-area");
    const frame = area.getBoundingClientRect();
    const shown = {
      left: frame.left + area.clientLeft, top: frame.top + area.clientTop,
      right: frame.left + area.clientLeft + area.clientWidth,
      bottom: frame.top + area.clientTop + area.clientHeight,
    };
    if (!inside(box, shown)) bad.push([card.dataset.card, "panel", area.dataset.line]);
    let scrolled = false;
    for (let el = card.parentElement; el && el !== document.body; el = el.parentElement) {
      const style = getComputedStyle(el);
      const clips = style.overflowX !== "visible" || style.overflowY !== "visible";
      if (!clips) continue;
      const scrollable = ["auto", "scroll"].includes(style.overflowY)
        || ["auto", "scroll"].includes(style.overflowX);
      if (scrollable) {
        // Reachable by scrolling: the card must lie inside the scrolled content.
        const outer = el.getBoundingClientRect();
        const content = {
          left: outer.left - el.scrollLeft, top: outer.top - el.scrollTop,
          right: outer.left - el.scrollLeft + el.scrollWidth,
          bottom: outer.top - el.scrollTop + el.scrollHeight,
        };
        if (!inside(box, content)) bad.push([card.dataset.card, "scroll", el.className]);
        if (el.clientHeight < box.height) bad.push([card.dataset.card, "short", el.className]);
        scrolled = true;
      } else if (!inside(box, el.getBoundingClientRect())) {
        bad.push([card.dataset.card, "clip", el.className]);
      }
    }
    const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    if (!scrolled && !inside(box, view)) bad.push([card.dataset.card, "viewport", ""]);
  }
  return bad;
}
"""


def open_replay(pages: Pages, width: int, height: int, *, empty_pile: bool = False) -> Page:
    data: dict[str, Any] = replay_json(RECORD.read_text())
    if empty_pile:
        # One more step, the last position with the discard pile taken (as after a pickup).
        steps = data["hands"][0]["steps"]
        last = copy.deepcopy(steps[-1])
        last["view"]["discard_pile"] = []
        steps.append(last)
    page = pages.new(width=width, height=height)

    def serve(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/tables/golden/replay*", serve)
    page.goto("/?replay=golden&match=1")
    page.wait_for_selector(".replay-screen .felt")
    page.keyboard.press("End")
    page.wait_for_selector('.line-area .meld[data-meld="3"]')
    return page


def open_banner(page: Page) -> None:
    """An error banner as the live table shows it (play.js: .notices holding a .notice.error)."""
    page.evaluate(
        """() => {
          const felt = document.querySelector(".felt");
          const box = document.createElement("div");
          box.className = "notices";
          box.innerHTML = '<div class="notice error" role="alert"><span class="notice-text">'
            + '<span>Mossa non valida</span><span class="notice-detail">Dettaglio lungo della'
            + ' spiegazione, su due righe se serve per vedere cosa succede alla tavola</span>'
            + '</span><button class="notice-close">×</button></div>';
          felt.insertBefore(box, felt.querySelector(".action-bar"));
        }"""
    )


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_meld_card_is_visible_with_long_melds_and_a_banner(
    pages: Pages, width: int, height: int
) -> None:
    page = open_replay(pages, width, height)
    longest = max(
        page.locator(".line-area .meld").nth(i).locator(".card").count()
        for i in range(page.locator(".line-area .meld").count())
    )
    assert longest >= 7  # the dirty burraco 5S..JS and the clean one 3H..10H
    assert page.locator(".meld.burraco").count() == 2
    assert page.evaluate(CLIPPED_CARDS) == []
    open_banner(page)
    assert page.evaluate(CLIPPED_CARDS) == []


PARTS = """
() => [".hand", ".action-bar", ".status-row", ".centre", ".line-area.ours", ".line-area.theirs"]
  .map((sel) => {
    const box = document.querySelector(sel).getBoundingClientRect();
    return [sel, Math.round(box.left), Math.round(box.top), Math.round(box.width),
      Math.round(box.height)];
  })
"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_table_does_not_move_when_a_banner_opens(pages: Pages, width: int, height: int) -> None:
    page = open_replay(pages, width, height)
    before = page.evaluate(PARTS)
    open_banner(page)
    page.wait_for_selector(".notice.error")
    assert page.evaluate(PARTS) == before


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_table_does_not_move_when_the_discard_pile_empties(
    pages: Pages, width: int, height: int
) -> None:
    page = open_replay(pages, width, height, empty_pile=True)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(".pile .pile-cards .card")
    before = page.evaluate(PARTS)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".pile.empty")
    assert page.evaluate(PARTS) == before


# A locked card's tag (handArea in tableview.js) and a joker's face, drawn in the replay's hand
# with the page's own modules: their words must fit inside the card.
LABELS = """
async () => {
  const { cardEl } = await import("/js/cards.js");
  const { t } = await import("/js/i18n.js");
  const hand = document.querySelector(".hand");
  const locked = hand.querySelector(".card[data-card]");
  const tag = document.createElement("span");
  tag.className = "lock-tag";
  tag.textContent = t("hand.locked.short");
  locked.append(tag);
  const joker = cardEl("JK");
  joker.style.position = "static";
  hand.append(joker);
  const word = [...joker.querySelectorAll("text")].find((el) => el.textContent === "JOKER");
  const frame = word.previousElementSibling.previousElementSibling; // the inner panel
  const words = word.getBBox();
  const panel = frame.getBBox();
  return {
    tag: [tag.textContent, tag.scrollWidth, tag.clientWidth],
    joker: [words.x >= panel.x, words.x + words.width <= panel.x + panel.width],
  };
}
"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_bloccata_and_joker_fit_on_their_cards(pages: Pages, width: int, height: int) -> None:
    page = open_replay(pages, width, height)
    page.keyboard.press("Home")
    page.wait_for_selector(".hand .card[data-card]")
    found = page.evaluate(LABELS)
    word, scroll, client = found["tag"]
    assert word == "bloccata"
    assert scroll <= client, found
    assert found["joker"] == [True, True], found


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_an_opponents_known_cards_are_readable_with_a_plain_label(
    pages: Pages, width: int, height: int
) -> None:
    """R20: the cards taken from the discard pile are known to all; the chip shows them."""
    data: dict[str, Any] = replay_json(RECORD.read_text())
    view = data["hands"][0]["steps"][-1]["view"]
    view["known"] = {"1": ["QH", "KS", "7D"]}
    page = open_replay(pages, width, height)
    found = page.evaluate(
        """async (view) => {
          const { renderFelt } = await import("/js/tableview.js");
          const felt = renderFelt({ view, seats: null, names: ["Anna", "Bruno"], bottom: 0,
            hands: null, sort: "suit", selection: null, hints: null, interactive: false,
            myTurn: false, playing: true, players: 2, timed: false, away: {}, status: "" });
          document.querySelector(".felt").replaceWith(felt);
          const box = felt.querySelector('.chip[data-seat="1"] .chip-known');
          return {
            label: box.querySelector(".chip-known-label").textContent,
            widths: [...box.querySelectorAll(".card")].map((c) => c.getBoundingClientRect().width),
          };
        }""",
        view,
    )
    assert found["label"] == "Carte note"
    assert len(found["widths"]) == 3
    assert min(found["widths"]) >= 32, found
