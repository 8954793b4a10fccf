"""The game log keeps up with a long match (issue 15, defect 2).

The page keeps the last LOG_SIZE entries of the log (tablemodel.js); once the log is full its
length no longer changes, and a side panel redrawn only when the length changes showed the same
entries for the rest of the match. Here a person watches two bots play (the fastest honest way
to 200 actions: nobody waits for clicks) with the log tab open, and the log is compared, after
200 actions, with what the server itself sent and recorded."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from . import driver
from .conftest import Pages, Server

LOG_SIZE = 120
"""The entries the page keeps (tablemodel.js)."""
ACTIONS = 200
"""Actions the server must have played before the log is checked (the issue's number)."""
WEB = Path(__file__).resolve().parents[2] / "src" / "burraco" / "web"
TEXTS: dict[str, str] = json.loads((WEB / "i18n" / "it.json").read_text(encoding="utf-8"))
BOTS = {0: "heuristic", 1: "greedy"}
"""Two levels, so that the log's names tell the two seats apart."""

SAMPLE_JS = """() => {
  // One render writes the table's event number and the side panel: read both at once.
  const root = document.querySelector('.table-screen');
  const entries = [...document.querySelectorAll('.side .log-list li')].map((li) => li.textContent);
  return { seq: Number(root.dataset.seq), entries };
}"""


class Spectator:
    """The server's own account of the table: a second connection, not the page's, that
    watches it from its first event on and keeps every event by its number."""

    def __init__(self, server: Server, token: str, table: str) -> None:
        url = server.url.replace("http://", "ws://") + "/ws"
        self.stack = contextlib.ExitStack()  # websockets wants its connect() entered
        self.socket = self.stack.enter_context(
            connect(url, additional_headers={"Authorization": f"Bearer {token}"}, proxy=None)
        )
        self.events: dict[int, dict[str, Any]] = {}
        self.lock = threading.Lock()
        # last_seq 0: every event of the table from its first (it has not started yet).
        self.socket.send(json.dumps({"type": "join", "table": table, "last_seq": 0}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            for text in self.socket:
                message = json.loads(text)
                if message.get("type") == "event":
                    with self.lock:
                        self.events[message["seq"]] = message

    def actions(self) -> list[dict[str, Any]]:
        with self.lock:
            return [e for _, e in sorted(self.events.items()) if e["kind"] == "action"]

    def wait(self, found: Any, what: str, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                answer = found(self.events)
            if answer is not None:
                return answer
            time.sleep(0.02)
        raise AssertionError(f"the server sent no {what} in {timeout} s")

    def close(self) -> None:
        self.stack.close()
        self.thread.join(timeout=5)


def card_text(code: str) -> str:
    """cards.js cardText: rank and suit sign, a joker is a star."""
    if code == "JK":
        return "★"
    return code[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[-1]]


def say(key: str, **values: Any) -> str:
    text = TEXTS[key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def action_text(event: dict[str, Any]) -> str:
    """What the log must say of an action event, worded independently of play.js: who did
    what, with the cards a spectator may see."""
    parts = []
    for e in event["events"]:
        who = say("seat.bot", level=TEXTS[f"bot.{BOTS[e['seat']]}"]) if "seat" in e else ""
        cards = " ".join(card_text(c) for c in e.get("cards", []))
        if e["e"] == "drew":
            card = e.get("card")
            parts.append(
                say("log.drew.card", name=who, card=card_text(card))
                if card
                else say("log.drew", name=who)
            )
        elif e["e"] == "picked_up":
            parts.append(say("log.picked_up", name=who, cards=cards))
        elif e["e"] == "opened":
            meld = " ".join(card_text(c) for c in e["meld"]["cards"])
            parts.append(say("log.opened", name=who, cards=meld))
        elif e["e"] == "attached":
            parts.append(say("log.attached", name=who, cards=cards, n=e["meld"]["number"]))
        elif e["e"] == "discarded":
            parts.append(say("log.discarded", name=who, card=card_text(e["card"])))
        elif e["e"] == "pozzetto":
            key = "log.pozzetto.direct" if e.get("direct") else "log.pozzetto.discard"
            parts.append(say(key, name=who))
        elif e["e"] == "ended":
            parts.append(say(f"log.ended.{e['reason']}"))
    if not parts:
        parts.append(event["action"])
    if event["auto"]:
        parts.append(say("log.auto"))
    return " · ".join(parts)


@pytest.mark.seed(4)
def test_the_log_shows_the_last_action_after_two_hundred(pages: Pages, server: Server) -> None:
    started = time.monotonic()
    # Someone opens a table for two bots (the lobby's API: no seat for the creator), with one
    # bot seated for now, and follows it with a connection of their own: the server's account.
    with httpx.Client(trust_env=False, timeout=30) as anonymous:
        token = anonymous.post(f"{server.url}/api/guest").json()["token"]
    api = server.client(base_url=server.url, token=token)
    made = api.post(
        "/api/tables",
        json={
            "players": 2,
            "smazzate": 3,
            "between_smazzate": 0.5,
            "seat": None,
            "bots": {"0": BOTS[0]},
        },
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    spectator = Spectator(server, token, table)
    try:
        # A person watches it from the lobby and opens the log tab of the side panel (before
        # the bots play: the panel is redrawn at each of their actions).
        page = pages.new()
        driver.guest(page)
        row = page.locator(f'.table-list [data-table="{table}"]')
        row.wait_for()
        row.get_by_role("button", name="Guarda").click()
        page.locator('.side-tab[data-tab="log"]').click()
        page.wait_for_selector('.side-tab[data-tab="log"][aria-selected="true"]')
        # The second bot sits: the match starts, at 0.05 s an action.
        seated = api.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": BOTS[1]})
        assert seated.status_code == 200, seated.text
        page.wait_for_selector(".felt")

        # Two looks at the log once the server has played ACTIONS actions, the second at
        # least 20 actions later; each at an action event (not at a deal or a score sheet).
        samples: list[tuple[int, dict[str, Any], list[str]]] = []
        deadline = time.monotonic() + 60
        while len(samples) < 2:
            assert time.monotonic() < deadline, f"no look at the log after 60 s: {samples}"
            page.wait_for_timeout(100)
            now = page.evaluate(SAMPLE_JS)
            seq = now["seq"]
            event = spectator.wait(lambda events, seq=seq: events.get(seq), f"event {seq}", 5)
            if event["kind"] != "action":
                continue
            numbers = [e["seq"] for e in spectator.actions()]
            index = numbers.index(event["seq"]) + 1  # this action's number in the match
            if index >= ACTIONS and (not samples or index >= samples[-1][0] + 20):
                samples.append((index, event, now["entries"]))

        for index, event, entries in samples:
            # Capped as designed: the last LOG_SIZE entries ...
            assert len(entries) == LOG_SIZE, (index, len(entries))
            # ... ending with the last action the server played (who and what).
            assert entries[-1] == action_text(event), (index, event["action"], entries[-3:])
        # Still advancing: the window moved on between the two looks.
        (_, _, before), (_, _, after) = samples
        assert before != after

        # The server's record of the match has the same actions in the same order: what the
        # log showed was the server's 200th-and-later action as it recorded it.
        spectator.wait(
            lambda events: any(e["kind"] == "match_end" for e in events.values()) or None,
            "match_end",
            60,
        )
        answer = api.get(f"/api/tables/{table}/record", params={"match": 1})
        assert answer.status_code == 200, answer.text
        recorded = [a for hand in tomllib.loads(answer.text)["hands"] for a in hand["actions"]]
        with spectator.lock:
            numbers = sorted(spectator.events)
        assert numbers == list(range(1, numbers[-1] + 1)), "the spectator missed events"
        sent = [e["action"] for e in spectator.actions()]
        assert sent == recorded, (len(sent), len(recorded))
        for index, event, _ in samples:
            assert recorded[index - 1] == event["action"]
    finally:
        spectator.close()
    assert time.monotonic() - started < 90
