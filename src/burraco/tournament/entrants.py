"""Entrants and registration (RULES.md T1, T2).

An entrant is what the pairing systems pair and the standings rank: a single player at 2-player
tables, a fixed pair at 4-player tables, or a single player at 4-player tables who gets a new
partner each round (the *torneo individuale*). Teams (*squadre*) are out of scope (T2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NewType

EntrantId = NewType("EntrantId", str)
"""The stable id of an entrant (a player's or a pair's id, as the caller keeps them)."""

MIN_PLAYERS = 4
"""T1: below this many players a tournament is cancelled and the fees refunded."""


def entrant_ids(ids: Iterable[str]) -> tuple[EntrantId, ...]:
    """Typed ids from plain strings, in the given order; duplicates are refused."""
    out = tuple(EntrantId(i) for i in ids)
    if len(set(out)) != len(out):
        raise ValueError("an entrant is listed twice")
    return out


class EntrantKind(StrEnum):
    """What an entrant is (T2)."""

    INDIVIDUAL = "individual"
    """One player at 2-player tables (1 v 1)."""
    PAIRS = "pairs"
    """A fixed pair at 4-player tables (*torneo a coppie*)."""
    INDIVIDUAL_FOUR = "individual_four"
    """One player at 4-player tables with a new partner each round (*torneo individuale*)."""

    @property
    def players_per_entrant(self) -> int:
        return 2 if self is EntrantKind.PAIRS else 1

    @property
    def seats(self) -> int:
        """Seats of a table: 2 or 4."""
        return 2 if self is EntrantKind.INDIVIDUAL else 4

    @property
    def entrants_per_table(self) -> int:
        return self.seats // self.players_per_entrant

    @property
    def entrants_per_line(self) -> int:
        """Entrants that form one line (side) of a table."""
        return 2 if self is EntrantKind.INDIVIDUAL_FOUR else 1


@dataclass(frozen=True, slots=True)
class Admission:
    """Who plays after registration closes (T1)."""

    admitted: tuple[EntrantId, ...]
    excluded: tuple[EntrantId, ...]
    """The latest registrants beyond the table-size multiple (told and refunded), or everyone
    when the tournament is cancelled."""
    cancelled: bool = False
    """Fewer than ``MIN_PLAYERS`` players: the tournament does not take place (T1)."""


def admit(
    registrations: Sequence[EntrantId],
    kind: EntrantKind,
    *,
    min_players: int = MIN_PLAYERS,
) -> Admission:
    """T1: keep the earliest registrants up to a multiple of the table size (2 players for 1 v 1,
    4 players otherwise) and exclude the latest ones; cancel below ``min_players`` players.

    ``registrations`` is in registration order. The multiple is counted in entrants: 2 singles,
    2 pairs, or 4 singles for the *torneo individuale*.
    """
    if len(set(registrations)) != len(registrations):
        raise ValueError("an entrant registered twice")
    multiple = kind.entrants_per_table
    keep = len(registrations) - len(registrations) % multiple
    if keep * kind.players_per_entrant < min_players:
        return Admission((), tuple(registrations), cancelled=True)
    return Admission(tuple(registrations[:keep]), tuple(registrations[keep:]))
