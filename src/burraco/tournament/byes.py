"""Byes for odd numbers (RULES.md T20): who sits out a round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .entrants import EntrantId

BYE_VP = 10
"""T20 ``bye_vp``: a bye (and a club rest, T29) is worth 10 VP and 0 MP."""


def choose_byes(
    order: Sequence[EntrantId], bye_counts: Mapping[EntrantId, int], count: int = 1
) -> tuple[EntrantId, ...]:
    """T20: the lowest-ranked entrants (``order`` is best first) who have not yet had a bye.

    When everyone has had one, the fewest byes count first: nobody gets a second bye before
    everyone has had one, nor a third before everyone has had two.
    """
    if count > len(order):
        raise ValueError(f"{count} byes among {len(order)} entrants")
    ranked = sorted(
        range(len(order)), key=lambda i: (bye_counts.get(order[i], 0), -i)
    )  # fewest byes first, then the lowest-ranked
    return tuple(order[i] for i in ranked[:count])
