"""The guided first game (issue 15, "Learning the game"): ``POST /api/lessons`` seats the
caller first against the easy bot, on the lesson's teaching deal, committed like any other."""

from __future__ import annotations

import hashlib
from pathlib import Path

from burraco.engine.cards import parse_cards
from burraco.server.lesson import LESSON_DECK

from .inprocess import app_server


def test_a_lesson_is_a_private_smazzata_on_the_teaching_deal(tmp_path: Path) -> None:
    with app_server(tmp_path, bot_delay=0.0) as server:
        token, user = server.guest()
        with server.client(token) as http:
            made = http.post("/api/lessons")
            assert made.status_code == 201, made.text
            info = made.json()
            assert http.get("/api/tables").json() == []  # never listed
        assert info["config"]["lesson"] is True and info["status"] == "playing"
        assert (info["config"]["players"], info["config"]["smazzate"]) == (2, 1)
        assert info["seats"][0]["name"] == user["name"] and info["seats"][1]["bot"] == "greedy"
        with server.peer(token) as peer:
            snapshot = peer.join(info["id"])
        view = snapshot["view"]
        deck = [str(c) for c in parse_cards(LESSON_DECK)]
        # R8 with the learner first: he holds d[0], d[2], ..., d[20]; d[22] is the discard (R9).
        assert sorted(view["hand"]) == sorted(deck[0:22:2])
        assert {"5C", "6C", "7C", "AD", "AH", "AS", "JK"} <= set(view["hand"])
        assert view["current"] == 0 and snapshot["legal"] is not None
        commitment = snapshot["commitment"]
        assert isinstance(commitment, str) and len(commitment) == 64
        assert commitment != hashlib.sha256(LESSON_DECK.encode()).hexdigest()  # salted
