"""The browser's fair-deal checks (js/fairdeal.js) compute what the server's do
(engine/fairness.py): its plain-JavaScript SHA-256 against known vectors, Python's hashlib and
Node's WebCrypto; its commitments and its seeded deck against the Python ones on fixed and random
vectors; and ``checkReveal`` on an honest reveal and on tampered ones. Run with Node.js (as the
syntax check is), no browser needed."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from burraco.engine.fairness import commitment_of, deck_text, hex_commitment, seeded_deck

MODULE = Path(__file__).resolve().parents[2] / "src" / "burraco" / "web" / "js" / "fairdeal.js"

SCRIPT = """
import * as f from %(module)s;
import { webcrypto } from "node:crypto";
const cases = JSON.parse(process.argv[2]);
const out = {hashes: [], subtle: [], commitments: [], decks: [], checks: []};
for (const text of cases.texts) {
  out.hashes.push(f.sha256Hex(text));
  const digest = await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  out.subtle.push(f.toHex(new Uint8Array(digest)));
}
for (const [deck, salt] of cases.commitments) out.commitments.push(f.commitmentOf(deck, salt));
for (const [secret, seeds, jokers] of cases.decks) {
  out.decks.push(f.seededDeck(secret, seeds, jokers).join(" "));
}
for (const [kept, reveal] of cases.checks) out.checks.push(f.checkReveal(kept, reveal));
const seed = f.newSeed();
out.seed = [seed.seed, seed.commitment];
console.log(JSON.stringify(out));
"""

KNOWN = {
    "": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
}


def run_js(cases: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None, "node is missing (apt-get install -y nodejs npm)"
    script = tmp_path / "check.mjs"
    script.write_text(SCRIPT % {"module": json.dumps(MODULE.as_uri())}, encoding="utf-8")
    done = subprocess.run(
        [node, str(script), json.dumps(cases)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _hex(rng: random.Random) -> str:
    return rng.randbytes(32).hex()


def test_the_javascript_agrees_with_python(tmp_path: Path) -> None:
    rng = random.Random(18)
    # Lengths around the block boundaries (55, 56, 63, 64 bytes), multi-block and non-ASCII.
    texts = [*KNOWN, *("x" * n for n in (1, 55, 56, 57, 63, 64, 65, 119, 120, 1000)), "àè♠ JK"]
    commitments = [("AC 2C JK 10H", "00ff"), ("", ""), ("QS QS", _hex(rng))]
    decks: list[tuple[str, list[str], int]] = [
        ("0" * 64, ["", ""], 4),
        ("f" * 64, ["1" * 64, "", "2" * 64, ""], 4),
        ("a" * 64, ["b" * 64, "c" * 64, "d" * 64], 0),
    ]
    for players in (2, 3, 4):
        for _ in range(3):
            seeds = [_hex(rng) if rng.random() < 0.7 else "" for _ in range(players)]
            decks.append((_hex(rng), seeds, rng.choice([0, 2, 4])))
    out = run_js(
        {"texts": texts, "commitments": commitments, "decks": decks, "checks": []}, tmp_path
    )
    assert out["hashes"] == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    assert out["hashes"] == out["subtle"]
    for text, digest in KNOWN.items():
        assert out["hashes"][texts.index(text)] == digest
    assert out["commitments"] == [commitment_of(d, s) for d, s in commitments]
    assert out["decks"] == [deck_text(seeded_deck(s, seeds, j)) for s, seeds, j in decks]
    seed, sealed = out["seed"]
    assert len(seed) == 64 and sealed == hex_commitment(seed)


def _reveal(rng: random.Random, *, seeded: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    secret = _hex(rng)
    seeds = [_hex(rng), ""]
    deck = deck_text(seeded_deck(secret, seeds, 4))
    commitment = commitment_of(deck, secret)
    reveal: dict[str, Any] = {"deck": deck, "salt": secret, "commitment": commitment}
    kept: dict[str, Any] = {"commitment": commitment}
    if seeded:
        reveal |= {
            "secret_commitment": hex_commitment(secret),
            "seed_commitments": [hex_commitment(seeds[0]), ""],
            "seeds": seeds,
            "derived": True,
        }
        kept |= {
            "secretCommitment": hex_commitment(secret),
            "seedCommitments": [hex_commitment(seeds[0]), ""],
            "mySeat": 0,
            "mySeed": seeds[0],
        }
    return kept, reveal


def test_check_reveal_finds_every_tampering(tmp_path: Path) -> None:
    rng = random.Random(3)
    plain_kept, plain = _reveal(rng, seeded=False)
    kept, seeded = _reveal(rng, seeded=True)
    cards = plain["deck"].split(" ")
    i = next(i for i, c in enumerate(cards) if c != cards[0])
    cards[0], cards[i] = cards[i], cards[0]
    swapped = " ".join(cards)
    other = _hex(rng)
    cases = [
        (plain_kept, plain),
        (kept, seeded),
        (plain_kept, {**plain, "deck": swapped}),
        (plain_kept, {**plain, "salt": other}),
        ({"commitment": other}, plain),
        (kept, {**seeded, "seeds": [other, ""]}),
        ({**kept, "secretCommitment": other}, seeded),
        # A deck that fits its commitment but not the seeds: the server chose it.
        (
            kept,
            {
                **seeded,
                "deck": swapped,
                "commitment": commitment_of(swapped, seeded["salt"]),
            },
        ),
        (None, plain),
    ]
    out = run_js({"texts": [], "commitments": [], "decks": [], "checks": cases}, tmp_path)
    statuses = [c["status"] for c in out["checks"]]
    assert statuses == ["verified", "verified", *["tampered"] * 6, "unchecked"]
    assert out["checks"][1]["missing"] == [1]
    assert "seed_commitment" in out["checks"][5]["problems"]
    assert "own_seed" in out["checks"][5]["problems"]
    assert out["checks"][6]["problems"] == ["secret_commitment"]
    assert "seeded_deck" in out["checks"][7]["problems"]
