"""Which matches are rated (issue 16): chosen when the table is created; a match to a target, or
of at least ``min_smazzate`` smazzate (Burraconline does not rate 1 or 2), or a tournament's;
never with a guest or an outside program at the table."""

from __future__ import annotations

from collections.abc import Sequence

from .settings import RatingSettings


def unrated_reason(
    settings: RatingSettings,
    *,
    target: int | None,
    smazzate: int | None,
    tournament: bool,
    seats: Sequence[str | None],
) -> str | None:
    """Why such a match cannot be rated (a code: ``too_short``, ``guest``, ``outside_bot``), or
    None when it can. ``seats``: ``user:ID``, ``bot:LEVEL``, ``guest`` or None (empty)."""
    if not tournament and target is None and (smazzate or 0) < settings.min_smazzate:
        return "too_short"
    if any(seat == "guest" for seat in seats):
        return "guest"
    if any(seat is not None and seat.startswith("bot:cmd") for seat in seats):
        return "outside_bot"
    return None
