"""Every deal is verified by the browser itself at its reveal (issue 18, part 3): two people
watch the same table of two bots; the server's ``smazzata_end`` reaches one of them with its
deck tampered (one card moved, the frame rewritten on its way by Playwright's WebSocket route).
That page shows a loud warning in the score sheet, a notice and the game log; the other one,
which got the frame as sent, shows the deal verified, in the sheet and in the log."""

from __future__ import annotations

import json
import re

import httpx
from playwright.sync_api import Page, WebSocketRoute

from . import driver
from .conftest import Pages, Server


def tamper_reveals(page: Page) -> list[str]:
    """Rewrite every ``smazzata_end`` the page receives: the revealed deck's first two
    different cards change places (still a whole deck: only the commitment can tell)."""
    tampered: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "event" and data.get("kind") == "smazzata_end":
                cards = data["reveal"]["deck"].split(" ")
                i = next(i for i, c in enumerate(cards) if c != cards[0])
                cards[0], cards[i] = cards[i], cards[0]
                data["reveal"]["deck"] = " ".join(cards)
                tampered.append(data["reveal"]["deck"])
                message = json.dumps(data)
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    return tampered


def watch(page: Page, table: str) -> None:
    driver.guest(page)
    row = page.locator(f'.table-list [data-table="{table}"]')
    row.wait_for()
    row.get_by_role("button", name="Guarda").click()
    page.wait_for_selector(".table-screen")


def test_the_browser_verifies_each_deal_and_warns_of_a_tampered_reveal(
    pages: Pages, server: Server
) -> None:
    with httpx.Client(trust_env=False, timeout=30) as anonymous:
        token = anonymous.post(f"{server.url}/api/guest").json()["token"]
    api = server.client(base_url=server.url, token=token)
    made = api.post(
        "/api/tables",
        json={
            "players": 2,
            "smazzate": 2,
            "between_smazzate": 60,
            "seat": None,
            "bots": {"0": "greedy"},
        },
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    honest, fooled = pages.new(), pages.new()
    tampered = tamper_reveals(fooled)
    watch(honest, table)
    watch(fooled, table)
    seated = api.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": "greedy"})
    assert seated.status_code == 200, seated.text

    sheet = ".modal .sheet-box[data-sheet='1']"
    honest.wait_for_selector(sheet, timeout=90000)
    fooled.wait_for_selector(sheet, timeout=30000)
    assert len(tampered) == 1

    ok = honest.locator(f"{sheet} [data-fair='verified']")
    assert ok.count() == 1
    assert "Smazzata 1 verificata" in ok.inner_text()
    assert honest.locator("[data-fair='tampered']").count() == 0

    alarm = fooled.locator(f"{sheet} [data-fair='tampered'][role='alert']")
    assert alarm.count() == 1
    words = alarm.inner_text()
    assert "ATTENZIONE: la smazzata 1 NON è verificata" in words
    assert "Il mazzo e il sale rivelati non danno l'impegno ricevuto." in words
    assert fooled.locator("[data-fair='verified']").count() == 0
    assert "NON è verificata" in fooled.locator(".notice.error").inner_text()

    # The game log says it too, quietly or loudly.
    for page, text in ((honest, "Smazzata 1 verificata."), (fooled, "ATTENZIONE: smazzata 1 NON")):
        page.locator(f"{sheet} [data-cmd='close-sheet']").click()
        page.locator('.side-tab[data-tab="log"]').click()
        entry = page.locator(".side .log-list li.log-fair")
        entry.wait_for()
        assert text in entry.inner_text()
    assert fooled.locator(".side .log-list li.log-fair-tampered").count() == 1
    assert honest.locator(".side .log-list li.log-fair-verified").count() == 1


def test_a_seated_players_seed_goes_into_the_deal_and_the_sheet_says_so(
    pages: Pages, server: Server
) -> None:
    """The page commits to a seed as soon as it follows its table, reveals it at the
    ``shuffle``, and the reveal lists it; on this test server (``--test-seed``) the seeds are
    exchanged and checked but do not decide the deck, and the sheet says that too."""
    with httpx.Client(trust_env=False, timeout=30) as anonymous:
        token = anonymous.post(f"{server.url}/api/guest").json()["token"]
    api = server.client(base_url=server.url, token=token)
    made = api.post("/api/tables", json={"players": 2, "smazzate": 2, "seat": 0})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    page = pages.new()
    page.context.add_cookies([{"name": "burraco_session", "value": token, "url": server.url}])
    sent: list[dict[str, object]] = []
    received: list[dict[str, object]] = []

    def route(ws: WebSocketRoute) -> None:
        server_side = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server_side.send(message)

        def from_server(message: str | bytes) -> None:
            received.append(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        server_side.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws$"), route)
    page.goto(f"/?table={table}")
    page.wait_for_selector(".table-screen")
    deadline = 50
    while not any(m.get("type") == "seed_commit" for m in sent) and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    commits = [m for m in sent if m.get("type") == "seed_commit"]
    assert commits, sent
    seated = api.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": "greedy"})
    assert seated.status_code == 200, seated.text
    end = driver.play_until_sheet(page)
    assert end["sheet"] == "1", end
    shuffle = next(m for m in received if m.get("kind") == "shuffle")
    reveal_sent = next(m for m in sent if m.get("type") == "seed_reveal")
    assert shuffle["seed_commitments"] == [commits[-1]["commitment"], None]
    assert reveal_sent["number"] == 1
    smazzata_end = next(m for m in received if m.get("kind") == "smazzata_end")
    reveal = smazzata_end["reveal"]
    assert isinstance(reveal, dict)
    assert reveal["seeds"] == [reveal_sent["seed"], None]
    assert reveal["derived"] is False
    box = page.locator(".modal .sheet-box[data-sheet='1']")
    assert box.locator("[data-fair='verified']").count() == 1
    box.locator(".fairness summary").click()
    text = box.locator(".fairness").inner_text()
    assert "Semi dei giocatori nel mazzo: " in text
    assert "mancanti: Bot" in text, text
    assert "i semi sono verificati ma non decidono il mazzo" in text
    # After the reveal the page has committed to a new seed, for the next deal.
    assert sent.index(reveal_sent) < max(
        i for i, m in enumerate(sent) if m.get("type") == "seed_commit"
    )
