"""Players help make the deal (issue 18, part 3; docs/protocol.md, "Fair deals"): each seated
person commits to a random seed before the deal and reveals it after the server's ``shuffle``
(its commitment to its secret S and every seat's commitment, fixed before any seed is seen);
the deck is ``seeded_deck(S, seeds)``. A seat that commits and then stays silent, or whose seed
does not fit its commitment, does not hold the table up: the deal comes within
``seed_reveal_seconds`` without it. Nobody receives S or another seat's seed before the reveal,
and the record's ``[meta] fairness`` keeps it all, checked by ``burraco verify``."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from burraco.cli.main import main
from burraco.engine import find_rules
from burraco.engine.cards import standard_deck
from burraco.engine.fairness import commitment_of, hex_commitment, seeded_deck
from burraco.engine.record import read_record
from burraco.server.config import ServerConfig
from burraco.server.fairness import predictable_source, seeded_deal

from .harness import Server
from .support import Api, TableClient, is_kind, joined, unique_name

Message = dict[str, Any]
WAIT = ServerConfig().seed_reveal_seconds


def _seed() -> tuple[str, str]:
    seed = secrets.token_hex(32)
    return seed, hex_commitment(seed)


async def _commit(client: TableClient, commitment: str) -> None:
    await client.send({"type": "seed_commit", "table": client.table, "commitment": commitment})


async def _reveal(client: TableClient, number: int, seed: str) -> None:
    await client.send(
        {"type": "seed_reveal", "table": client.table, "number": number, "seed": seed}
    )


async def _table(server: Server, api: Api, **settings: Any) -> tuple[str, TableClient, Any]:
    """A table of two people: the creator at seat 0, connected; seat 1 still free."""
    creator = await api.register(unique_name("p"))
    info = await api.create_table(creator, players=2, seat=0, between_smazzate=0.2, **settings)
    a = await joined(TableClient(server, creator, info["id"], seed=5))
    return info["id"], a, await api.guest()


def test_the_seeds_make_the_deck_and_a_silent_or_lying_seat_does_not_stop_the_table(
    play_server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with Api(play_server) as api:
            table, a, guest = await _table(play_server, api, smazzate=3)
            spectator = await joined(TableClient(play_server, await api.guest(), table))
            b = await joined(TableClient(play_server, guest, table, seed=9))
            # Not seated yet: a commitment is refused (not_seated).
            await _commit(b, _seed()[1])
            refused = await b.until(lambda m: m["type"] == "error", errors=True, timeout=5)
            seed_a, sealed_a = _seed()
            await _commit(a, sealed_a)
            await api.sit(guest, table, 1)
            got: dict[str, Any] = {"refused": refused, "deals": []}
            # Deal 1: A committed before it and reveals at once; B could not (not seated).
            shuffle = await a.until(is_kind("shuffle"))
            shuffled_at = time.monotonic()
            await _reveal(a, shuffle["number"], seed_a)
            dealt = await a.until(is_kind("dealt"))
            got["deals"].append(
                {"shuffle": shuffle, "wait": time.monotonic() - shuffled_at, "seeds": [seed_a]}
            )
            # Deal 2: both commit; B then goes silent (never reveals).
            seed_a2, sealed_a2 = _seed()
            seed_b2, sealed_b2 = _seed()
            await _commit(a, sealed_a2)
            await _commit(b, sealed_b2)
            ends = await asyncio.gather(
                a.until(is_kind("smazzata_end"), play=True),
                b.until(is_kind("smazzata_end"), play=True),
            )
            got["end1"] = ends[0]
            shuffle = await a.until(is_kind("shuffle"), play=True)
            shuffled_at = time.monotonic()
            await _reveal(a, shuffle["number"], seed_a2)
            dealt = await a.until(is_kind("dealt"))
            got["deals"].append(
                {"shuffle": shuffle, "wait": time.monotonic() - shuffled_at, "seeds": [seed_a2]}
            )
            # Deal 3: A's reveal does not fit its commitment (ignored); B reveals a seed for a
            # deal that is not being dealt (ignored, no error), then the right one.
            seed_a3, sealed_a3 = _seed()
            seed_b3, sealed_b3 = _seed()
            await _commit(a, sealed_a3)
            await _commit(b, sealed_b3)
            ends = await asyncio.gather(
                a.until(is_kind("smazzata_end"), play=True),
                b.until(is_kind("smazzata_end"), play=True),
            )
            got["end2"] = ends[0]
            shuffle = await b.until(is_kind("shuffle"), play=True)
            shuffled_at = time.monotonic()
            await _reveal(a, shuffle["number"], _seed()[0])
            await _reveal(b, shuffle["number"] + 5, seed_b3)
            await _reveal(b, shuffle["number"], seed_b3)
            dealt = await b.until(is_kind("dealt"))
            got["deals"].append(
                {"shuffle": shuffle, "wait": time.monotonic() - shuffled_at, "seeds": [seed_b3]}
            )
            got["sealed"] = [[sealed_a, None], [sealed_a2, sealed_b2], [sealed_a3, sealed_b3]]
            got["secret_seeds"] = [seed_a, seed_a2, seed_b2, seed_a3, seed_b3]
            ends = await asyncio.gather(a.play(), b.play())
            await spectator.follow()
            got["record"] = await api.record(table)
            got["clients"] = {"a": a, "b": b, "spectator": spectator}
            del dealt
            for client in (a, b, spectator):
                await client.close()
            return got

    got = asyncio.run(scenario())
    assert got["refused"]["code"] == "not_seated"
    record = read_record(got["record"])
    fairness = record.meta["fairness"]
    assert len(fairness) == len(record.hands) == 3
    ends = [got["end1"], got["end2"]]
    for number, (deal, sealed) in enumerate(zip(got["deals"], got["sealed"], strict=True), 1):
        shuffle = deal["shuffle"]
        assert shuffle["number"] == number
        assert shuffle["seed_commitments"] == sealed
        entry = fairness[number - 1]
        secret = entry["salt"]
        assert hex_commitment(secret) == shuffle["secret_commitment"] == entry["secret_commitment"]
        assert entry["seed_commitments"] == [s or "" for s in sealed]
        assert entry["derived"] is True
        deck = record.hands[number - 1].deck
        assert deck is not None
        assert deck == seeded_deck(secret, entry["seeds"], 4)
        assert entry["commitment"] == commitment_of(" ".join(map(str, deck)), secret)
        if number <= 2:
            reveal = ends[number - 1]["reveal"]
            assert reveal["salt"] == secret and reveal["derived"] is True
            assert reveal["seeds"] == [s or None for s in entry["seeds"]]
            assert reveal["seed_commitments"] == sealed
    # Deal 1: A's seed, none for B; A revealed at once, so the deal did not wait.
    assert fairness[0]["seeds"] == [got["deals"][0]["seeds"][0], ""]
    assert got["deals"][0]["wait"] < WAIT
    # Deal 2: B committed and said nothing more: dealt without it, after the wait, no longer.
    assert fairness[1]["seeds"] == [got["deals"][1]["seeds"][0], ""]
    assert WAIT * 0.8 <= got["deals"][1]["wait"] < WAIT + 1.5
    # Deal 3: A's bad seed was left out, B's taken; nobody left to wait for, no full wait.
    assert fairness[2]["seeds"] == ["", got["deals"][2]["seeds"][0]]
    assert got["deals"][2]["wait"] < WAIT
    assert "does not fit its commitment; ignored" in play_server.log_text()

    # Nobody saw S or a seed before the reveal: every message any of them received before a
    # deal's smazzata_end is scanned for that deal's secret and seeds.
    secrets_of = [[fairness[n]["salt"], *[s for s in fairness[n]["seeds"] if s]] for n in range(3)]
    secrets_of[2].append(got["secret_seeds"][3])  # A's lying seed is not in the record
    for name, client in got["clients"].items():
        number = 0
        for session in client.sessions:
            for _, message in session.received:
                text = json.dumps(message)
                if message.get("kind") == "smazzata_end":
                    number += 1
                    continue
                for n in range(number, 3):
                    for hidden in secrets_of[n]:
                        assert hidden not in text, (name, n + 1, message.get("kind"))

    path = tmp_path / "match.toml"
    path.write_text(got["record"], encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "smazzata 2: verified (seeds of seats: 0; missing: 1)" in out, out


def test_a_committed_seat_that_is_not_connected_is_not_waited_for(play_server: Server) -> None:
    """A commits and leaves before the deal: the deal comes at once, without his seed."""

    async def scenario() -> tuple[Message, float]:
        async with Api(play_server) as api:
            table, a, _guest = await _table(play_server, api, smazzate=1)
            await _commit(a, _seed()[1])
            await asyncio.sleep(0.1)
            await a.close()
            spectator = await joined(TableClient(play_server, await api.guest(), table))
            await api.seat_bot(a.user, table, 1, "random")
            shuffle = await spectator.until(is_kind("shuffle"))
            started = time.monotonic()
            await spectator.until(is_kind("dealt"))
            await spectator.close()
            return shuffle, time.monotonic() - started

    shuffle, waited = asyncio.run(scenario())
    assert shuffle["seed_commitments"][0] is not None
    assert shuffle["seed_commitments"][1] is None  # a bot never commits
    assert waited < WAIT / 2


@pytest.mark.parametrize(
    "message",
    [
        {"type": "seed_commit", "table": "t"},
        {"type": "seed_commit", "table": "t", "commitment": "ab"},
        {"type": "seed_commit", "table": "t", "commitment": "G" * 64},
        {"type": "seed_commit", "table": "t", "commitment": 5},
        {"type": "seed_reveal", "table": "t", "number": 1},
        {"type": "seed_reveal", "table": "t", "number": 0, "seed": "a" * 64},
        {"type": "seed_reveal", "table": "t", "number": "1", "seed": "a" * 64},
        {"type": "seed_reveal", "table": "t", "number": 1, "seed": "A" * 64},
    ],
)
def test_bad_seed_messages_are_bad_message(message: Message) -> None:
    from burraco.server.protocol import ProtocolError, decode

    with pytest.raises(ProtocolError) as refused:
        decode(json.dumps(message))
    assert refused.value.code == "bad_message"


def test_the_deck_depends_on_every_seed_and_on_the_secret() -> None:
    rules = find_rules("italian", players=4)
    secret = secrets.token_hex(32)
    seeds = [secrets.token_hex(32) for _ in range(4)]
    deck = seeded_deck(secret, seeds, rules.jokers)
    assert seeded_deck(secret, list(seeds), rules.jokers) == deck  # same seeds, same deck
    assert sorted(deck) == sorted(standard_deck(rules.jokers))
    for seat in range(4):
        other = list(seeds)
        other[seat] = secrets.token_hex(32)
        assert seeded_deck(secret, other, rules.jokers) != deck
        missing: list[str | None] = list(seeds)
        missing[seat] = None
        assert seeded_deck(secret, missing, rules.jokers) != deck
    assert seeded_deck(secrets.token_hex(32), seeds, rules.jokers) != deck
    made = seeded_deal(rules, secret, [hex_commitment(s) for s in seeds], seeds, test=None)
    assert made.deck == deck and made.salt == secret
    assert made.seeding is not None and made.seeding.derived


def test_a_test_server_exchanges_seeds_but_its_decks_do_not_depend_on_them() -> None:
    """``--test-seed``: browser tests need the same deals every run."""
    rules = find_rules("italian", players=2)
    secret = secrets.token_hex(32)
    seeds = [secrets.token_hex(32), None]
    test = predictable_source(7)
    made = seeded_deal(rules, secret, [hex_commitment(seeds[0] or ""), None], seeds, test=test)
    assert made.seeding is not None and not made.seeding.derived
    assert made.commitment == commitment_of(" ".join(map(str, made.deck)), secret)
    assert made.seeding.to_json()["seeds"] == [seeds[0], ""]


def test_seed_messages_travel_between_cluster_processes() -> None:
    """With several processes a client's message reaches the table's process as JSON (docs/
    cluster.md): the seed messages come back as they left."""
    from burraco.server import protocol
    from burraco.server.cluster.node import _MESSAGES, message_json

    for message in (
        protocol.SeedCommit("abc", "a" * 64),
        protocol.SeedReveal("abc", 2, "b" * 64),
    ):
        sent = json.loads(json.dumps(message_json(message)))
        kind = sent.pop("type")
        assert _MESSAGES[kind](**sent) == message


def test_a_player_who_leaves_during_the_wait_is_waited_for_no_longer(play_server: Server) -> None:
    async def scenario() -> tuple[Message, Message, float]:
        async with Api(play_server) as api:
            table, a, _guest = await _table(play_server, api, smazzate=1)
            await _commit(a, _seed()[1])
            spectator = await joined(TableClient(play_server, await api.guest(), table))
            await api.seat_bot(a.user, table, 1, "random")
            shuffle = await a.until(is_kind("shuffle"))
            started = time.monotonic()
            await a.close()
            dealt = await spectator.until(is_kind("dealt"))
            waited = time.monotonic() - started
            await spectator.close()
            return shuffle, dealt, waited

    shuffle, dealt, waited = asyncio.run(scenario())
    assert shuffle["seed_commitments"][0] is not None
    assert dealt["number"] == 1
    assert waited < WAIT * 0.7, waited


def test_each_test_server_has_its_own_predictable_deals() -> None:
    """Two servers with one ``--test-seed`` in one process (threads of a test run) deal the
    same decks, whatever the other one draws meanwhile: the source is the server's, not the
    process's."""
    rules = find_rules("italian", players=2)
    first, second = predictable_source(3), predictable_source(3)
    assert first is not None and second is not None and first is not second
    alone = [seeded_deal(rules, "s", [None, None], [None, None], test=first).deck for _ in "ab"]
    seeded_deal(rules, "s", [None, None], [None, None], test=predictable_source(9))
    interleaved = seeded_deal(rules, "s", [None, None], [None, None], test=second).deck
    assert interleaved == alone[0] != alone[1]
    assert predictable_source(None) is None
