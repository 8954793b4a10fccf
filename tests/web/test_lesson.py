"""The guided first game (issue 15, "Learning the game"): a learner who only ever follows the
coach's hint ("Show me", then the button it marks) plays a whole smazzata against the easy bot
to its score sheet; every hint is a legal move the page carries out, in the page's language."""

from __future__ import annotations

from playwright.sync_api import Page

from . import driver
from .conftest import Pages

HINT_JS = """() => { const c = document.querySelector('.coach');
  return c ? {action: c.dataset.action || null, text: c.textContent} : null; }"""


def _follow(page: Page, hint: dict[str, str]) -> str:
    """Do what the hint says, through the page: "Show me", then the marked place."""
    verb = hint["action"].split(" ")[0]
    page.locator(".coach-show").click()
    target = page.locator(".coach-target")
    target.wait_for()
    if verb in ("open", "discard"):
        expected = sorted(hint["action"].split(" ")[1:])
        page.wait_for_function(
            "(n) => document.querySelectorAll('.hand .card.selected').length === n",
            arg=len(expected),
        )
        chosen = page.evaluate(
            "() => [...document.querySelectorAll('.hand .card.selected')].map(c => c.dataset.card)"
        )
        assert sorted(chosen) == expected, (chosen, hint)
    seq = driver.state(page)["seq"]
    target.first.click()
    page.wait_for_function(
        "(seq) => { const r = document.querySelector('.table-screen');"
        " return r && r.dataset.pending === 'false' && r.dataset.seq !== seq; }",
        arg=seq,
    )
    return verb


def test_a_learner_following_the_hints_plays_a_whole_smazzata(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.locator(".auth-screen").wait_for()
    page.locator('[data-cmd="guest"]').click()
    page.locator(".lobby-screen").wait_for()
    page.locator('[data-cmd="lesson"]').click()
    page.locator(".table-screen").wait_for()
    done: list[str] = []
    for _ in range(400):
        now = driver.wait_settled(page, timeout=60)
        if now["sheet"] is not None or now["final"]:
            break
        hint = page.evaluate(HINT_JS)
        assert hint is not None and "coach." not in hint["text"], hint
        assert hint["action"], hint  # on the learner's turn there is always a move to show
        done.append(_follow(page, hint))
    else:
        raise AssertionError(f"the smazzata did not end after {len(done)} hinted moves")
    assert page.locator("[data-sheet], [data-final]").count() >= 1
    assert {"draw", "open", "discard"} <= set(done), done
    assert not pages.errors
