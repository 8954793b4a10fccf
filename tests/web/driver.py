"""Playing Burraco through the browser page, as a person would: reading what the page shows
(cards, highlighted melds, enabled buttons) and clicking. The strategy is deliberately simple:
draw (or pick up a pile of three or more cards), attach what the page lights up, open melds the
page accepts, and discard a card the page allows."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, ClassVar

from playwright.sync_api import Page, Position

STATE_JS = """() => {
  const root = document.querySelector('.table-screen');
  if (!root) return null;
  const cards = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.card || null);
  const cards2 = (m) => [...m.querySelectorAll('.card')].map((c) => c.dataset.card).join(' ');
  const sheet = document.querySelector('[data-sheet]');
  return {
    myTurn: root.dataset.myTurn === 'true',
    pending: root.dataset.pending === 'true',
    phase: root.dataset.phase,
    status: root.dataset.status,
    seq: root.dataset.seq,
    number: root.dataset.number,
    hand: cards('.hand .card'),
    pile: cards('.pile .card'),
    stock: Number((document.querySelector('.stock-count') || {}).textContent || -1),
    melds: [...document.querySelectorAll('.line-area .meld[data-meld]')].map((m) =>
      [m.dataset.line, m.dataset.meld, cards2(m)].join(':')),
    sheet: sheet ? sheet.dataset.sheet : null,
    final: Boolean(document.querySelector('[data-final]')),
    notice: (document.querySelector('.notice.error') || {}).textContent || null,
  };
}"""


def state(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(STATE_JS)
    return result


def wait_settled(page: Page, timeout: float = 30.0) -> dict[str, Any]:
    """Wait until it is this player's turn with nothing pending, or a score sheet shows."""
    page.wait_for_function(
        """() => {
          const r = document.querySelector('.table-screen');
          if (!r) return false;
          if (document.querySelector('[data-sheet], [data-final]')) return true;
          return r.dataset.myTurn === 'true' && r.dataset.pending === 'false';
        }""",
        timeout=timeout * 1000,
    )
    return state(page)


def wait_idle(page: Page, timeout: float = 10.0) -> None:
    page.wait_for_function(
        "() => { const r = document.querySelector('.table-screen');"
        " return r && r.dataset.pending === 'false'; }",
        timeout=timeout * 1000,
    )


class _Card:
    """A card of the hand, touched on its visible corner (cards overlap on small screens)."""

    CORNER: ClassVar[Position] = {"x": 6, "y": 14}

    def __init__(self, page: Page, index: int) -> None:
        self.locator = page.locator(f'.hand .card[data-index="{index}"]')

    def click(self) -> None:
        self.locator.click(position=self.CORNER)

    def dblclick(self) -> None:
        self.locator.dblclick(position=self.CORNER)


def _card(page: Page, index: int) -> _Card:
    return _Card(page, index)


def _indices(page: Page, selector: str) -> list[int]:
    found: list[int] = page.evaluate(
        f"() => [...document.querySelectorAll('{selector}')].map((c) => Number(c.dataset.index))"
    )
    return found


def _selected(page: Page) -> list[int]:
    return _indices(page, ".hand .card.selected")


def clear_selection(page: Page) -> None:
    if _selected(page):
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.hand .card.selected')")


def _hints(page: Page) -> list[int]:
    return _indices(page, ".hand .card.hint")


def _enabled(page: Page, cmd: str) -> bool:
    return bool(
        page.evaluate(
            f"() => {{ const b = document.querySelector('.action-bar [data-cmd=\"{cmd}\"]');"
            " return Boolean(b && !b.disabled); }"
        )
    )


def _after_action(page: Page, seq_before: str) -> None:
    page.wait_for_function(
        f"""() => {{
          const r = document.querySelector('.table-screen');
          return r && r.dataset.pending === 'false' && r.dataset.seq !== '{seq_before}';
        }}""",
        timeout=15000,
    )


def _playable(page: Page) -> list[int]:
    clear_selection(page)
    return _indices(page, ".hand .card.playable")


def try_attach(page: Page) -> bool:
    """Select single cards the page marks as playable; when one of our melds lights up, click
    it."""
    for index in _playable(page):
        clear_selection(page)
        _card(page, index).click()
        target = page.locator(".line-area.ours .meld.target[data-meld]")
        if target.count():
            seq = state(page)["seq"]
            target.first.click()
            _after_action(page, seq)
            return True
    clear_selection(page)
    return False


def try_open(page: Page) -> bool:
    """Grow a selection along the page's hints until the Meld button is enabled."""
    for index in _playable(page):
        clear_selection(page)
        _card(page, index).click()
        for _ in range(12):
            if _enabled(page, "open"):
                seq = state(page)["seq"]
                page.locator('.action-bar [data-cmd="open"]').click()
                _after_action(page, seq)
                return True
            hints = [i for i in _hints(page) if i not in _selected(page)]
            if not hints:
                break
            _card(page, hints[0]).click()
    clear_selection(page)
    return False


def discard(page: Page) -> None:
    """Double-click the first card the page lets us discard (the Discard button lights up)."""
    hand = state(page)["hand"]
    order = list(range(len(hand)))
    # Keep wild cards: try naturals first, highest index (by suit order) last.
    order.sort(key=lambda i: (hand[i] == "JK" or (hand[i] or "").startswith("2"), 0))
    for index in order:
        clear_selection(page)
        _card(page, index).click()
        if _enabled(page, "discard"):
            clear_selection(page)
            seq = state(page)["seq"]
            _card(page, index).dblclick()
            _after_action(page, seq)
            return
    raise AssertionError(f"no card of {hand} can be discarded")


def acquire(page: Page, stats: Counter[str], *, allow_pickup: bool = True) -> None:
    now = state(page)
    seq = now["seq"]
    pile_ok = page.locator(".pile.target").count() > 0
    if allow_pickup and pile_ok and len(now["pile"]) >= 3:
        page.locator(".pile").click()
        stats["pickup"] += 1
    else:
        page.locator(".stock").click()
        stats["draw"] += 1
    _after_action(page, seq)


def discardable(page: Page) -> int:
    """The index of a card the page lets us discard (its Discard button lights up)."""
    hand = state(page)["hand"]
    for index in range(len(hand)):
        clear_selection(page)
        _card(page, index).click()
        if _enabled(page, "discard"):
            clear_selection(page)
            return index
    raise AssertionError(f"no card of {hand} can be discarded")


def drag_discard(page: Page) -> None:
    """Drag a card by its corner onto the discard pile, with the mouse."""
    index = discardable(page)
    card = page.locator(f'.hand .card[data-index="{index}"]').bounding_box()
    pile = page.locator(".pile").bounding_box()
    assert card is not None and pile is not None
    seq = state(page)["seq"]
    page.mouse.move(card["x"] + 6, card["y"] + 14)
    page.mouse.down()
    page.mouse.move(card["x"] + 30, card["y"] - 30, steps=4)
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()
    _after_action(page, seq)


def play_turn(page: Page, stats: Counter[str], *, allow_pickup: bool = True) -> None:
    """One whole turn of the simple strategy."""
    if state(page)["phase"] == "acquire":
        acquire(page, stats, allow_pickup=allow_pickup)
    for _ in range(30):
        now = state(page)
        if not now["myTurn"] or now["phase"] != "play":
            return
        if try_attach(page):
            stats["attach"] += 1
        elif try_open(page):
            stats["open"] += 1
        else:
            break
    now = state(page)
    if now["myTurn"] and now["phase"] == "play":
        discard(page)
        stats["discard"] += 1


def play_until_sheet(
    page: Page, stats: Counter[str] | None = None, *, limit: float = 150.0, on_turn: Any = None
) -> dict[str, Any]:
    """Play turns until the score sheet of the smazzata shows; returns the last state."""
    stats = Counter() if stats is None else stats
    started = time.monotonic()
    while time.monotonic() - started < limit:
        now = wait_settled(page, timeout=limit)
        if now["sheet"] or now["final"]:
            return now
        if on_turn is not None:
            on_turn(page, stats["turns"])
        play_turn(page, stats)
        stats["turns"] += 1
    raise AssertionError(f"no score sheet after {limit} s ({stats})")


# ----------------------------------------------------------------------------- getting seated


def english(page: Page) -> None:
    """Ask for the English pages (``?lang=en``, remembered in the browser for the pages that
    follow): waits until the page has taken it, before anything else is opened."""
    page.goto("/?lang=en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def register(page: Page, name: str, password: str = "una-password-lunga") -> None:
    page.goto("/")
    page.locator('.tabs [data-mode="register"]').click()
    page.fill("#auth-name", name)
    page.fill("#auth-password", password)
    page.locator('.auth-form button[type="submit"]').click()
    page.wait_for_selector(".lobby-screen")


def guest(page: Page, path: str = "/") -> None:
    page.goto(path)
    page.locator('[data-cmd="guest"]').click()


def create_table(
    page: Page, *, players: int = 2, smazzate: int = 1, bot: str = "heuristic", public: bool = True
) -> str:
    """Fill the lobby's form (bots in every other seat) and wait for the table to start."""
    form = page.locator(".create-form")
    if players != 2:
        form.locator(f'input[name="players"][value="{players}"]').check(force=True)
        page.wait_for_selector(f'select[name="bot{players - 1}"]')
    page.locator('.create-form select[name="smazzate"]').select_option(str(smazzate))
    for seat in range(1, players):
        page.locator(f'.create-form select[name="bot{seat}"]').select_option(bot)
    if not public:
        page.locator('.create-form input[name="public"]').uncheck()
    page.locator('.create-form button[type="submit"]').click()
    page.wait_for_selector(".felt")
    table: str = page.evaluate("() => new URLSearchParams(location.search).get('table')")
    return table
