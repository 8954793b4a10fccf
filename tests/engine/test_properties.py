"""Property tests (hypothesis): notation round trips and meld validation against brute force.

The brute-force meld validator below is written from RULES.md R21-R35 alone, independently of
``melds.py``: it tries every reading of a multiset (each ace low or high, each same-suit two
natural or wild, the wild at every position) and keeps the readings that satisfy the rules.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from burraco.engine import (
    ATTACH,
    CARDS,
    DISCARD,
    DRAW,
    PICKUP,
    Action,
    Card,
    NotationError,
    Rules,
    Verb,
    find_rules,
)
from burraco.engine.melds import Meld, MeldError, check_extend, check_open
from tests.depth import examples

SETTINGS = settings(max_examples=examples(300), deadline=None)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"
SYMBOLS = "♣♦♥♠"
RULESETS = {
    "italian": find_rules("italian"),
    "reale": find_rules("reale"),
    "internazionale": find_rules("internazionale"),
}

# ------------------------------------------------------------------------------ card notation


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_card_notation_round_trip(card: Card) -> None:
    text = str(card)
    assert Card.parse(text) == card
    assert Card.parse(text.lower()) == card
    assert Card.parse(f"  {text} ") == card
    assert repr(card) == f"Card.parse({text!r})"
    assert eval(repr(card), {"Card": Card}) == card
    if card.is_joker:
        assert text == "JK"
        assert card.rank == 0 and card.suit == -1
        return
    rank, suit = RANKS[card.rank - 1], SUITS[card.suit]
    assert text == rank + suit
    assert Card.parse(rank + SYMBOLS[card.suit]) == card
    if rank == "10":
        assert Card.parse("T" + suit) == card
        assert Card.parse("t" + suit.lower()) == card
        assert Card.parse("T" + SYMBOLS[card.suit]) == card


def test_all_card_texts_are_distinct() -> None:
    assert len({str(c) for c in CARDS}) == 53
    assert [int(c) for c in CARDS] == list(range(53))


@SETTINGS
@given(st.text(max_size=6))
def test_card_parse_never_crashes(text: str) -> None:
    """Any text is a card or a NotationError; a card read from text writes back to its form."""
    try:
        card = Card.parse(text)
    except NotationError:
        return
    assert Card.parse(str(card)) == card


@SETTINGS
@given(
    st.sampled_from(CARDS),
    st.sampled_from(["upper", "lower", "symbol", "ten"]),
)
def test_card_spellings(card: Card, spelling: str) -> None:
    if card.is_joker:
        text = {"upper": "JK", "lower": "jk", "symbol": "Jk", "ten": "joker"}[spelling]
    else:
        rank, suit = RANKS[card.rank - 1], SUITS[card.suit]
        if spelling == "lower":
            text = (rank + suit).lower()
        elif spelling == "symbol":
            text = rank + SYMBOLS[card.suit]
        elif spelling == "ten" and rank == "10":
            text = "t" + suit
        else:
            text = rank + suit
    assert Card.parse(text) == card


# ---------------------------------------------------------------------------- action notation

cards_st = st.sampled_from(CARDS)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    seat = draw(st.integers(0, 3))
    verb = draw(st.sampled_from(list(Verb)))
    if verb in (DRAW, PICKUP):
        return Action.make(seat, verb)
    if verb == DISCARD:
        return Action.make(seat, verb, [draw(cards_st)])
    cards = draw(st.lists(cards_st, min_size=1, max_size=14))
    meld = draw(st.integers(1, 30)) if verb == ATTACH else 0
    return Action.make(seat, verb, cards, meld)


@SETTINGS
@given(actions())
def test_action_notation_round_trip(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert Action.parse(text.upper()) == action
    assert Action.parse(f"  {text}  ".replace(" ", "   ")) == action
    assert eval(repr(action), {"Action": Action}) == action
    assert Action.parse(action.text(seat=False).join([f"{action.seat} ", ""])) == action
    assert list(action.cards) == sorted(action.cards)


@SETTINGS
@given(actions(), st.randoms(use_true_random=False))
def test_action_card_order_does_not_matter(action: Action, rng: random.Random) -> None:
    words = str(action).split()
    head = 3 if action.verb == ATTACH else 2
    tail = words[head:]
    rng.shuffle(tail)
    assert Action.parse(" ".join(words[:head] + tail)) == action


@SETTINGS
@given(st.text(alphabet=" 0123456789drawpickupopenattachiscJKQAHSCDT♣♦♥♠", max_size=30))
def test_action_parse_never_crashes(text: str) -> None:
    """Any text is an action or a NotationError; what parses writes back to an equal action."""
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert Action.parse(str(action)) == action


# ----------------------------------------------------------------- brute-force meld validator

WILD = 0
"""Position code of a card read as the wild."""


class Reading(NamedTuple):
    """One way to read a multiset as a meld."""

    kind: str
    """``run`` or ``set``."""
    key: int
    """The run's suit, or the set's rank."""
    naturals: int
    """Run: bit p for each position p held by a natural card (1..14). Set: 0."""
    wilds: int
    wild_positions: frozenset[int]
    """Run: where the wild may stand (one gap, or either free end). Set: empty."""


def is_wild_kind(card: int) -> bool:
    return card == 52 or card % 13 == 1


def contiguous(positions: Sequence[int]) -> bool:
    return max(positions) - min(positions) + 1 == len(positions)


def run_readings(cards: Sequence[int], suit: int, rules: Rules) -> list[Reading]:
    """Every reading of ``cards`` as a run of ``suit`` (R29-R35)."""
    options: list[list[int]] = []
    for c in cards:
        if c == 52:
            options.append([WILD])
        elif c % 13 == 1:  # a two: natural at position 2 only if of the run's suit (R34)
            options.append([2, WILD] if c // 13 == suit else [WILD])
        elif c // 13 != suit:
            return []  # a natural of another suit (R29)
        elif c % 13 == 0:
            options.append([1, 14])  # the ace, low or high (R29)
        else:
            options.append([c % 13 + 1])
    out = []
    for choice in itertools.product(*options):
        positions = [p for p in choice if p != WILD]
        wilds = len(choice) - len(positions)
        if wilds > 1 or len(positions) < 2:  # R24, R25
            continue
        if len(set(positions)) != len(positions):
            continue
        if positions.count(1) + positions.count(14) > rules.max_natural_aces_per_run:  # R31
            continue
        if wilds == 0:
            if contiguous(positions):
                out.append(Reading("run", suit, sum(1 << p for p in positions), 0, frozenset()))
            continue
        places = frozenset(
            p
            for p in range(1, 15)  # R30: within 1..14, no wrap
            if p not in positions and contiguous([*positions, p])
        )
        if places:
            out.append(Reading("run", suit, sum(1 << p for p in positions), 1, places))
    return out


def set_reading(cards: Sequence[int], rules: Rules) -> Reading | None:
    """The reading of ``cards`` as a set, if there is one (R26): 2s and jokers are wild."""
    naturals = [c for c in cards if not is_wild_kind(c)]
    wilds = len(cards) - len(naturals)
    if len(naturals) < 2 or wilds > 1:
        return None
    ranks = {c % 13 + 1 for c in naturals}
    if len(ranks) != 1:
        return None
    (rank,) = ranks
    if rank not in rules.set_ranks:
        return None
    return Reading("set", rank, 0, wilds, frozenset())


def readings(cards: Sequence[int], rules: Rules) -> list[Reading]:
    """Every valid reading of ``cards`` as a meld of at least three cards (R21)."""
    if len(cards) < 3:
        return []
    out = [r for suit in range(4) for r in run_readings(cards, suit, rules)]
    as_set = set_reading(cards, rules)
    if as_set is not None:
        out.append(as_set)
    return out


def stored_reading(meld: Meld) -> Reading:
    """How the engine reads a meld."""
    if meld.is_set:
        return Reading("set", meld.rank, 0, int(meld.wild is not None), frozenset())
    return Reading("run", meld.suit, meld.mask, int(meld.wild is not None), frozenset())


def meld_cards(meld: Meld) -> list[int]:
    return sorted([*meld.naturals, *([meld.wild] if meld.wild is not None else [])])


def assert_is_a_reading(meld: Meld, options: list[Reading]) -> None:
    """The engine's reading of ``meld`` is among ``options`` and has the fewest wilds (R35)."""
    fewest = min(r.wilds for r in options)
    assert int(meld.wild is not None) == fewest, f"{meld.notation()}: not the fewest wilds"
    mine = stored_reading(meld)
    same = [r for r in options if r[:4] == mine[:4]]
    assert same, f"{meld.notation()} is not a valid reading of its cards"
    if meld.is_run and meld.wild is not None:
        assert meld.wild_position() in same[0].wild_positions
        naturals = [p for p in range(1, 15) if meld.mask >> p & 1]
        internal = min(naturals) < meld.wild_position() < max(naturals)
        assert meld.wild_is_floating() == (not internal)  # R37
        if internal:
            assert same[0].wild_positions == {meld.wild_position()}
    if meld.is_set:
        assert all(c % 13 + 1 == meld.rank for c in meld.naturals)


# ------------------------------------------------------------------------- meld strategies


def deck_limited(cards: list[int], rules: Rules) -> list[Card]:
    """Drop the copies beyond what the deck holds (2 of each card, ``rules.jokers`` jokers)."""
    seen: Counter[int] = Counter()
    out = []
    for c in cards:
        limit = rules.jokers if c == 52 else 2
        if seen[c] < limit:
            seen[c] += 1
            out.append(CARDS[c])
    return out


def position_card(suit: int, position: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


WILD_KINDS = (52, 1, 14, 27, 40)
"""The joker and the four twos."""


@st.composite
def near_run(draw: st.DrawFn) -> list[int]:
    """A stretch of one suit, perhaps with a card dropped, wilds or a stray card added."""
    suit = draw(st.integers(0, 3))
    low = draw(st.integers(1, 13))
    high = min(14, low + draw(st.integers(1, 13)))
    cards = [position_card(suit, p) for p in range(low, high + 1)]
    if draw(st.booleans()):
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    cards += draw(st.lists(st.sampled_from(WILD_KINDS), max_size=2))
    extra = draw(st.integers(0, 5))
    if extra == 0:
        cards.append(draw(st.integers(0, 52)))
    elif extra == 1:
        cards.append(position_card(suit, draw(st.sampled_from([1, 2, 13, 14]))))
    return cards


@st.composite
def near_set(draw: st.DrawFn) -> list[int]:
    """Cards of one rank, perhaps with wilds or a stray card."""
    rank = draw(st.sampled_from([1, 3, 3, 5, 9, 13]))
    cards = draw(st.lists(st.integers(0, 3).map(lambda s: s * 13 + rank - 1), max_size=8))
    cards += draw(st.lists(st.sampled_from(WILD_KINDS), max_size=2))
    if draw(st.integers(0, 4)) == 0:
        cards.append(draw(st.integers(0, 52)))
    return cards


card_lists = st.one_of(
    near_run(),
    near_run(),
    near_set(),
    st.lists(st.integers(0, 52), max_size=8),
)
rulesets = st.sampled_from(sorted(RULESETS))


# ----------------------------------------------------------------------- meld properties


@settings(max_examples=examples(500), deadline=None)
@given(card_lists, rulesets)
def test_check_open_agrees_with_brute_force(raw: list[int], ruleset: str) -> None:
    """R21-R35: check_open accepts a multiset iff some reading exists, with the fewest wilds."""
    rules = RULESETS[ruleset]
    cards = deck_limited(raw, rules)
    options = readings(cards, rules)
    result = check_open(cards, rules)
    if not options:
        assert isinstance(result, MeldError), f"{cards} accepted as {result!r}"
        assert result.rule.startswith("R")
        return
    assert isinstance(result, Meld), f"{cards} has a reading {options[0]} but: {result}"
    assert meld_cards(result) == sorted(cards)
    assert len(result) == len(cards)
    assert_is_a_reading(result, options)


@st.composite
def base_melds(draw: st.DrawFn, rules: Rules) -> Meld:
    """A valid meld to extend."""
    for _ in range(20):
        cards = deck_limited(draw(st.one_of(near_run(), near_set())), rules)
        meld = check_open(cards, rules)
        if isinstance(meld, Meld):
            return meld
    return check_open_strict([Card.parse(c) for c in ("5H", "6H", "7H")], rules)


def check_open_strict(cards: list[Card], rules: Rules) -> Meld:
    meld = check_open(cards, rules)
    assert isinstance(meld, Meld)
    return meld


def near_meld(meld: Meld) -> st.SearchStrategy[int]:
    """Cards that could plausibly join ``meld``: its rank, or positions near or inside the run."""
    if meld.is_set:
        return st.sampled_from([s * 13 + meld.rank - 1 for s in range(4)])
    naturals = [p for p in range(1, 15) if meld.mask >> p & 1]
    low, high = min(naturals), max(naturals)
    near = [p for p in range(low - 2, high + 3) if 1 <= p <= 14 and p not in naturals]
    near += [2, 14, 1]
    return st.sampled_from([position_card(meld.suit, p) for p in near])


def extension_readings(meld: Meld, extra: Sequence[int], rules: Rules) -> list[Reading]:
    """Readings of meld + extra in which the meld's naturals keep their positions (R23, R33)."""
    combined = meld_cards(meld) + list(extra)
    if meld.is_set:
        as_set = set_reading(combined, rules)
        if as_set is None or as_set.key != meld.rank:
            return []
        if meld.wild is not None and as_set.wilds != 1:
            return []  # R28: the set's wild never leaves it
        return [as_set]
    return [
        r for r in run_readings(combined, meld.suit, rules) if r.naturals & meld.mask == meld.mask
    ]


@settings(max_examples=examples(500), deadline=None)
@given(st.data(), rulesets)
def test_check_extend_agrees_with_brute_force(data: st.DataObject, ruleset: str) -> None:
    """R23, R33, R35, R37, R38: an attach is valid iff the whole can be read with the meld's
    naturals where they were; naturals never move; the fewest wilds are used."""
    rules = RULESETS[ruleset]
    meld = data.draw(base_melds(rules))
    old = meld_cards(meld)
    raw = data.draw(
        st.lists(
            st.one_of(near_meld(meld), near_meld(meld), st.sampled_from(WILD_KINDS), cards_st),
            min_size=1,
            max_size=4,
        )
    )
    cards = deck_limited(old + raw, rules)[len(old) :]
    assume(cards)
    result = check_extend(meld, cards, rules)
    options = extension_readings(meld, cards, rules)
    if not options:
        assert isinstance(result, MeldError), (
            f"{meld.notation()} + {[str(c) for c in cards]} accepted as {result!r}"
        )
        return
    assert isinstance(result, Meld), (
        f"{meld.notation()} + {[str(c) for c in cards]}: {options[0]} exists but {result}"
    )
    assert meld_cards(result) == sorted([*old, *cards])
    assert result.kind == meld.kind
    if meld.is_run:
        assert result.suit == meld.suit
        assert result.mask & meld.mask == meld.mask, "a natural card moved (R33, R37)"
    else:
        assert result.rank == meld.rank
        if meld.wild is not None:
            assert result.wild == meld.wild  # R28
    assert_is_a_reading(result, options)


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), rulesets)
def test_repeated_extensions_keep_naturals(data: st.DataObject, ruleset: str) -> None:
    """Growing a meld card by card: natural positions only ever grow (R33, R37)."""
    rules = RULESETS[ruleset]
    meld = data.draw(base_melds(rules))
    for _ in range(data.draw(st.integers(1, 8))):
        pool = [position_card(meld.suit, p) for p in range(1, 15)] if meld.is_run else []
        pool += [s * 13 + meld.rank - 1 for s in range(4)] if meld.is_set else []
        pool += WILD_KINDS
        card = data.draw(st.sampled_from(pool))
        extra = deck_limited([*meld_cards(meld), card], rules)[len(meld) :]
        if not extra:
            continue
        grown = check_extend(meld, extra, rules)
        if isinstance(grown, MeldError):
            assert not extension_readings(meld, extra, rules)
            continue
        if meld.is_run:
            assert grown.mask & meld.mask == meld.mask
        assert len(grown) == len(meld) + 1
        meld = grown
