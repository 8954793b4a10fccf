"""The builder: a hand and the line's melds as planned meld actions change them.

Every planned meld is checked by the engine's own ``check_open`` / ``check_extend``, so a plan
never holds a meld the engine would refuse; the builder keeps the hand's count array, its
presence mask and the actions in step. Builders are cloned to try alternatives.
"""

from __future__ import annotations

from collections.abc import Sequence

from burraco.engine.actions import ATTACH, OPEN, Action
from burraco.engine.cards import CARDS, JOKER_ID, NUM_TYPES
from burraco.engine.melds import SET, Meld, MeldError, check_extend, check_open

from .geometry import TWOS
from .table import Table, present_mask

_new_action = tuple.__new__


class Builder:
    """A hand and the line's melds being changed by planned meld actions."""

    __slots__ = ("actions", "hand", "melds", "present", "rules", "seat", "set_ranks", "size")

    def __init__(self, table: Table, hand: Sequence[int] | None = None) -> None:
        self.rules = table.rules
        self.seat = table.seat
        self.hand = list(table.hand if hand is None else hand)
        self.size = sum(self.hand)
        self.present = table.present if hand is None else present_mask(self.hand)
        self.melds = list(table.melds[table.line])
        self.actions: list[Action] = []
        self.set_ranks = {m.rank for m in self.melds if m.kind == SET}

    def clone(self) -> Builder:
        b = object.__new__(Builder)
        b.rules = self.rules
        b.seat = self.seat
        b.hand = self.hand[:]
        b.size = self.size
        b.present = self.present
        b.melds = self.melds[:]
        b.actions = self.actions[:]
        b.set_ranks = set(self.set_ranks)
        return b

    def open(self, cards: Sequence[int]) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        result = check_open(key, self.rules)
        if isinstance(result, MeldError):
            return None
        if result.kind == SET and result.rank in self.set_ranks:
            return None
        self._remove(key)
        self.melds.append(result)
        if result.kind == SET:
            self.set_ranks.add(result.rank)
        self.actions.append(_new_action(Action, (self.seat, OPEN, key, 0)))
        return result

    def _remove(self, cards: Sequence[int]) -> None:
        hand = self.hand
        for c in cards:
            hand[c] -= 1
            if not hand[c]:
                self.present &= ~(1 << c)
        self.size -= len(cards)

    def try_attach(self, index: int, cards: Sequence[int]) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        result = check_extend(self.melds[index], key, self.rules)
        return None if isinstance(result, MeldError) else result

    def attach(self, index: int, cards: Sequence[int], result: Meld | None = None) -> Meld | None:
        key = tuple(sorted(CARDS[c] for c in cards))
        if result is None:
            checked = check_extend(self.melds[index], key, self.rules)
            if isinstance(checked, MeldError):
                return None
            result = checked
        self._remove(key)
        self.melds[index] = result
        # Attaches to the same meld merge into one action.
        actions = self.actions
        if actions and actions[-1].verb == ATTACH and actions[-1].meld == index + 1:
            merged = tuple(sorted((*actions[-1].cards, *key)))
            actions[-1] = _new_action(Action, (self.seat, ATTACH, merged, index + 1))
        else:
            actions.append(_new_action(Action, (self.seat, ATTACH, key, index + 1)))
        return result

    def replay(self, action: Action) -> bool:
        """Play a meld action of an earlier plan again; False if it no longer applies."""
        if action.verb == OPEN:
            return self.open(action.cards) is not None
        return self.attach(action.meld - 1, action.cards) is not None

    def wilds(self) -> list[int]:
        """The wild cards of the hand, one entry per copy: jokers first, then the twos."""
        hand = self.hand
        out = [JOKER_ID] * hand[JOKER_ID]
        for two in TWOS:
            out.extend([two] * hand[two])
        return out

    def left(self) -> tuple[int, ...]:
        hand = self.hand
        return tuple(c for c in range(NUM_TYPES) for _ in range(hand[c]))

    def has_burraco(self, clean: bool) -> bool:
        need = self.rules.burraco_min_length
        return any(len(m) >= need and (not clean or m.wild is None) for m in self.melds)
