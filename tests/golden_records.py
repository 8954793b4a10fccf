"""The golden records of tests/data/records and what replaying them must give.

The expected scores of the hand-written records were computed by hand from RULES.md R59/R60 (the
arithmetic is in the comment at the top of each file) and are the ``result`` of their hands, so
the files check themselves too. ``classic-target-2005.toml`` was written by
tests/data/make_classic_target.py; its expected values are the engine's, checked here only by
adding them up (its comment lists the running totals).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

RECORDS = Path(__file__).parent / "data" / "records"

LINE_KEYS = (
    "seats",
    "melds",
    "burraco_bonus",
    "closing_bonus",
    "hand",
    "pozzetto_penalty",
    "score",
)


def line(seats: list[int], parts: tuple[int, int, int, int, int], score: int) -> dict[str, Any]:
    """One line of the JSON: ``parts`` are melds, burraco_bonus, closing_bonus, hand and
    pozzetto_penalty; the score written by hand must be their sum (R60)."""
    assert sum(parts) == score
    return dict(zip(LINE_KEYS, (seats, *parts, score), strict=True))


def _two(
    players: list[str], rules: str, hands: list[dict[str, Any]], totals: list[int]
) -> dict[str, Any]:
    return {
        "format": "burraco-record/1",
        "rules": rules,
        "players": players,
        "hands": hands,
        "totals": totals,
    }


AB = ["Anna", "Bruno"]
ABCD = ["Anna", "Bruno", "Carla", "Dario"]

GOLDEN: dict[str, dict[str, Any]] = {
    # X1-like closing: Anna 600 (clean + dirty burraco, closing), Bruno -160 (no pozzetto).
    "closing-clean-dirty.toml": _two(
        AB,
        "italian",
        [
            {
                "ended": "closing",
                "closed_by": 0,
                "lines": [
                    line([0], (200, 300, 100, 0, 0), 600),
                    line([1], (15, 0, 0, -75, -100), -160),
                ],
            }
        ],
        [600, -160],
    ),
    # Stock exhaustion; Anna took P1 in diretta, Bruno never took a pozzetto.
    "stock-end-no-pozzetto.toml": _two(
        AB,
        "italian",
        [
            {
                "ended": "stock",
                "closed_by": None,
                "lines": [
                    line([0], (170, 200, 0, -45, 0), 325),
                    line([1], (30, 0, 0, -80, -100), -150),
                ],
            }
        ],
        [325, -150],
    ),
    # X4: Anna's pozzetto taken con scarto and never played counts in her hand (hand_cards).
    "unplayed-pozzetto.toml": _two(
        AB,
        "italian",
        [
            {
                "ended": "closing",
                "closed_by": 1,
                "lines": [
                    line([0], (110, 0, 0, -125, 0), -15),
                    line([1], (175, 200, 100, 0, 0), 475),
                ],
            }
        ],
        [-15, 475],
    ),
    # The same with [options] unplayed_pozzetto_policy = "penalty": -100, the cards ignored.
    "unplayed-pozzetto-penalty.toml": _two(
        AB,
        "italian",
        [
            {
                "ended": "closing",
                "closed_by": 1,
                "lines": [
                    line([0], (110, 0, 0, 0, -100), 10),
                    line([1], (175, 200, 100, 0, 0), 475),
                ],
            }
        ],
        [10, 475],
    ),
    # Burraco Reale, 4 players: Nobile 500 + Pulito 200; Bruno's unplayed pozzetto costs 100.
    "reale-unplayed-penalty.toml": _two(
        ABCD,
        "reale",
        [
            {
                "ended": "closing",
                "closed_by": 2,
                "lines": [
                    line([0, 2], (270, 700, 100, -15, 0), 1055),
                    line([1, 3], (75, 0, 0, -105, -100), -130),
                ],
            }
        ],
        [1055, -130],
    ),
    # A 4-player match of two smazzate.
    "four-player-match.toml": _two(
        ABCD,
        "italian",
        [
            {
                "ended": "closing",
                "closed_by": 0,
                "lines": [
                    line([0, 2], (205, 200, 100, -110, 0), 395),
                    line([1, 3], (0, 0, 0, -225, -100), -325),
                ],
            },
            {
                "ended": "closing",
                "closed_by": 3,
                "lines": [
                    line([0, 2], (0, 0, 0, -230, -100), -330),
                    line([1, 3], (250, 200, 100, -50, 0), 500),
                ],
            },
        ],
        [65, 175],
    ),
    # 3 players: Anna solo 325; the pair Bruno & Carla scores 405, 205 each (X8 rounding).
    "three-player-split.toml": _two(
        ["Anna", "Bruno", "Carla"],
        "italian",
        [
            {
                "ended": "closing",
                "closed_by": 2,
                "lines": [
                    line([0], (190, 200, 0, -65, 0), 325),
                    line([1, 2], (195, 200, 100, -90, 0), 405),
                ],
            }
        ],
        [325, 205, 205],
    ),
}

CLASSIC = "classic-target-2005.toml"
CLASSIC_RESULTS = [[860, 210], [495, 390], [1230, 165]]
CLASSIC_TOTALS = [2585, 765]
CLASSIC_WINNER = 0

# Records that must be refused: (exit status, the exact sentence on standard error). For exit 2
# the sentence starts with the file name as given on the command line.
BAD: dict[str, tuple[int, str]] = {
    "bad-closing-wild.toml": (
        1,
        'hand 1, action 12 "0 attach 4 QS": illegal: after this meld the last card 2D could'
        " not be discarded: the closing discard cannot be a wild card (R55)",
    ),
    "bad-pickup-lock.toml": (
        1,
        'hand 1, action 2 "0 discard 8C": illegal: 8C cannot be discarded: the single card'
        " picked up from the discard pile (or its twin) may not be discarded in the same turn"
        " (R17)",
    ),
    "bad-out-of-turn.toml": (
        1,
        "hand 1, action 3 \"0 draw\": illegal: it is seat 1's turn, not seat 0's (R5)",
    ),
    "bad-open-two.toml": (
        1,
        'hand 1, action 2 "0 open 3H 4H": illegal: a new meld needs at least three cards (R21)',
    ),
    "bad-after-end.toml": (
        1,
        'hand 1, action 14 "1 draw": illegal: the smazzata is over (it ended by closing) (R56)',
    ),
    "bad-after-match-decided.toml": (
        1,
        'hand 4, action 1 "1 draw": illegal: the match was already decided after hand 3 (3.6)',
    ),
    "bad-wrong-result.toml": (
        1,
        "hand 1: result [600, -150] does not match the replayed score [600, -160]",
    ),
    "bad-toml.toml": (
        2,
        "bad-toml.toml: malformed: invalid TOML: Unclosed array (at line 12, column 1)",
    ),
    "bad-unknown-key.toml": (2, "bad-unknown-key.toml: malformed: hand 1: unknown key 'colour'"),
    "bad-unknown-preset.toml": (
        2,
        "bad-unknown-preset.toml: malformed: rules: unknown ruleset preset 'burraco-pro' (known:"
        " italian, classic, reale, italian-semipulito, internazionale)",
    ),
    "bad-players-option.toml": (
        2,
        "bad-players-option.toml: malformed: [options]: the number of players comes from 'players'",
    ),
    "bad-unknown-card.toml": (
        2,
        'bad-unknown-card.toml: malformed: hand 1, action 2 "0 discard 1D": "1D" is not a card'
        " (expected e.g. 7H, 10S, QC, AD or JK)",
    ),
    "bad-unknown-verb.toml": (
        2,
        'bad-unknown-verb.toml: malformed: hand 1, action 2 "0 meld 3H 4H 5H": unknown verb'
        ' "meld" (expected draw, pickup, open, attach or discard)',
    ),
    "bad-deck-107.toml": (
        2,
        "bad-deck-107.toml: malformed: hand 1, deck: the deck has 107 cards, the ruleset's deck"
        " has 108",
    ),
    "bad-deck-missing-card.toml": (
        2,
        "bad-deck-missing-card.toml: malformed: hand 1, deck: the deal has 1 × 6D, the"
        " ruleset's deck has 2",
    ),
    "bad-deck-duplicated-card.toml": (
        2,
        "bad-deck-duplicated-card.toml: malformed: hand 1, deck: the deal has 3 × AC, the"
        " ruleset's deck has 2",
    ),
}
