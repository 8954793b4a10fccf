"""The lifecycles of an online tournament, its entrants and its rounds (the stored strings).

Each value is the text the store keeps and the HTTP JSON shows, so comparing a stored string
with a member is the same as comparing it with the text: ``TournamentStatus.RUNNING ==
"running"``.
"""

from __future__ import annotations

from enum import StrEnum


class TournamentStatus(StrEnum):
    """Where a tournament is: ``registering`` -> ``running`` -> ``finished``, or
    ``registering`` -> ``cancelled`` (T1: too few players)."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        """Still registering or being played (listed first, resumed after a restart)."""
        return self in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


ACTIVE_TOURNAMENTS: tuple[TournamentStatus, ...] = (
    TournamentStatus.REGISTERING,
    TournamentStatus.RUNNING,
)


class EntrantStatus(StrEnum):
    """Where an entrant is. A pair is ``invited`` until the partner confirms it, then
    ``registered``; at the start (T1) the registered are ``playing`` or ``excluded`` (beyond the
    table-size multiple, or everyone when the tournament is cancelled) and the pairs never
    confirmed are ``unconfirmed``."""

    INVITED = "invited"
    REGISTERED = "registered"
    PLAYING = "playing"
    EXCLUDED = "excluded"
    UNCONFIRMED = "unconfirmed"

    @property
    def counted(self) -> bool:
        """Takes a place in the tournament (a Sit&Go's size counts these)."""
        return self in (EntrantStatus.REGISTERED, EntrantStatus.PLAYING)


COUNTED_ENTRANTS: tuple[EntrantStatus, ...] = (EntrantStatus.REGISTERED, EntrantStatus.PLAYING)


class RoundStatus(StrEnum):
    """A round is ``playing`` from its pairing until its last table has a result."""

    PLAYING = "playing"
    FINISHED = "finished"
