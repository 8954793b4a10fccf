"""The rating modes: a player has one rating per mode (issue 16, like Burraconline's separate
2- and 4-player rankings)."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    TWO = "2p"
    """Two players, each a line."""
    THREE = "3p"
    """Three players (RULES.md 3.5): each on his own until the first pozzetto, then one against
    a pair; rated by each player's own final total."""
    FOUR = "4p"
    """Four players in two pairs (R1); each partner has his own rating."""

    @classmethod
    def for_players(cls, players: int) -> Mode:
        try:
            return {2: cls.TWO, 3: cls.THREE, 4: cls.FOUR}[players]
        except KeyError:
            raise ValueError(f"a table has 2, 3 or 4 players, not {players}") from None
