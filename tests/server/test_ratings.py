"""Rated matches on the running server (issue 16): two registered people play a rated match
and their ratings move as OpenSkill computes them from the result, shown in ``match_end``, on
their profiles and on the leaderboard; a person against a bot moves, the bot stays at its
anchor; guests and short matches are refused a rated table; leaving a rated match past the away
deadline loses it and costs the leaver (only) the penalty."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from burraco.ratings import PRESETS

from .harness import Server
from .oracle import check_match
from .support import Api, is_kind, open_table, unique_name
from .test_play import play_match

S = PRESETS["standard"]


def _expected(ranks: list[int]) -> list[float]:
    """Two newcomers' ratings after one match with these places, by OpenSkill directly."""
    model = PlackettLuce(mu=S.mu, sigma=S.sigma, beta=S.beta, tau=S.tau)
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=list[float](ranks))
    return [a.mu, b.mu]


def _get(server: Server, path: str) -> Any:
    with server.client(timeout=30) as http:
        answer = http.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_rated_match_between_two_people_moves_both_ratings(
    play_server: Server, tmp_path: Path
) -> None:
    played = asyncio.run(
        play_match(
            play_server,
            players=2,
            bots={},
            late_sitter=False,
            registered=True,
            smazzate=3,
            rated=True,
        )
    )
    end = played.end
    check_match(play_server, played, tmp_path)
    assert end["ended"] == "complete" and end["winner"] in (0, 1)
    changes = {c["seat"]: c for c in end["rating"]["changes"]}
    ranks = [0, 1] if end["winner"] == 0 else [1, 0]
    expected = _expected(ranks)
    for seat in (0, 1):
        assert changes[seat]["before"] == 1500
        assert changes[seat]["after"] == round(expected[seat])
        assert changes[seat]["result"] == ("win" if seat == end["winner"] else "loss")
    names = {seat: client.user.name for seat, client in played.seats.items()}
    for seat, name in names.items():
        profile = _get(play_server, f"/api/players/{name}")
        (two,) = profile["ratings"]
        assert two["mode"] == "2p" and two["rating"] == round(expected[seat])
        assert two["matches"] == 1 and two["wins"] == (seat == end["winner"])
        (point,) = profile["history"]["2p"]
        assert point["table"] == played.table and point["rating"] == two["rating"]
    board = _get(play_server, "/api/ratings/2p?provisional=true&limit=100")
    listed = [p["name"] for p in board["players"]]
    assert names[end["winner"]] in listed and names[1 - end["winner"]] in listed
    assert listed.index(names[end["winner"]]) < listed.index(names[1 - end["winner"]])
    assert {b["level"]: b["rating"] for b in board["bots"]}["heuristic"] == 1650


def test_a_person_against_a_bot_moves_and_the_bot_stays(play_server: Server) -> None:
    played = asyncio.run(
        play_match(
            play_server, players=2, bots={1: "greedy"}, late_sitter=False, target=300, rated=True
        )
    )
    (change_person, change_bot) = sorted(played.end["rating"]["changes"], key=lambda c: c["seat"])
    assert change_bot["before"] == change_bot["after"] == 1226
    assert change_person["after"] != 1500
    assert (change_person["after"] > 1500) == (played.end["winner"] == 0)


def test_rated_tables_refuse_guests_and_short_matches(play_server: Server) -> None:
    async def scenario() -> None:
        async with Api(play_server) as api:
            guest = await api.guest()
            person = await api.register(unique_name("r"))
            answer = await api.http.post(
                "/api/tables", json={"smazzate": 3, "rated": True}, headers=guest.headers
            )
            assert answer.status_code == 403 and answer.json()["error"] == "guest_not_rated"
            answer = await api.http.post(
                "/api/tables", json={"smazzate": 2, "rated": True}, headers=person.headers
            )
            assert answer.status_code == 422 and "at least 3 smazzate" in answer.json()["message"]
            table = await api.create_table(person, smazzate=3, rated=True)
            answer = await api.http.post(
                f"/api/tables/{table['id']}/sit", json={"seat": 1}, headers=guest.headers
            )
            assert answer.status_code == 403 and answer.json()["error"] == "guest_not_rated"
            after = (await api.http.get(f"/api/tables/{table['id']}")).json()
            assert after["seats"][1]["name"] is None and after["status"] == "open"
            assert after["config"]["rated"] is True and after["config"]["absent"] == "forfeit"
            answer = await api.http.get(f"/api/players/{guest.name}")
            assert answer.status_code == 403 and answer.json()["error"] == "guest_not_rated"

    asyncio.run(scenario())


def test_leaving_a_rated_match_loses_it_and_costs_only_the_leaver(play_server: Server) -> None:
    async def scenario() -> dict[str, Any]:
        played = await open_table(
            play_server, players=2, bots={}, registered=True, smazzate=3, rated=True
        )
        try:
            stayer, leaver = played.seats[0], played.seats[1]
            await leaver.close()  # gone: past the away deadline (1 s here) his line forfeits
            end = await stayer.until(is_kind("match_end"), timeout=30)
        finally:
            await played.close()
        return end

    end = asyncio.run(scenario())
    assert end["ended"] == "forfeit" and end["winner"] == 0
    changes = {c["seat"]: c for c in end["rating"]["changes"]}
    assert changes[1]["result"] == "abandoned" and changes[0]["result"] == "win"
    won, lost = _expected([0, 1])
    assert changes[0]["after"] == round(won)
    assert changes[1]["after"] == round(lost - S.abandon_penalty)


def test_the_profile_counts_the_match_as_it_was_played(play_server: Server) -> None:
    """Profiles (issue 16): the figures of a played match (smazzate, MP, burrachi, pozzetti,
    closings) are those of its score sheets; the history filters and the head-to-head find it."""
    played = asyncio.run(
        play_match(play_server, players=2, bots={}, late_sitter=False, registered=True, smazzate=2)
    )
    end = played.end
    names = {seat: client.user.name for seat, client in played.seats.items()}
    sheets = [m for m in played.spectator.events() if m.get("kind") == "smazzata_end"]
    assert len(sheets) == 2
    for seat, name in names.items():
        profile = _get(play_server, f"/api/players/{name}")
        (stats,) = profile["stats"]
        assert stats["mode"] == "2p" and stats["matches"] == 1 and stats["smazzate"] == 2
        assert stats["wins"] == (1 if end["winner"] == seat else 0)
        lines = [next(x for x in s["score"]["lines"] if seat in x["seats"]) for s in sheets]
        others = [next(x for x in s["score"]["lines"] if seat not in x["seats"]) for s in sheets]
        mp = sum(a["score"] - b["score"] for a, b in zip(lines, others, strict=True))
        assert stats["mp_per_smazzata"] == round(mp / 2, 3)
        closed = sum(s["score"]["closed_by"] == seat for s in sheets)
        assert stats["closing_rate"] == round(closed / 2, 3)
        taken = sum(bool(line["pozzetto"]) for line in lines)
        assert stats["pozzetto_rate"] == round(taken / 2, 3)
        (recent,) = profile["recent"]
        assert recent["table"] == played.table and recent["rated"] is False
        assert recent["players"] == [names[0], names[1]]
    me, other = names[0], names[1]
    mine = _get(play_server, f"/api/players/{me}/matches?versus={other}")
    assert [m["table"] for m in mine["matches"]] == [played.table]
    assert mine["versus"]["played"] == 1 and mine["versus"]["name"] == other
    rated = _get(play_server, f"/api/players/{me}/matches?rated=true")
    assert rated["matches"] == [] and rated["versus"] is None
    wins = _get(play_server, f"/api/players/{me}/matches?result=win&mode=2p")
    assert len(wins["matches"]) == (1 if end["winner"] == 0 else 0)
    # The ruleset filter: the match was played to the Italian rules, not the classic ones.
    italian = _get(play_server, f"/api/players/{me}/matches?rules=italian&mode=2p")
    assert [(m["table"], m["rules"]) for m in italian["matches"]] == [(played.table, "italian")]
    assert _get(play_server, f"/api/players/{me}/matches?rules=classic")["matches"] == []
