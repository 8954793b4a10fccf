"""``burraco verify RECORD`` (docs/protocol.md, "Fair deals"): every smazzata of a record's
``[meta] fairness`` is checked, with exit statuses as ``burraco replay``'s: 0 verified, 1 a check
failed (a tampered deck, salt, commitment, secret or seed), 2 unreadable or invalid input."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from burraco.cli.main import main
from burraco.engine import find_rules
from burraco.engine.cards import standard_deck
from burraco.engine.fairness import commitment_of, deck_text, hex_commitment, seeded_deck
from burraco.engine.record import HandRecord, Record, write_record


def _seeded_entry(
    hand: int, players: int, jokers: int, missing: tuple[int, ...] = ()
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    secret = secrets.token_hex(32)
    seeds = ["" if seat in missing else secrets.token_hex(32) for seat in range(players)]
    deck = seeded_deck(secret, seeds, jokers)
    entry = {
        "hand": hand,
        "commitment": commitment_of(deck_text(deck), secret),
        "salt": secret,
        "secret_commitment": hex_commitment(secret),
        "seed_commitments": [hex_commitment(s) if s else "" for s in seeds],
        "seeds": seeds,
        "derived": True,
    }
    return entry, deck


def _plain_entry(hand: int, jokers: int) -> tuple[dict[str, Any], tuple[Any, ...]]:
    deck = standard_deck(jokers)
    secrets.SystemRandom().shuffle(deck)
    salt = secrets.token_hex(16)
    return {"hand": hand, "commitment": commitment_of(deck_text(deck), salt), "salt": salt}, tuple(
        deck
    )


def make_record(players: int = 2) -> Record:
    """Three smazzate: an old-style deal (deck and salt), a seeded one, a seeded one with a
    seat whose seed is missing."""
    jokers = find_rules("italian", players=players).jokers
    first, deck1 = _plain_entry(1, jokers)
    second, deck2 = _seeded_entry(2, players, jokers)
    third, deck3 = _seeded_entry(3, players, jokers, missing=(1,))
    hands = tuple(HandRecord(i % players, (), deck) for i, deck in enumerate((deck1, deck2, deck3)))
    names = tuple(f"p{i}" for i in range(players))
    return Record("italian", names, hands, {}, {"site": "test", "fairness": [first, second, third]})


def verify(
    tmp_path: Path, record: Record | str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    path = tmp_path / "match.toml"
    path.write_text(record if isinstance(record, str) else write_record(record), encoding="utf-8")
    capsys.readouterr()
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_honest_record_is_verified(
    players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = verify(tmp_path, make_record(players), capsys)
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0] == "smazzata 1: verified"
    assert lines[1].startswith("smazzata 2: verified (seeds of seats: ")
    assert lines[2].endswith("; missing: 1)")


def _tamper(record: Record, number: int, **changes: Any) -> Record:
    fairness = [dict(e) for e in record.meta["fairness"]]
    fairness[number - 1].update(changes)
    return replace(record, meta={**record.meta, "fairness": fairness})


def _swap_deck(record: Record, number: int) -> Record:
    hands = list(record.hands)
    deck = list(hands[number - 1].deck or ())
    i = next(i for i in range(1, len(deck)) if deck[i] != deck[0])
    deck[0], deck[i] = deck[i], deck[0]
    hands[number - 1] = replace(hands[number - 1], deck=tuple(deck))
    return replace(record, hands=tuple(hands))


def _other_hex(value: str) -> str:
    return ("0" if value[0] != "0" else "1") + value[1:]


CASES: dict[str, tuple[int, str, Callable[[Record], Record]]] = {
    "plain deck": (1, "commitment", lambda r: _swap_deck(r, 1)),
    "plain salt": (
        1,
        "commitment",
        lambda r: _tamper(r, 1, salt=_other_hex(r.meta["fairness"][0]["salt"])),
    ),
    "plain commitment": (
        1,
        "commitment",
        lambda r: _tamper(r, 1, commitment=_other_hex(r.meta["fairness"][0]["commitment"])),
    ),
    "seeded deck": (2, "commitment", lambda r: _swap_deck(r, 2)),
    "seeded secret": (
        2,
        "secret",
        lambda r: _tamper(
            r, 2, secret_commitment=_other_hex(r.meta["fairness"][1]["secret_commitment"])
        ),
    ),
    "seeded seed": (
        2,
        "seed",
        lambda r: _tamper(
            r,
            2,
            seeds=[
                _other_hex(r.meta["fairness"][1]["seeds"][0]),
                r.meta["fairness"][1]["seeds"][1],
            ],
        ),
    ),
    "seed commitment": (
        2,
        "seed",
        lambda r: _tamper(
            r,
            2,
            seed_commitments=[
                r.meta["fairness"][1]["seed_commitments"][0],
                _other_hex(r.meta["fairness"][1]["seed_commitments"][1]),
            ],
        ),
    ),
    "a missing seed said used": (
        3,
        "seed",
        lambda r: _tamper(r, 3, seeds=[r.meta["fairness"][2]["seeds"][0], secrets.token_hex(32)]),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tampered_record_fails(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    number, word, tamper = CASES[case]
    code, out, err = verify(tmp_path, tamper(make_record()), capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[number - 1].startswith(f"smazzata {number}: NOT VERIFIED: ")
    assert word in lines[number - 1]
    assert [i for i, line in enumerate(lines) if "NOT VERIFIED" in line] == [number - 1]
    assert err.count("\n") == 1
    assert f"smazzata {number} is not verified" in err


def test_a_seed_that_changes_the_deck_fails_even_when_its_commitment_is_redone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Consistent commitments are not enough: the deck must be the one the seeds give."""
    record = make_record()
    entry = record.meta["fairness"][1]
    seed = secrets.token_hex(32)
    tampered = _tamper(
        record,
        2,
        seeds=[seed, entry["seeds"][1]],
        seed_commitments=[hex_commitment(seed), entry["seed_commitments"][1]],
    )
    code, out, _ = verify(tmp_path, tampered, capsys)
    assert code == 1
    assert "the deck is not the one the secret and the seeds give" in out.splitlines()[1]


def test_a_deal_where_seeds_did_not_count_is_verified_and_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = make_record()
    hands = list(record.hands)
    plain = hands[0].deck
    assert plain is not None
    entry = dict(record.meta["fairness"][1])
    entry.update(derived=False, commitment=commitment_of(deck_text(plain), entry["salt"]))
    hands[1] = replace(hands[1], deck=plain)
    fairness = [record.meta["fairness"][0], entry, record.meta["fairness"][2]]
    record = replace(record, hands=tuple(hands), meta={"fairness": fairness})
    code, out, _ = verify(tmp_path, record, capsys)
    assert code == 0
    assert "did not decide this deck" in out.splitlines()[1]
    # The same deal said to be derived from the seeds is a failure.
    entry["derived"] = True
    code, _, _ = verify(tmp_path, record, capsys)
    assert code == 1


def test_a_hand_without_an_entry_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = make_record()
    record = replace(record, meta={"fairness": list(record.meta["fairness"][:2])})
    code, out, _ = verify(tmp_path, record, capsys)
    assert code == 1
    assert (
        out.splitlines()[2] == "smazzata 3: NOT VERIFIED: no fairness entry: nothing was committed"
    )


@pytest.mark.parametrize(
    "fairness",
    [
        "x",
        [1],
        [{"commitment": "a", "salt": "b"}],
        [{"hand": 1, "commitment": 3, "salt": "b"}],
        [{"hand": 1, "commitment": "a", "salt": "b"}, {"hand": 1, "commitment": "a", "salt": "b"}],
        [{"hand": 1, "commitment": "a", "salt": "b", "secret_commitment": "c", "seeds": ["x"]}],
    ],
)
def test_a_malformed_fairness_is_exit_2(
    fairness: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = replace(make_record(), meta={"fairness": fairness})
    code, out, err = verify(tmp_path, record, capsys)
    assert (code, out) == (2, "")
    assert "malformed" in err and err.count("\n") == 1


def test_unreadable_input_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert verify(tmp_path, "format = 3\n", capsys)[0] == 2
    no_meta = replace(make_record(), meta={})
    code, out, err = verify(tmp_path, no_meta, capsys)
    assert (code, out) == (2, "")
    assert "no [meta] fairness" in err
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "absent.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_still_reads_a_record_with_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The new keys live in [meta], which the record format leaves free."""
    record = make_record()
    seeded = {**record.meta["fairness"][1], "hand": 1}
    record = replace(record, hands=record.hands[1:2], meta={"fairness": [seeded]})
    path = tmp_path / "m.toml"
    path.write_text(write_record(record), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "--json", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
