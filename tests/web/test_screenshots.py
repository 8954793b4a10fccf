"""Screenshots of the table at phone, tablet and desktop sizes. The layout must hold at each
size: nothing wider than the screen, the whole hand on screen. With
``BURRACO_UPDATE_SCREENSHOTS=1`` they are written to docs/screenshots/ (shown in the README);
otherwise to a temporary folder, so that a test run leaves the checkout as it found it (every
run rewrote the tracked images with a few changed pixels)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from . import driver
from .conftest import Pages

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where this test's screenshots go (the module's docstring)."""
    folder = DOCS_SHOTS if os.environ.get("BURRACO_UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


SIZES = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1440, 900)}


@pytest.mark.seed(2)
def test_screenshots_at_phone_tablet_and_desktop_sizes(pages: Pages, shots: Path) -> None:
    page = pages.new(width=390, height=844, touch=True)
    driver.register(page, "Giulia")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "lobby-phone.png"))
    driver.create_table(page, players=2, smazzate=3)
    page.set_viewport_size({"width": 1440, "height": 900})
    stats: Counter[str] = Counter()
    for _ in range(14):
        now = driver.wait_settled(page)
        if now["sheet"] or now["final"]:
            break
        mine = page.locator(".line-area.ours .meld[data-meld]").count()
        theirs = page.locator(".line-area.theirs .meld[data-meld]").count()
        if mine >= 3 and theirs >= 3:
            break
        driver.play_turn(page, stats)
    now = driver.wait_settled(page)
    assert not now["sheet"] and not now["final"]
    if now["phase"] == "acquire":
        driver.acquire(page, stats, allow_pickup=False)
        driver.wait_idle(page)
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        # A card chosen, to show the selection and the hints.
        driver.clear_selection(page)
        page.locator('.hand .card[data-index="0"]').click(position={"x": 6, "y": 14})
        sizes = page.evaluate(
            "() => ({ doc: document.documentElement.scrollWidth,"
            " hand: Math.max(...[...document.querySelectorAll('.hand .card')]"
            ".map((c) => c.getBoundingClientRect().right)),"
            " bottom: Math.max(...[...document.querySelectorAll('.hand .card')]"
            ".map((c) => c.getBoundingClientRect().bottom)) })"
        )
        assert sizes["doc"] <= width, (name, sizes)
        assert sizes["hand"] <= width and sizes["bottom"] <= height, (name, sizes)
        page.screenshot(path=str(shots / f"table-{name}.png"))
    driver.clear_selection(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator('.topbar [data-cmd="lang"]').click()
    page.wait_for_timeout(100)
    page.screenshot(path=str(shots / "table-phone-en.png"))


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (4, 3)])
def test_screenshots_of_three_and_four_player_tables(
    pages: Pages, players: int, seed: int, request: pytest.FixtureRequest, shots: Path
) -> None:
    """The seats around the table (issue 15): with 4 players the partner opposite and the
    opponents left and right, with 3 players three sides; phone, tablet and desktop."""
    page = pages.new(width=1440, height=900)
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    driver.create_table(page, players=players, smazzate=1, bot="heuristic")
    stats: Counter[str] = Counter()
    for _ in range(8):
        now = driver.wait_settled(page)
        if now["sheet"] or now["final"]:
            break
        if page.locator(".line-area .meld[data-meld]").count() >= 4:
            break
        driver.play_turn(page, stats)
    now = driver.wait_settled(page)
    assert not now["sheet"] and not now["final"]
    expected = {3: ["left", "right"], 4: ["left", "top", "right"]}[players]
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        seats = page.evaluate(
            "() => [...document.querySelectorAll('.board > .chip')].map((c) => {"
            " const r = c.getBoundingClientRect();"
            " return { pos: c.dataset.pos, x: r.left + r.width / 2, y: r.top, w: r.width,"
            " name: c.querySelector('.chip-name').scrollWidth <="
            " c.querySelector('.chip-name').clientWidth + 1 }; })"
        )
        assert [s["pos"] for s in seats] == expected, seats
        # Left of the middle, then (with 4) the partner in the middle, then right.
        xs = [s["x"] for s in seats]
        assert xs == sorted(xs), (name, seats)
        # No seat name is cut (they wrap), so the seats can be told apart on a phone.
        assert all(s["name"] for s in seats), (name, seats)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
        page.screenshot(path=str(shots / f"table-{players}p-{name}.png"))
