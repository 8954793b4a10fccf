"""``plan_turn``: the rest of the turn for the seat to act, as a good club player plays it.

A plan is the list of actions of the rest of the turn: meld actions, then the discard (or nothing
after a meld that empties the hand for a pozzetto in diretta, since the pozzetto's cards are not
known before it is taken). The steps:

1. natural melds first (``naturals``);
2. wild cards only where they pay (``wilds``): to empty the hand for the pozzetto, to close, to
   complete a burraco, to unload them at the end;
3. closing: when the line has its pozzetto and a burraco, close if it is worth it (``outlook``),
   else keep two cards;
4. the discard (``discard``).

When the hand the melds leave allows no legal end of turn, melds are undone (the last first, card
by card) until it does (``_trim``).
"""

from __future__ import annotations

from typing import NamedTuple

from burraco.engine.actions import DISCARD, OPEN, PICKUP, Action
from burraco.engine.cards import CARDS, is_wild_kind

from .builder import Builder
from .discard import choose_discard, discard_ranking, discardable
from .naturals import natural_phase
from .outlook import want_close
from .table import Table
from .wilds import burraco_for_closing, burraco_with_wild, dump_time, dump_wilds, use_wilds

_new_action = tuple.__new__


class PlanOptions(NamedTuple):
    """Knobs for plan variants (the search bot tries several)."""

    close: int = 0
    """0: decide by the rule of thumb; 1: close if at all possible; -1: never close."""
    wilds: int = 0
    """0: rule of thumb; 1: spend wild cards on any meld they fit; -1: only to go out or close."""
    discard: int = -1
    """A card to discard (if it is left and legal); -1: the planner's choice."""
    hold: bool = False
    """Open no new meld (only attach to the line's melds), unless it empties the hand."""


DEFAULT_OPTIONS = PlanOptions()


class Plan(NamedTuple):
    actions: tuple[Action, ...]
    """Meld actions, then the discard (none when the last meld takes a pozzetto in diretta)."""
    closes: bool
    """The discard closes the smazzata."""
    left: tuple[int, ...]
    """The hand after the melds (before the discard), as a sorted card list."""


def plan_turn(table: Table, options: PlanOptions = DEFAULT_OPTIONS) -> Plan | None:
    """The rest of the turn for the seat to act (in the PLAY phase), or None if the planner
    finds no legal way (the caller then falls back on the legal actions)."""
    taken = table.taken[table.line]
    b = natural_phase(table, options.hold)
    if not taken:
        b = _race_to_pozzetto(table, b, options)
    else:
        after = _close_or_keep_two(table, b, options)
        if after is None:
            return None
        b = after
    closing_now = taken and b.size == 1
    if not closing_now and b.size > 1 and options.wilds >= 0:
        burraco_with_wild(table, b, force=options.wilds > 0)
        if options.wilds > 0 or (options.wilds == 0 and dump_time(table)):
            dump_wilds(table, b)
    plan = _finish(table, b, options)
    if plan is not None:
        return plan
    # No legal end: keep more cards.
    for keep in (2, 3):
        trimmed = _trim(table, b, keep)
        if trimmed is not None:
            plan = _finish(table, trimmed, options._replace(discard=-1))
            if plan is not None:
                return plan
    return None


def _race_to_pozzetto(table: Table, b: Builder, options: PlanOptions) -> Builder:
    """Before the line's pozzetto: spend wilds if that empties the hand (or leaves one card);
    a held-back plan melds in full when that gets there."""
    if b.size <= 1:
        return b
    trial = b.clone()
    if use_wilds(trial, 1, closing=False):
        return trial
    if options.hold:
        full = natural_phase(table, False)
        trial = full.clone()
        if full.size <= 1:
            return full
        if use_wilds(trial, 1, closing=False):
            return trial
    return b


def _close_or_keep_two(table: Table, b: Builder, options: PlanOptions) -> Builder | None:
    """After the line's pozzetto: close (one natural card left after the melds, with the burraco
    closing needs) if possible and wanted, else keep at least two cards; None if neither works."""
    need_clean = table.rules.closing_requires_clean
    if b.size == 0:
        trimmed = _trim(table, b, 1)
        if trimmed is None:
            return None
        b = trimmed
    trial = b.clone()
    if not trial.has_burraco(need_clean):
        burraco_for_closing(trial)
    if trial.size > 1:
        use_wilds(trial, 1, closing=True)
    can_close = False
    if trial.size == 1:
        last = trial.left()[0]
        can_close = (
            not is_wild_kind(last) and discardable(table, last) and trial.has_burraco(need_clean)
        )
    if can_close and options.close >= 0 and (options.close > 0 or want_close(table, trial)):
        return trial
    if b.size < 2:
        return _trim(table, b, 2)
    return b


def _finish(table: Table, b: Builder, options: PlanOptions) -> Plan | None:
    """Add the discard; None if the builder's hand does not allow a legal end of turn."""
    rules = table.rules
    taken = table.taken[table.line]
    if b.size == 0:
        if taken:
            return None
        return Plan(tuple(b.actions), False, ())
    if (
        rules.pickup_requires_meld
        and table.acquired == PICKUP
        and not table.melded
        and not b.actions
    ):
        return None
    card = choose_discard(table, b, options.discard)
    if card is None:
        return None
    closes = b.size == 1 and taken
    actions = (*b.actions, _new_action(Action, (b.seat, DISCARD, (CARDS[card],), 0)))
    return Plan(actions, closes, b.left())


def _trim(table: Table, b: Builder, keep: int) -> Builder | None:
    """Undo planned melds (the last first, card by card when possible) until ``keep`` cards or
    more are left in the hand."""
    base = Builder(table)
    actions = list(b.actions)
    while actions:
        last = actions.pop()
        # try the last action with fewer cards: replay everything
        for drop in range(1, len(last.cards)):
            trial = base.clone()
            ok = True
            for a in actions:
                if not trial.replay(a):
                    ok = False
                    break
            if not ok:
                break
            partial = _shorter(trial, last, drop)
            if partial is not None and partial.size >= keep:
                return partial
        trial = base.clone()
        if all(trial.replay(a) for a in actions) and trial.size >= keep:
            return trial
    return base if base.size >= keep else None


def _shorter(b: Builder, action: Action, drop: int) -> Builder | None:
    """``action`` with ``drop`` of its cards left out (naturals at the ends first)."""
    cards = list(action.cards)
    # drop wilds first, then the lowest-valued naturals
    order = sorted(cards, key=lambda c: (not is_wild_kind(c), b.rules.card_value(c)))
    for c in order[:drop]:
        cards.remove(c)
    if not cards:
        return None
    trial = b.clone()
    if action.verb == OPEN:
        if len(cards) < 3 or trial.open(cards) is None:
            return None
    elif trial.attach(action.meld - 1, cards) is None:
        return None
    return trial


def discard_ranking_of(table: Table, plan: Plan | None) -> list[int]:
    """The discards of the hand left by ``plan``'s melds, best first."""
    b = Builder(table)
    if plan is not None:
        for action in plan.actions:
            if action.verb != DISCARD and not b.replay(action):
                break
    return discard_ranking(table, b)
