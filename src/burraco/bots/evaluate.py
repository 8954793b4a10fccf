"""Evaluation of a smazzata in progress: the expected final score difference for one line.

The search bot plays a few turns of every determinization with the heuristic and then calls
``evaluate``: the exact score difference if the smazzata is over, else a linear estimate from
features of each line (banked meld points and bonuses, cards and points in hand, whether the line
has its pozzetto and can close, melds one or two cards short of a burraco, wild cards and partial
melds in hand, the discard pile for the line to move), most of them read against the time left
(the share of the stock still to draw). The estimate is the weighted sum of the differences
between the line's features and the other lines'.

The weights were fitted by least squares on heuristic self-play (about 40,000 to 120,000 turn
starts per family of tables): the feature differences at the start of a turn against the final
score difference of the smazzata. Three weights are fixed rather than fitted, so that the
estimate keeps its meaning off the beaten track: banked points count 1, a card in hand at the end
costs its points (-1 at time 0), and a missing pozzetto costs the 100-point penalty at the end.
There is one set of weights per family: 2, 3 and 4 players, and the rulesets whose closing needs
a clean burraco (``weights_for``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from burraco.engine.cards import NUM_TYPES, is_wild_kind
from burraco.engine.deal import pozzetto_layout
from burraco.engine.rules import Rules

if TYPE_CHECKING:
    from burraco.engine.state import Smazzata

FEATURES: Final = (
    "table",
    "hand_points",
    "hand_points_time",
    "hand_cards_time",
    "no_pozzetto",
    "no_pozzetto_time",
    "short1_clean",
    "short1_dirty",
    "short2",
    "wilds_time",
    "can_close",
    "can_close_small",
    "to_move",
    "hand_points_threat",
    "no_pozzetto_threat",
    "structure",
    "structure_time",
    "pile_to_move",
    "open_melds_time",
)

WEIGHTS_2P: Final[tuple[float, ...]] = (
    1.000,
    -1.000,
    1.646,
    21.883,
    -100.000,
    357.988,
    84.429,
    59.978,
    26.941,
    -3.554,
    162.907,
    -15.461,
    -12.320,
    -0.689,
    -141.409,
    0.000,
    0.021,
    13.000,
    41.359,
)
"""Two players (and the fallback): italian, classic, semipulito."""

WEIGHTS_3P: Final[tuple[float, ...]] = (
    1.000,
    -1.000,
    1.312,
    20.005,
    -100.000,
    363.188,
    71.460,
    48.064,
    25.833,
    9.561,
    60.714,
    132.444,
    -3.665,
    0.811,
    -145.722,
    0.000,
    -1.594,
    9.649,
    27.756,
)
"""Three players (solo against a pair)."""

WEIGHTS_4P: Final[tuple[float, ...]] = (
    1.000,
    -1.000,
    1.605,
    1.496,
    -100.000,
    191.804,
    65.097,
    27.543,
    17.848,
    27.699,
    41.253,
    208.042,
    7.829,
    0.983,
    -61.874,
    0.000,
    9.082,
    5.750,
    22.632,
)
"""Four players in two pairs."""

WEIGHTS_2P_CLEAN: Final[tuple[float, ...]] = (
    1.000,
    -1.000,
    2.665,
    6.459,
    -100.000,
    304.326,
    85.671,
    35.667,
    24.194,
    51.032,
    154.266,
    -132.765,
    5.797,
    -0.800,
    90.118,
    0.000,
    27.591,
    2.568,
    88.958,
)
"""Two players, closing needs a clean burraco (reale, internazionale)."""

WEIGHTS_4P_CLEAN: Final[tuple[float, ...]] = (
    1.000,
    -1.000,
    1.930,
    10.340,
    -100.000,
    279.574,
    67.851,
    26.243,
    16.704,
    64.020,
    150.438,
    -105.212,
    5.444,
    1.303,
    -79.355,
    0.000,
    14.864,
    3.553,
    72.218,
)
"""Four players, closing needs a clean burraco (reale, internazionale)."""

WEIGHTS: Final = WEIGHTS_2P


def weights_for(rules: Rules) -> tuple[float, ...]:
    """The fitted weights for a table of these rules."""
    if rules.players == 3:
        return WEIGHTS_3P
    if rules.closing_requires_clean:
        return WEIGHTS_4P_CLEAN if rules.players == 4 else WEIGHTS_2P_CLEAN
    return WEIGHTS_4P if rules.players == 4 else WEIGHTS_2P


def line_features(state: Smazzata, line: int) -> list[float]:
    """The features of ``line`` in ``state`` (a full state: every hand is known)."""
    rules = state.rules
    need = rules.burraco_min_length
    value = rules.card_value
    seats = [s for s in range(state.n) if state.line_of[s] == line]
    playable = max(0, len(state.stock) - rules.stock_end_threshold)
    initial = max(1, _initial_stock(state) - rules.stock_end_threshold)
    time = min(1.0, playable / initial)
    table = 0
    short1_clean = short1_dirty = short2 = 0
    open_melds = 0
    burraco = False
    for m in state.melds[line]:
        length = len(m)
        table += m.points(rules) + m.bonus(rules)
        if length >= need:
            if not rules.closing_requires_clean or m.wild is None:
                burraco = True
            continue
        open_melds += 1
        if length == need - 1:
            if m.wild is None:
                short1_clean += 1
            else:
                short1_dirty += 1
        elif length == need - 2:
            short2 += 1
    hand_points = 0
    hand_cards = 0
    wilds = 0
    structure = 0
    smallest = 99
    set_ranks = rules.set_ranks
    for seat in seats:
        hand = state.hands[seat]
        size = state.sizes[seat]
        hand_cards += size
        smallest = min(smallest, size)
        for c in range(NUM_TYPES):
            k = hand[c]
            if k:
                hand_points += value(c) * k
                if is_wild_kind(c):
                    wilds += k
                elif c % 13 != 12 and hand[c + 1]:
                    structure += 1  # a run connector (the next rank of the suit)
        for r in range(13):
            if (
                not is_wild_kind(r)  # r is also the clubs card of rank r + 1; twos pair no set
                and (r + 1) in set_ranks
                and hand[r] + hand[13 + r] + hand[26 + r] + hand[39 + r] >= 2
            ):
                structure += 1  # a pair for a set
    taken = state.taken[line]
    no_pozzetto = 0.0 if taken else 1.0
    can_close = 1.0 if taken and burraco else 0.0
    to_move = 1.0 if state.line_of[state.current] == line else 0.0
    return [
        float(table),
        float(hand_points),
        hand_points * time,
        hand_cards * time,
        no_pozzetto,
        no_pozzetto * time,
        float(short1_clean),
        float(short1_dirty),
        float(short2),
        wilds * time,
        can_close,
        can_close / (1 + smallest),
        to_move,
        float(hand_points),  # times the others' threat, see feature_difference
        no_pozzetto,  # likewise
        float(structure),
        structure * time,
        to_move * len(state.pile),
        open_melds * time,
    ]


_THREAT_FEATURES: Final = (
    FEATURES.index("hand_points_threat"),
    FEATURES.index("no_pozzetto_threat"),
)
_CLOSE_SMALL: Final = FEATURES.index("can_close_small")


def _initial_stock(state: Smazzata) -> int:
    rules = state.rules
    dealt = rules.hand_size * state.n + int(rules.initial_discard)
    return rules.deck_size - dealt - sum(pozzetto_layout(rules, late=state.late))


def feature_difference(state: Smazzata, line: int) -> list[float]:
    """Features of ``line`` minus the mean features of the other lines."""
    lines = sorted(set(state.line_of))
    feats = {ln: line_features(state, ln) for ln in lines}
    # threat features: a line's hand points and missing pozzetto, times how close the most
    # dangerous other line is to closing
    for ln in lines:
        threat = max((feats[o][_CLOSE_SMALL] for o in lines if o != ln), default=0.0)
        for i in _THREAT_FEATURES:
            feats[ln][i] *= threat
    mine = feats[line]
    others = [ln for ln in lines if ln != line]
    if not others:
        return mine
    total = [0.0] * len(mine)
    for other in others:
        for i, x in enumerate(feats[other]):
            total[i] += x
    k = len(others)
    return [a - b / k for a, b in zip(mine, total, strict=True)]


def final_difference(state: Smazzata, seat: int) -> float:
    """The score of ``seat``'s line minus the mean of the other lines, at the end."""
    score = state.score()
    mine = 0
    others: list[int] = []
    for ls in score.lines:
        if seat in ls.seats:
            mine = ls.score
        else:
            others.append(ls.score)
    return mine - (sum(others) / len(others) if others else 0.0)


def evaluate(state: Smazzata, seat: int, weights: Sequence[float] | None = None) -> float:
    """Expected final score difference for ``seat``'s line (exact once the smazzata is over)."""
    if state.is_over:
        return final_difference(state, seat)
    if weights is None:
        weights = weights_for(state.rules)
    diff = feature_difference(state, state.line_of[seat])
    return sum(w * x for w, x in zip(weights, diff, strict=True))


__all__ = [
    "FEATURES",
    "WEIGHTS",
    "evaluate",
    "feature_difference",
    "final_difference",
    "weights_for",
]
