"""A simple greedy bot: meld whatever scores now, keep wild cards, discard what helps nobody.

It looks one action ahead only. The heuristic and search bots of the bots issue build on the same
building blocks (``card_links``, ``meld_result``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from burraco.engine import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action, Meld
from burraco.engine.cards import CARDS, is_wild_kind
from burraco.engine.melds import MeldError, check_extend, check_open
from burraco.engine.rules import Rules
from burraco.engine.views import SeatView


def meld_result(view: SeatView, action: Action) -> Meld | None:
    """The meld an OPEN or ATTACH of the view's seat would produce (None if invalid)."""
    if action.verb == OPEN:
        result = check_open(action.cards, view.rules)
    else:
        result = check_extend(view.melds[view.line][action.meld - 1], action.cards, view.rules)
    return None if isinstance(result, MeldError) else result


def card_links(card: int, hand: Sequence[int]) -> int:
    """How many cards of ``hand`` (counts) could form a meld with ``card``: same rank, or the same
    suit within two ranks. Wilds link to everything."""
    if is_wild_kind(card):
        return 5
    suit, rank = divmod(card, 13)
    links = 0
    for s in range(4):
        other = s * 13 + rank
        links += hand[other] - (1 if other == card else 0)
    for delta in (-2, -1, 1, 2):
        r = rank + delta
        if r == -1:
            r = 12  # king next to a low ace
        if 0 <= r < 13 and not is_wild_kind(suit * 13 + r):  # twos are wild, not neighbours
            links += hand[suit * 13 + r]
    return links


def fits_melds(card: int, melds: Sequence[Meld], rules: Rules) -> bool:
    """Whether ``card`` alone would attach to one of ``melds``."""
    for meld in melds:
        result = check_extend(meld, (CARDS[card],), rules)
        if not isinstance(result, MeldError):
            return True
    return False


class GreedyBot:
    """One-step greedy play with a few rules of thumb."""

    def __init__(self, seed: int | None = None, *, name: str = "greedy") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def close(self) -> None:
        pass

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if legal[0].verb in (DRAW, PICKUP):
            return self._acquire(view, legal)
        melds = [a for a in legal if a.verb in (OPEN, ATTACH)]
        discards = [a for a in legal if a.verb == DISCARD]
        closing = self._closing(view, discards)
        if closing is not None:
            return closing
        best = self._best_meld(view, melds)
        if best is not None or not discards:
            return best if best is not None else melds[0]
        return self._discard(view, discards)

    def _acquire(self, view: SeatView, legal: Sequence[Action]) -> Action:
        pickup = next((a for a in legal if a.verb == PICKUP), None)
        draw = next((a for a in legal if a.verb == DRAW), None)
        if pickup is None:
            assert draw is not None
            return draw
        own = view.melds[view.line]
        useful = 0.0
        for card in view.pile:
            if is_wild_kind(card):
                useful += 2
            elif fits_melds(card, own, view.rules):
                useful += 1.5
            elif card_links(card, view.hand) >= 2:
                useful += 1
            else:
                useful -= 0.4
        if useful >= 1.5 or draw is None:
            return pickup
        return draw

    def _closing(self, view: SeatView, discards: Sequence[Action]) -> Action | None:
        size = sum(view.hand) + view.hidden_own
        if size == 1 and view.taken[view.line] and discards:
            return discards[0]  # the only card left: a legal discard here is a closing
        return None

    def _best_meld(self, view: SeatView, melds: Sequence[Action]) -> Action | None:
        rules = view.rules
        best: tuple[float, Action] | None = None
        size = sum(view.hand)
        for action in melds:
            result = meld_result(view, action)
            if result is None:
                continue
            gain = float(sum(rules.card_value(c) for c in action.cards))
            before = 0 if action.verb == OPEN else len(view.melds[view.line][action.meld - 1])
            if len(result) >= rules.burraco_min_length > before:
                gain += 150 if result.wild is None else 80
            wilds = sum(1 for c in action.cards if is_wild_kind(c) and c not in result.naturals)
            if wilds and len(result) < rules.burraco_min_length - 1:
                gain -= 35  # a wild spent on a short meld
            if len(action.cards) == size and not view.taken[view.line]:
                gain += 60  # empties the hand: pozzetto in diretta
            if best is None or gain > best[0]:
                best = (gain, action)
        if best is None or best[0] <= 0:
            return None
        return best[1]

    def _discard(self, view: SeatView, discards: Sequence[Action]) -> Action:
        rules = view.rules
        opponents = [m for line, ms in enumerate(view.melds) if line != view.line for m in ms]
        own = view.melds[view.line]

        def keep(action: Action) -> tuple[float, float]:
            card = action.card
            if is_wild_kind(card):
                value = 100.0
            else:
                value = 12.0 * card_links(card, view.hand)
                if fits_melds(card, own, rules):
                    value += 30
            if opponents and not is_wild_kind(card) and fits_melds(card, opponents, rules):
                value += 25  # do not feed the opponents
            # Among equals, drop the card that would cost most if caught in hand.
            return (value - rules.card_value(card) / 10, self.rng.random())

        return min(discards, key=keep)
