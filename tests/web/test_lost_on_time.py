"""A match lost on time, in Chromium (issue 15, defects 6 and 8): the person plays the first
smazzata, then stops; the turn timer runs out three times (T13) and the match ends by timeout
with T14's technical score. The final screen says who ran out of time, shows the MP and VP by
line and the smazzate played (not "Nessuna smazzata ancora finita" and a bare 0-0), and the
lobby's finished list shows the winner, "persa per tempo" and the MP/VP."""

from __future__ import annotations

import time
from typing import Any

import pytest

from burraco.server.clock import FakeClock

from . import driver
from .conftest import Pages, Server

# The shortest clock a table accepts (60 s, 30 s a line) would run out while the person plays;
# the 5 s turn timer (its minimum) ends the match instead: three automatic plays are a timeout.
HAND_SECONDS = 5
TABLE = {
    "rules": "italian",
    "players": 2,
    "smazzate": 2,
    "round_seconds": 600,
    "hand_seconds": HAND_SECONDS,
    "between_smazzate": 0,
    "public": True,
    "seat": 0,
    "bots": {"1": "heuristic"},
}


def run_out_the_turn_timers(server: Server, table: str, seat: int, times: int) -> None:
    """Each time ``seat`` is on turn with his turn timer waiting, move the server's clock
    through it (the table plays his turn: T13), ``times`` times. The clock moves only here:
    the person's turns in the first smazzata never run out, however busy the machine."""
    running = server.running
    clock = running.clock
    assert isinstance(clock, FakeClock)
    actor = running.hub.tables[table]

    async def timer_on_turn() -> object:
        state = actor.state
        if actor.status != "playing" or state is None or state.is_over or state.current != seat:
            return None
        return actor._timers.get("clock")

    passed: list[object] = []
    deadline = time.monotonic() + 90
    while len(passed) < times:
        timer = running.call(timer_on_turn())
        if clock.waiting(timer) and all(timer is not other for other in passed):
            passed.append(timer)
            clock.advance(HAND_SECONDS)
            continue
        assert time.monotonic() < deadline, f"{len(passed)} of {times} turn timers run out"
        time.sleep(0.01)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


@pytest.mark.seed(2)
@pytest.mark.frozen_clock
def test_a_match_lost_on_time_shows_the_technical_score(pages: Pages, server: Server) -> None:
    page = pages.new()
    driver.guest(page)
    page.wait_for_selector(".lobby-screen")
    me: str = page.evaluate("async () => (await (await fetch('/api/session')).json()).user.name")
    table: str = page.evaluate(
        """async (body) => {
          const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
          if (r.status !== 201) throw new Error(await r.text());
          return (await r.json()).id;
        }""",
        TABLE,
    )
    page.goto(f"/?table={table}")
    page.wait_for_selector(".felt")
    end = driver.play_until_sheet(page)
    assert end["sheet"] == "1" and not end["final"], end
    page.locator('.modal [data-cmd="close-sheet"]').click()
    # Smazzata 2: the person does nothing; the server plays twice for him, then ends the match.
    run_out_the_turn_timers(server, table, 0, times=3)
    final = page.locator(".modal .sheet-box[data-final]")
    final.wait_for(timeout=90_000)
    assert final.get_attribute("data-ended") == "timeout"

    listed: list[dict[str, Any]] = page.evaluate("async () => (await fetch('/api/matches')).json()")
    (match,) = [m for m in listed if m["table"] == table]
    assert match["ended"] == "timeout" and match["winner"] == 1, match
    assert match["smazzate"] == 1, match
    mp, vp = match["mp"], match["vp"]
    assert mp[0] <= -355 and vp == [20 - vp[1], vp[1]] and vp[1] >= 14, match

    # The final screen: who ran out, the technical score by line, the smazzate played.
    # The list stores the bot's name as records do ("Bot Expert"); the page says it in its
    # language.
    assert match["players"][1] == "Bot Expert"
    bot = "Bot Esperto"
    assert final.locator(".final-winner").inner_text() == "Vince Bot Esperto!"  # the table's name
    assert final.locator(".final-reason").inner_text() == (
        f"Il tempo di {me} è scaduto: {me} perde la partita."
    )
    assert final.locator(".final-smazzate").inner_text() == "Smazzate giocate: 1"
    technical = final.locator("table.technical")
    assert "Punteggio tecnico" in technical.locator("caption").inner_text()

    def cells(row: str) -> list[str]:
        return [c.strip() for c in technical.locator(f"tr.{row} td").all_inner_texts()]

    assert cells("technical-mp") == [signed(mp[0]), signed(mp[1])]
    assert cells("technical-vp") == [str(vp[0]), str(vp[1])]
    assert "Nessuna smazzata ancora finita" not in final.inner_text()
    # The smazzata played is still listed, with the totals.
    assert final.locator("table.history tbody tr").count() >= 2

    # The lobby's finished matches: the winner, the line that lost on time, MP and VP.
    page.goto("/")
    row = page.locator(f'.match-list li[data-match="{table}:1"]')
    row.wait_for()
    assert row.get_attribute("data-ended") == "timeout"
    winner = row.locator(".match-line.winner")
    assert winner.count() == 1 and winner.get_attribute("data-line") == "1"
    assert winner.locator(".who").inner_text() == bot
    assert winner.locator(".crown").count() == 1
    assert winner.evaluate("(el) => Number(getComputedStyle(el).fontWeight)") >= 700
    assert winner.locator(".mpvp").inner_text() == f"MP {signed(mp[1])} · VP {vp[1]}"
    loser = row.locator(".match-line.lost")
    assert loser.locator(".who").inner_text() == me
    assert loser.locator(".lost-label").inner_text() == "persa per tempo"
    assert loser.locator(".mpvp").inner_text() == f"MP {signed(mp[0])} · VP {vp[0]}"
    assert loser.locator(".total").inner_text() == str(match["totals"][0])
    facts = row.locator(".match-facts").inner_text()
    assert facts.startswith(f"vince {bot}"), facts
    assert "punteggio tecnico" in facts and "1 smazzata giocata" in facts, facts

    # In English, the same list says "lost on time".
    page.goto("/?lang=en")
    row = page.locator(f'.match-list li[data-match="{table}:1"]')
    row.wait_for()
    assert row.locator(".match-line.lost .lost-label").inner_text() == "lost on time"
    assert row.locator(".match-facts").inner_text().startswith("Bot Expert wins")
