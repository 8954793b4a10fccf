"""Whole-turn plans: what a good club player does with the cards he holds.

The planner reads a ``Table`` (``table.py``): what one seat may see, built from a ``SeatView``
(the heuristic bot) or from a full state for the seat to act (the search bot's rollouts, where
the policy reads that seat's hand and the public facts only), with the ``Style`` constants of its
rules of thumb. Its parts, one concern each:

- ``turn.py``: ``plan_turn``, the rest of the turn (meld actions, then the discard), with the
  ``PlanOptions`` the search bot varies;
- ``builder.py``: the hand and the line's melds as planned meld actions change them;
- ``naturals.py``: natural melds first (two orders tried, the one that melds more kept);
- ``wilds.py``: wild cards kept, and only spent to go out, to close, to complete a burraco when
  it is worth it, or to unload them at the end;
- ``outlook.py``: live outs, the score if the smazzata ended now, threats, whether to close;
- ``discard.py``: the card least useful to the own hand and to the next opponent;
- ``pickup.py``: ``want_pickup``, drawing or picking up the discard pile;
- ``geometry.py``: where cards stand in runs (from the engine's ``position_card`` and
  ``is_wild_kind``).

Importers name the module that defines what they use (``from burraco.bots.plans.turn import
plan_turn``); this package module re-exports nothing.
"""
