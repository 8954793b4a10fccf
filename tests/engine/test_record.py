"""The game record (spec/record-format.md): reading, writing and replaying, and golden records.

Golden records live in tests/data/records; their expected results are in tests/golden_records.py
(computed by hand from RULES.md R59/R60, the arithmetic in each file's comment).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import re
import tomllib
from collections.abc import Sequence
from typing import Any

import pytest

from burraco.bots import GreedyBot, RandomBot
from burraco.bots.base import Bot
from burraco.engine import Card, Deal, RecordError, find_rules, parameter_names, preset_names
from burraco.engine.cards import standard_deck
from burraco.engine.deal import deal_from_deck, pozzetto_layout
from burraco.engine.game import Game
from burraco.engine.record import HandRecord, Record, read_record, replay, write_record
from burraco.engine.rules import Rules
from tests.golden_records import (
    BAD,
    CLASSIC,
    CLASSIC_RESULTS,
    CLASSIC_TOTALS,
    CLASSIC_WINNER,
    GOLDEN,
    RECORDS,
)

PRESETS = ("italian", "classic", "reale", "italian-semipulito", "internazionale")
HEADER = 'format = "burraco-record/1"\nrules = "italian"\nplayers = ["Anna", "Bruno"]\n'


# ----------------------------------------------------------------------------------- helpers


def _load(name: str) -> Record:
    return read_record((RECORDS / name).read_text(encoding="utf-8"))


def _play(rules: Rules, seed: int, *, complete: int, tail: int, greedy: bool) -> Game:
    """A seeded game between bots: ``complete`` smazzate (or the whole match if it ends first),
    then ``tail`` actions of the next one (left unfinished)."""
    names = [f"Player {seat}" for seat in range(rules.players)]
    game = Game(rules, names, rng=random.Random(seed), meta={"seed": seed})
    kind = GreedyBot if greedy else RandomBot
    bots: list[Bot] = [kind(seed * 10 + seat) for seat in range(rules.players)]
    extra = 0
    while not game.is_over:
        if len(game.hands) >= complete:
            if extra >= tail:
                break
            extra += 1
        state = game.state
        game.apply(bots[state.current].choose(state.view(state.current), state.legal_actions()))
    return game


def _deck_of(deal: Deal, rules: Rules, first: int, *, late: bool = False) -> tuple[Card, ...]:
    """The deck order whose deal (R7-R12, 3.2, 3.5) is ``deal``: R8-R11 run backwards."""
    n = rules.players
    deck: list[Card | None] = [None] * rules.deck_size
    taken = [0] * n
    for i in range(rules.hand_size * n):
        seat = (first + i) % n
        deck[i] = deal.hands[seat][taken[seat]]
        taken[seat] += 1
    top = rules.hand_size * n
    if rules.initial_discard:
        deck[top] = deal.discard[0]
        top += 1
    sizes = pozzetto_layout(rules, late=late)
    filled = [0] * len(sizes)
    bottom = rules.deck_size - 1
    while any(f < s for f, s in zip(filled, sizes, strict=True)):
        for k, size in enumerate(sizes):
            if filled[k] < size:
                deck[bottom] = deal.pozzetti[k][filled[k]]
                filled[k] += 1
                bottom -= 1
    for j, card in enumerate(deal.stock):
        deck[top + j] = card
    assert top + len(deal.stock) == bottom + 1
    out = tuple(c for c in deck if c is not None)
    assert len(out) == rules.deck_size
    return out


def _as_deck_record(record: Record) -> Record:
    """The same record with every explicit deal written as a deck."""
    rules = record.ruleset()
    hands = []
    for hand in record.hands:
        assert hand.deal is not None
        deck = _deck_of(hand.deal, rules, hand.first)
        hands.append(HandRecord(hand.first, hand.actions, deck=deck, result=hand.result))
    return Record(record.rules, record.players, tuple(hands), record.options, record.meta)


_CARD_WORD = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b|\bJK\b")
_SYMBOL = dict(zip("CDHS", "♣♦♥♠", strict=True))


def _respell(text: str) -> str:
    """Every card in another accepted spelling: lower case, T for 10, suit symbols."""
    count = 0

    def other(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        if match.group(0) == "JK":
            return "jk" if count % 2 else "Jk"
        rank, suit = match.group(1), match.group(2)
        style = count % 4
        if style == 0:
            return (rank + suit).lower()
        if style == 1:
            return ("T" if rank == "10" else rank) + _SYMBOL[suit]
        if style == 2:
            return ("t" if rank == "10" else rank.lower()) + suit.lower()
        return rank.lower() + _SYMBOL[suit]

    return _CARD_WORD.sub(other, text)


def _with_hand(hand_toml: str, top: str = HEADER) -> str:
    return top + "\n[[hands]]\n" + hand_toml


DECK = 'deck = """\n' + " ".join(str(c) for c in standard_deck(4)) + '\n"""\n'
"""An italian deck (unshuffled), for records that must get past the deal."""


def _closing_record() -> Record:
    return _load("closing-clean-dirty.toml")


# --------------------------------------------------------------------- round trips of played games


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_game_round_trips_and_replays(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    seed = players * 31 + PRESETS.index(preset)
    game = _play(rules, seed, complete=2, tail=9, greedy=seed % 2 == 0)
    assert len(game.hands) == 2 or game.is_over
    record = game.record()
    assert record.rules == preset
    assert len(record.players) == players
    text = write_record(record)
    assert read_record(text) == record
    assert write_record(read_record(text)) == text
    result = replay(read_record(text))
    assert result.error is None
    assert list(result.totals) == game.match.totals
    finished = [h for h in result.hands if h.ended != "unfinished"]
    assert [h.score.result if h.score else None for h in finished] == [h.result for h in game.hands]
    if not game.is_over:
        last = result.as_json()["hands"][-1]
        assert last == {"ended": "unfinished", "closed_by": None}


def test_three_player_match_after_the_switch_to_three_pozzetti_round_trips() -> None:
    # 3.5: once a total reaches 1000 the next smazzate are dealt with three pozzetti of 11.
    rules = find_rules("italian", players=3)
    game = Game(rules, ["Anna", "Bruno", "Carla"], rng=random.Random(11))
    bots = [GreedyBot(seat) for seat in range(3)]
    switched: int | None = None
    while switched is None or len(game.hands) <= switched:
        state = game.state
        game.apply(bots[state.current].choose(state.view(state.current), state.legal_actions()))
        if switched is None and game.match.late:
            switched = len(game.hands)
    record = game.record()
    assert read_record(write_record(record)) == record
    result = replay(record, keep_states=True)
    assert result.error is None
    assert list(result.totals) == game.match.totals
    assert [len(s.deal.pozzetti) for s in result.states] == [2] * switched + [3]
    assert [len(s.deal.stock) for s in result.states] == [45] * switched + [41]


def test_the_presets_listed_by_the_spec_exist() -> None:
    assert set(PRESETS) <= set(preset_names())


def test_target_score_match_with_options_round_trips_to_the_same_winner() -> None:
    rules = find_rules(
        "italian", players=4, target_score=505, lock_identical_copy=False, stall_limit=30
    )
    game = _play(rules, 7, complete=50, tail=0, greedy=True)
    assert game.is_over
    record = game.record()
    assert dict(record.options) == {
        "target_score": 505,
        "lock_identical_copy": False,
        "stall_limit": 30,
    }
    text = write_record(record)
    assert "\n[options]\n" in text
    assert "target_score = 505\n" in text
    assert "lock_identical_copy = false\n" in text
    assert read_record(text) == record
    result = replay(read_record(text))
    assert result.error is None
    assert result.winner is not None
    assert result.winner == game.match.winner
    assert result.as_json()["winner"] == game.match.winner
    assert max(result.totals) >= 505


def test_written_deck_follows_the_spec_layout() -> None:
    rules = find_rules("italian")
    game = _play(rules, 3, complete=1, tail=0, greedy=True)
    text = write_record(game.record())
    data = tomllib.loads(text)
    assert data["format"] == "burraco-record/1"
    assert data["rules"] == "italian"
    assert data["players"] == ["Player 0", "Player 1"]
    (hand,) = data["hands"]
    assert set(hand) == {"first", "deck", "actions", "result"}
    words = hand["deck"].split()
    assert len(words) == 108
    assert sorted(words) == sorted(str(c) for c in standard_deck(4))
    assert all(
        re.fullmatch(r"\d (draw|pickup|open|attach|discard)( \S+)*", a) for a in hand["actions"]
    )


# ------------------------------------------------------------------------------ the deal (R7-R12)


@pytest.mark.parametrize(
    ("preset", "players"),
    [("italian", 2), ("italian", 3), ("italian", 4), ("reale", 4), ("reale", 2)],
)
def test_the_deal_is_the_spec_function_of_the_deck(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    deck = standard_deck(rules.jokers)
    random.Random(players).shuffle(deck)
    d = deck
    n = players
    deal = deal_from_deck(deck, rules, first=1)
    # R8: card d[i] goes to seat (first + i) mod n.
    for seat in range(n):
        assert list(deal.hands[seat]) == [d[i] for i in range(11 * n) if (1 + i) % n == seat]
    bottom = len(d) - 1
    if preset == "reale":
        assert deal.discard == ()  # 3.2: no initial face-up card
        top = 11 * n
    else:
        assert deal.discard == (d[11 * n],)  # R9
        top = 11 * n + 1
    if players == 3:
        # 3.5: 18 + 11 from the bottom, alternately (18-pile first), then 7 more to the 18-pile.
        p2 = [d[bottom - 1 - 2 * k] for k in range(11)]
        p1 = [d[bottom - 2 * k] for k in range(11)] + [d[bottom - 22 - k] for k in range(7)]
        assert deal.pozzetti == (tuple(p1), tuple(p2))
        stock_end = bottom - 29
    else:
        # R10: P1 = d[107], d[105], ..., P2 = d[106], d[104], ... (d[103]... in Reale).
        p1 = [d[bottom - 2 * k] for k in range(11)]
        p2 = [d[bottom - 1 - 2 * k] for k in range(11)]
        assert deal.pozzetti == (tuple(p1), tuple(p2))
        stock_end = bottom - 22
    # R11: the rest is the stock, top first.
    assert list(deal.stock) == d[top : stock_end + 1]
    expected = {(2, "italian"): 63, (3, "italian"): 45, (4, "italian"): 41, (4, "reale"): 38}
    assert len(deal.stock) == expected.get((players, preset), 60)


def test_three_player_late_deal_has_three_pozzetti_of_eleven() -> None:
    rules = find_rules("italian", players=3)
    d = standard_deck(4)
    random.Random(5).shuffle(d)
    deal = deal_from_deck(d, rules, first=0, late=True)
    assert deal.pozzetti == tuple(tuple(d[107 - k - 3 * j] for j in range(11)) for k in range(3))
    assert list(deal.stock) == d[34:75]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_explicit_deal_and_deck_give_the_same_replay(name: str) -> None:
    record = _load(name)
    rules = record.ruleset()
    for hand in record.hands:
        assert hand.deal is not None
        deck = _deck_of(hand.deal, rules, hand.first)
        again = deal_from_deck(deck, rules, hand.first)
        assert (again.hands, again.pozzetti, again.discard, again.stock) == (
            hand.deal.hands,
            hand.deal.pozzetti,
            hand.deal.discard,
            hand.deal.stock,
        )
    as_deck = _as_deck_record(record)
    assert replay(as_deck).as_json() == replay(record).as_json()
    text = write_record(as_deck)
    assert read_record(text) == as_deck


# ------------------------------------------------------------------------------------------ cards


def test_cards_are_read_in_every_accepted_spelling() -> None:
    for spelled in ("10H", "TH", "th", "10h", "T♥", "t♥", "10♥"):
        assert Card.parse(spelled) == Card.parse("10H")
        assert str(Card.parse(spelled)) == "10H"
    for spelled in ("JK", "jk", "Jk"):
        assert str(Card.parse(spelled)) == "JK"
    for spelled, canonical in (("q♠", "QS"), ("a♣", "AC"), ("2♦", "2D"), ("kd", "KD")):
        assert str(Card.parse(spelled)) == canonical


@pytest.mark.parametrize("form", ["deck", "explicit"])
def test_records_in_other_spellings_read_the_same_and_write_canonically(form: str) -> None:
    record = _closing_record()
    if form == "deck":
        record = _as_deck_record(record)
    text = write_record(record)
    respelled = _respell(text)
    assert respelled != text
    assert "♥" in respelled
    assert re.search(r"\bT♥|\bt[a-z♣♦♥♠]", respelled)
    assert read_record(respelled) == record
    assert write_record(read_record(respelled)) == text
    assert not re.search(r"[♣♦♥♠]|\bT[CDHS]\b|\b[a-z0-9]{1,2}[cdhs]\b|\bjk\b", text)


def test_explicit_deal_is_written_as_lists_of_cards() -> None:
    record = _closing_record()
    data = tomllib.loads(write_record(record))
    (hand,) = data["hands"]
    assert set(hand) == {
        "first",
        "hands_dealt",
        "pozzetti",
        "discard",
        "stock",
        "actions",
        "result",
    }
    for key in ("hands_dealt", "pozzetti"):
        assert all(isinstance(cards, list) for cards in hand[key])
        assert all(re.fullmatch(r"(10|[2-9AJQK])[CDHS]|JK", c) for cs in hand[key] for c in cs)
    assert len(hand["hands_dealt"]) == 2
    assert [len(p) for p in hand["pozzetti"]] == [11, 11]
    assert hand["discard"] == ["8C"]
    assert isinstance(hand["stock"], list)
    assert hand["stock"][:3] == ["10H", "4S", "QS"]
    total = sum(map(len, hand["hands_dealt"])) + sum(map(len, hand["pozzetti"]))
    assert total + len(hand["discard"]) + len(hand["stock"]) == 108


def test_reale_explicit_deal_has_an_empty_discard() -> None:
    record = _load("reale-unplayed-penalty.toml")
    (hand,) = record.hands
    assert hand.deal is not None
    assert hand.deal.discard == ()
    text = write_record(record)
    assert "\ndiscard = []\n" in text
    assert read_record(text) == record
    data = tomllib.loads(text)
    assert [len(h) for h in data["hands"][0]["hands_dealt"]] == [11] * 4
    assert len(data["hands"][0]["stock"]) == 38


def test_reale_explicit_deal_with_an_initial_discard_is_malformed() -> None:
    text = write_record(_load("reale-unplayed-penalty.toml"))
    data = tomllib.loads(text)
    stock = data["hands"][0]["stock"]
    moved = text.replace("\ndiscard = []\n", f'\ndiscard = ["{stock[-1]}"]\n')
    moved = moved.replace(f', "{stock[-1]}",\n]', ",\n]", 1)
    assert moved != text
    with pytest.raises(RecordError, match=r"^hand 1: discard has 1 cards, this ruleset starts"):
        read_record(moved)


# ---------------------------------------------------------------------------------------- options


def test_known_options_are_read_and_round_trip() -> None:
    text = HEADER + (
        "\n[options]\n"
        "lock_identical_copy = false\n"
        "stall_limit = 0\n"
        "target_score = 2005\n"
        'set_ranks = ["A", "3"]\n'
        'unplayed_pozzetto_policy = "penalty"\n'
        "three_player_pozzetto_sizes = [18, 11]\n"
    )
    record = read_record(text)
    rules = record.ruleset()
    assert rules.lock_identical_copy is False
    assert rules.stall_limit == 0
    assert rules.target_score == 2005
    assert rules.set_ranks == frozenset({1, 3})
    assert rules.unplayed_pozzetto_policy == "penalty"
    assert read_record(write_record(record)) == record


@pytest.mark.parametrize("preset", PRESETS)
def test_every_documented_parameter_may_be_set_in_options(preset: str) -> None:
    rules = find_rules(preset, players=2)
    for name in parameter_names():
        value = getattr(rules, name)
        if name == "players" or value is None:
            continue
        options = {name: value}
        record = Record(preset, ("A", "B"), options=options)
        again = read_record(write_record(record))
        assert again == record, name
        assert getattr(again.ruleset(), name) == value


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("colour = 1", "[options]: unknown ruleset parameter 'colour'"),
        ("players = 2", "[options]: the number of players comes from 'players'"),
        ('name = "classic"', "[options]: unknown ruleset parameter 'name'"),
        ('stall_limit = "many"', "[options]: stall_limit must be an integer"),
        ("lock_identical_copy = 1", "[options]: lock_identical_copy must be true or false"),
        ("stall_limit = -1", "stall_limit must be between 0 and 1000, not -1"),
    ],
)
def test_bad_options_are_malformed(options: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(HEADER + "\n[options]\n" + options + "\n")
    assert message in str(info.value)


def test_an_option_set_to_none_cannot_be_written() -> None:
    # TOML has no null: a record cannot unset a parameter of its preset (classic's target).
    record = Record("classic", ("A", "B"), options={"target_score": None})
    with pytest.raises(RecordError, match=r"^\[options\]: target_score cannot be unset"):
        write_record(record)


def test_options_must_be_a_table() -> None:
    with pytest.raises(RecordError, match=r"\[options\] must be a table"):
        read_record(HEADER + "options = 3\n")


# ------------------------------------------------------------------------------------------- meta

META = """
[meta]
event = "Torneo di Natale — Città di Castello"
"città" = "Perugia"
date = 2024-12-21
start = 2024-12-21T20:30:00+01:00
local = 2024-12-21T20:30:00
clock = 20:30:00.250
ratings = [1500, 1620.5, -3]
flags = [true, false]
mixed = ["a", 1, [2, 3], { x = 1 }]
empty = {}
"quoted key" = 'literal \\n string'
multiline = \"\"\"
line one
line two\"\"\"

[meta.clock_settings]
base_minutes = 18
increment_s = 2
nested = { deeper = { deepest = "yes" } }

[[meta.rounds]]
table = 1
players = ["Zoë", "Łukasz"]

[[meta.rounds]]
table = 2
"""


def test_meta_is_free_and_round_trips() -> None:
    text = 'format = "burraco-record/1"\nrules = "italian"\nplayers = ["Zoë", "山田"]\n' + META
    record = read_record(text)
    assert record.players == ("Zoë", "山田")
    assert record.meta == tomllib.loads(text)["meta"]
    assert record.meta["date"] == dt.date(2024, 12, 21)
    assert record.meta["clock_settings"]["nested"] == {"deeper": {"deepest": "yes"}}
    assert len(record.meta["rounds"]) == 2
    written = write_record(record)
    assert read_record(written) == record
    assert write_record(read_record(written)) == written


def test_meta_values_that_need_escaping_round_trip() -> None:
    meta: dict[str, Any] = {
        "quote": 'She said "ciao" \\ bye',
        "controls": "tab\there\nnew line\x00\x1f\x7f end",
        "emoji": "🂡 ♠",
        "key with spaces": 1,
        "": "empty key",
        "when": dt.datetime(2024, 5, 17, 21, 0, 5, 123456, tzinfo=dt.UTC),
        "at": dt.time(23, 59, 59),
        "big": 2**62,
        "small": -1.25e-7,
    }
    record = Record("italian", ("Ånna", "Brunó"), meta=meta)
    text = write_record(record)
    assert read_record(text) == record


def test_meta_must_be_a_table() -> None:
    with pytest.raises(RecordError, match=r"\[meta\] must be a table"):
        read_record(HEADER + 'meta = "x"\n')


# ------------------------------------------------------------------ keys: unknown, missing, wrong


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEADER + 'colour = "red"\n', "unknown key 'colour' at the top level"),
        (HEADER + "[extra]\nx = 1\n", "unknown key 'extra' at the top level"),
        (
            _with_hand("first = 0\n" + DECK + 'actions = []\ncolour = "red"\n'),
            "hand 1: unknown key 'colour'",
        ),
        (
            _with_hand("first = 0\nactions = []\nresults = [0, 0]\n"),
            "hand 1: unknown key 'results'",
        ),
        ('rules = "italian"\nplayers = ["A", "B"]\n', "missing key 'format'"),
        ('format = "burraco-record/1"\nplayers = ["A", "B"]\n', "missing key 'rules'"),
        ('format = "burraco-record/1"\nrules = "italian"\n', "missing key 'players'"),
        (
            'format = "burraco-record/2"\nrules = "italian"\nplayers = ["A", "B"]\n',
            "format must be 'burraco-record/1', not 'burraco-record/2'",
        ),
        (
            'format = "burraco-record/1"\nrules = "italiano"\nplayers = ["A", "B"]\n',
            "unknown ruleset preset 'italiano'",
        ),
        (
            'format = "burraco-record/1"\nrules = "italian"\nplayers = ["A"]\n',
            "players must be a list of 2, 3 or 4 names",
        ),
        (
            'format = "burraco-record/1"\nrules = "italian"\nplayers = ["A", "B", "C", "D", "E"]\n',
            "players must be a list of 2, 3 or 4 names",
        ),
        (
            'format = "burraco-record/1"\nrules = "italian"\nplayers = ["A", 2]\n',
            "players must be a list of 2, 3 or 4 names",
        ),
        (HEADER + "hands = 3\n", "hands must be an array of tables"),
        (_with_hand("actions = []\n"), "hand 1: 'first' (the seat that plays first)"),
        (_with_hand("first = 2\nactions = []\n"), "hand 1: first = 2 is not a seat"),
        (_with_hand("first = 0\nactions = []\n"), "hand 1: missing 'deck'"),
        (_with_hand("first = 0\nactions = []\nstock = []\n"), "hand 1: missing 'deck'"),
        (_with_hand('first = 0\ndeck = "AC"\n'), "hand 1, deck: the deck has 1 cards"),
        (_with_hand('first = 0\ndeck = "AC ZZ"\n'), 'hand 1, deck: "ZZ" is not a card'),
        (_with_hand("first = 0\ndeck = 5\n"), "hand 1, deck: expected cards"),
        (
            _with_hand("first = 0\n" + DECK + 'actions = "0 draw"\n'),
            "'actions' must be an array of strings",
        ),
        (_with_hand("first = 0\n" + DECK + "actions = [1]\n"), "hand 1: action 1 is not a string"),
        (
            _with_hand("first = 0\n" + DECK + 'actions = ["0 fly"]\n'),
            'hand 1, action 1 "0 fly": unknown verb "fly"',
        ),
        (
            _with_hand("first = 0\n" + DECK + 'actions = ["0 draw", "draw"]\n'),
            'hand 1, action 2 "draw": "draw" is not an action',
        ),
        (
            _with_hand("first = 0\n" + DECK + 'actions = ["0 open 3H 4H 5Z"]\n'),
            'hand 1, action 1 "0 open 3H 4H 5Z": "5Z" is not a card',
        ),
        (
            _with_hand("first = 0\n" + DECK + 'actions = ["0 discard"]\n'),
            'hand 1, action 1 "0 discard": discard takes exactly one card',
        ),
        (
            _with_hand("first = 0\n" + DECK + 'actions = ["0 attach 3H"]\n'),
            'hand 1, action 1 "0 attach 3H": attach needs a meld number',
        ),
        ("format = \n", "invalid TOML: "),
        ('format = "burraco-record/1"\nformat = "burraco-record/1"\n', "invalid TOML: "),
    ],
)
def test_malformed_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(text)
    assert message in str(info.value)


def test_toml_errors_name_the_line() -> None:
    with pytest.raises(RecordError, match=r"^invalid TOML: .*\(at line 4, column \d+\)$"):
        read_record(HEADER + "first = = 0\n")


def test_deck_and_explicit_deal_together_are_malformed() -> None:
    text = write_record(_as_deck_record(_closing_record()))
    text = text.replace("actions = [", 'discard = ["8C"]\nactions = [', 1)
    with pytest.raises(RecordError, match=r"give either 'deck' or an explicit deal, not both"):
        read_record(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # a card replaced by a third copy of another: the deal is not the ruleset's deck
        ('"3H", "4H"', '"3H", "3H"', "hand 1: the deal has 3 × 3H, the ruleset's deck has 2"),
        # one card too many in a hand (taken from the stock)
        ('"10D"],', '"10D", "10H"],', "hand 1: hands_dealt: seat 0 has 12 cards"),
        # a pozzetto of 12
        ('"4C"],', '"4C", "10H"],', "hand 1: pozzetti have [12, 11] cards"),
        # no initial discard in the italian rules
        ('discard = ["8C"]', "discard = []", "hand 1: discard has 0 cards, this ruleset starts"),
        ('"KD", "KS"', '"KD", "K♠"', None),
        ('"KD", "KS"', '"KD", "KX"', 'hand 1, hands_dealt, seat 0: "KX" is not a card'),
        ('"AC", "AD"', '"AC", "1D"', 'hand 1, hands_dealt, seat 1: "1D" is not a card'),
        ('"5S", "6S"', '"5S", "6Z"', 'hand 1, pozzetti, pozzetto 1: "6Z" is not a card'),
    ],
)
def test_explicit_deals_must_be_the_ruleset_deck(old: str, new: str, message: str | None) -> None:
    text = write_record(_closing_record())
    assert old in text
    changed = text.replace(old, new, 1)
    if new.endswith('"10H"],'):
        changed = changed.replace('"10H", "4S", "QS"', '"4S", "QS"', 1)
    if message is None:
        assert read_record(changed) == _closing_record()
        return
    with pytest.raises(RecordError) as info:
        read_record(changed)
    assert message in str(info.value)


def test_three_player_explicit_deal_is_checked_against_the_phase_when_replayed() -> None:
    rules = find_rules("italian", players=3)
    deck = standard_deck(4)
    random.Random(9).shuffle(deck)
    dealt = deal_from_deck(deck, rules, 0, late=True)
    late = Deal(dealt.hands, dealt.pozzetti, dealt.discard, dealt.stock)
    record = Record("italian", ("A", "B", "C"), (HandRecord(0, (), deal=late),))
    text = write_record(record)
    assert read_record(text) == record  # either 3-player layout reads
    with pytest.raises(RecordError, match=r"^hand 1: pozzetti have \[11, 11, 11\] cards"):
        replay(read_record(text))


# ------------------------------------------------------------------------------------- replaying


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_records_replay_to_their_scores(name: str) -> None:
    record = _load(name)
    result = replay(record)
    assert result.error is None
    assert result.as_json() == GOLDEN[name]
    # The files carry the same expected scores as their result.
    for hand, expected in zip(record.hands, GOLDEN[name]["hands"], strict=True):
        scores = [ln["score"] for ln in expected["lines"]]
        if len(record.players) == 3:
            assert hand.result is not None
            assert len(hand.result) == 3
        else:
            assert hand.result == tuple(scores)
    assert read_record(write_record(record)) == record


def test_golden_classic_target_match() -> None:
    text = (RECORDS / CLASSIC).read_text(encoding="utf-8")
    record = read_record(text)
    assert record.rules == "classic"
    assert record.ruleset().target_score == 2005
    assert [list(h.result or ()) for h in record.hands] == CLASSIC_RESULTS
    totals = [sum(r[i] for r in CLASSIC_RESULTS) for i in range(2)]
    assert totals == CLASSIC_TOTALS
    assert f"= {CLASSIC_TOTALS[0]}, " in text
    assert f"= {CLASSIC_TOTALS[1]}\n" in text
    # Decided after the last hand, not before.
    before = [sum(r[i] for r in CLASSIC_RESULTS[:-1]) for i in range(2)]
    assert max(before) < 2005 <= CLASSIC_TOTALS[CLASSIC_WINNER]
    result = replay(record)
    assert result.error is None
    out = result.as_json()
    assert out["totals"] == CLASSIC_TOTALS
    assert out["winner"] == CLASSIC_WINNER
    assert [[ln["score"] for ln in h["lines"]] for h in out["hands"]] == CLASSIC_RESULTS
    assert read_record(write_record(record)) == record


def test_target_match_not_yet_decided_has_a_null_winner() -> None:
    record = read_record((RECORDS / CLASSIC).read_text(encoding="utf-8"))
    short = Record(record.rules, record.players, record.hands[:2], record.options, record.meta)
    out = replay(short).as_json()
    assert "winner" in out
    assert out["winner"] is None
    assert out["totals"] == [sum(r[i] for r in CLASSIC_RESULTS[:2]) for i in range(2)]


def test_a_match_without_target_has_no_winner_key() -> None:
    assert "winner" not in replay(_closing_record()).as_json()


def test_hand_after_the_match_was_decided_is_illegal_at_its_first_action() -> None:
    record = read_record((RECORDS / CLASSIC).read_text(encoding="utf-8"))
    extra = HandRecord(1, (), deck=record.hands[0].deck)
    result = replay(Record(record.rules, record.players, (*record.hands, extra)))
    assert str(result.error) == (
        "hand 4: illegal: the match was already decided after hand 3 (3.6)"
    )


def test_hand_after_a_fixed_round_is_illegal() -> None:
    record = _load("four-player-match.toml")
    assert dict(record.options) == {"smazzate": 2}
    extra = record.hands[0]
    result = replay(Record(record.rules, record.players, (*record.hands, extra), record.options))
    assert str(result.error) == (
        'hand 3, action 1 "0 draw": illegal: the round was already over after hand 2 (R63)'
    )


@pytest.mark.parametrize("name", sorted(BAD))
def test_golden_bad_records(name: str) -> None:
    code, message = BAD[name]
    text = (RECORDS / name).read_text(encoding="utf-8")
    if code == 2:
        with pytest.raises(RecordError) as info:
            replay(read_record(text))
        assert f"{name}: malformed: {info.value}" == message
    else:
        result = replay(read_record(text))
        assert str(result.error) == message


def test_right_and_wrong_results() -> None:
    record = _closing_record()
    (hand,) = record.hands
    assert hand.result == (600, -160)
    assert replay(record).error is None
    for wrong in ((600, -155), (-160, 600), (0, 0)):
        bad = Record(record.rules, record.players, (dataclasses.replace(hand, result=wrong),))
        assert str(replay(bad).error) == (
            f"hand 1: result {list(wrong)} does not match the replayed score [600, -160]"
        )


def test_result_of_the_wrong_length_is_malformed() -> None:
    text = write_record(_closing_record()).replace("result = [600, -160]", "result = [600]")
    with pytest.raises(RecordError, match=r"hand 1: 'result' must be a list of 2 integers"):
        read_record(text)
    three = write_record(_load("three-player-split.toml"))
    three = three.replace("result = [325, 205, 205]", "result = [325, 405]")
    with pytest.raises(RecordError, match=r"hand 1: 'result' must be a list of 3 integers"):
        read_record(three)


def test_unfinished_last_hand() -> None:
    record = _load("four-player-match.toml")
    first, second = record.hands
    cut = HandRecord(second.first, second.actions[:8], deal=second.deal)
    short = Record(record.rules, record.players, (first, cut), record.options, record.meta)
    assert read_record(write_record(short)) == short
    result = replay(short)
    assert result.error is None
    out = result.as_json()
    assert out["hands"][0] == GOLDEN["four-player-match.toml"]["hands"][0]
    assert out["hands"][1] == {"ended": "unfinished", "closed_by": None}
    assert out["totals"] == [395, -325]


def test_unfinished_hand_with_a_result_is_wrong() -> None:
    record = _closing_record()
    (hand,) = record.hands
    cut = HandRecord(hand.first, hand.actions[:5], deal=hand.deal, result=(600, -160))
    result = replay(Record(record.rules, record.players, (cut,)))
    assert str(result.error) == (
        "hand 1: result [600, -160] is given, but the smazzata is unfinished (its actions stop"
        " before its end)"
    )


def test_no_hand_may_follow_an_unfinished_one() -> None:
    record = _load("four-player-match.toml")
    first, second = record.hands
    cut = HandRecord(first.first, first.actions[:3], deal=first.deal)
    result = replay(Record(record.rules, record.players, (cut, second), record.options))
    assert str(result.error) == (
        'hand 2, action 1 "1 draw": illegal: hand 1 has not ended (R56-R58), so no smazzata'
        " can follow it"
    )


def test_record_without_hands_replays_to_zero() -> None:
    out = replay(read_record(HEADER)).as_json()
    assert out == {
        "format": "burraco-record/1",
        "rules": "italian",
        "players": ["Anna", "Bruno"],
        "hands": [],
        "totals": [0, 0],
    }


def test_three_player_records_score_per_seat() -> None:
    record = _load("three-player-split.toml")
    (hand,) = record.hands
    assert hand.result == (325, 205, 205)
    out = replay(record).as_json()
    assert out["totals"] == [325, 205, 205]
    assert [ln["seats"] for ln in out["hands"][0]["lines"]] == [[0], [1, 2]]


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (["1 draw"], "it is seat 0's turn, not seat 1's (R5)"),
        (["5 draw"], "there is no seat 5 at a 2-player table (R1)"),
        (["0 draw", "0 open 3H 4H"], "a new meld needs at least three cards (R21)"),
        (["0 discard 10D"], "the turn starts by drawing or picking up the discard pile (R13)"),
        (["0 draw", "0 draw"], "seat 0 already drew this turn (R14)"),
        (["0 draw", "0 discard 2S"], "seat 0 does not hold 2S (R20)"),
    ],
)
def test_illegal_actions_stop_the_replay(actions: Sequence[str], message: str) -> None:
    record = _closing_record()
    (hand,) = record.hands
    empty = dataclasses.replace(hand, actions=(), result=None)
    text = write_record(Record(record.rules, record.players, (empty,)))
    text = text.replace(
        "actions = [\n]", "actions = [" + ", ".join(f'"{a}"' for a in actions) + "]"
    )
    result = replay(read_record(text))
    assert result.error is not None
    assert result.error.hand == 1
    assert result.error.action == len(actions)
    assert str(result.error) == f'hand 1, action {len(actions)} "{actions[-1]}": illegal: {message}'


def test_actions_in_other_spellings_are_quoted_canonically() -> None:
    record = _closing_record()
    text = write_record(record).replace('"0 draw",\n  "0 open 3H', '"0 DRAW",\n  "0 open 3h', 1)
    assert read_record(text) == record
