"""Knockout (*eliminazione diretta*, RULES.md T23-T25, T15).

The field is padded to the next power of two with byes drawn at random in round 1 (T24); later
rounds are re-drawn at random (default) or follow a fixed bracket. A match is one round of N
smazzate: the higher total wins; a tie goes to the line with more closings; a further tie means
"play another smazzata", one at a time, until the totals differ (T23), at most
``MAX_EXTRA_SMAZZATE`` of them: still tied after those, a draw of lots seeded by the tournament
decides (decision in docs/tournaments.md; RULES.md is silent). A line that runs out of
time loses whatever the score (T15). Final ranking: winner, finalist, then ex aequo by the round
of elimination (T25).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .entrants import EntrantId
from .pairing import Pairing, Table


class BracketMode(StrEnum):
    REDRAW_EACH_ROUND = "redraw_each_round"
    """T24 [ENG] default: the survivors are paired at random again every round."""
    FIXED_BRACKET = "fixed_bracket"
    """The winner of match 2i - 1 meets the winner of match 2i in the next round."""


def bracket_size(entrants: int) -> int:
    """T24: the next power of two (31 -> 32; 32 -> 32)."""
    if entrants < 2:
        raise ValueError("a knockout needs at least 2 entrants")
    return 1 << (entrants - 1).bit_length()


@dataclass(frozen=True, slots=True)
class MatchDecision:
    """The verdict on a knockout match after its smazzate (T23, T15)."""

    winner: int | None
    """Line 0 or 1; None: the match is tied, play another smazzata."""
    reason: str
    """``total``, ``closings``, ``timeout``, ``lots`` (still tied after ``MAX_EXTRA_SMAZZATE``
    extra smazzate), or ``tie``."""

    @property
    def play_another_smazzata(self) -> bool:
        return self.winner is None


PLAY_ANOTHER_SMAZZATA = MatchDecision(None, "tie")


MAX_EXTRA_SMAZZATE: Final = 3
"""T23's extra smazzate are played one at a time; after this many, still tied, the match is
decided by lots (a ruleset where every smazzata scores 0 would otherwise never end)."""


def decide_by_lots(seed: str) -> MatchDecision:
    """The draw of lots that ends a match still tied after ``MAX_EXTRA_SMAZZATE`` extra
    smazzate: a pure function of ``seed`` (the same after a restart, and checkable)."""
    return MatchDecision(random.Random(f"knockout-lots:{seed}").randrange(2), "lots")


def decide(
    totals: Sequence[int],
    closings: Sequence[int] = (0, 0),
    timed_out: int | None = None,
    *,
    extra_smazzate: int = 0,
    lots: str = "",
) -> MatchDecision:
    """T23/T15: who wins a knockout match.

    ``totals`` and ``closings`` count every smazzata played so far, the extra ones included: the
    closings tie-break applies to the match as a whole, and after an extra smazzata the totals
    decide as soon as they differ. ``timed_out`` is the line whose clock ran out: it loses.
    ``extra_smazzate`` is how many extra smazzate these counts include: once it reaches
    ``MAX_EXTRA_SMAZZATE`` a tie is decided by ``decide_by_lots(lots)`` instead of asking for
    another one.
    """
    if timed_out is not None:
        if timed_out not in (0, 1):
            raise ValueError("timed_out is line 0, line 1 or None")
        return MatchDecision(1 - timed_out, "timeout")
    if totals[0] != totals[1]:
        return MatchDecision(0 if totals[0] > totals[1] else 1, "total")
    if closings[0] != closings[1]:
        return MatchDecision(0 if closings[0] > closings[1] else 1, "closings")
    if extra_smazzate >= MAX_EXTRA_SMAZZATE:
        return decide_by_lots(lots)
    return PLAY_ANOTHER_SMAZZATA


@dataclass(frozen=True, slots=True)
class KnockoutRound:
    """One round of the bracket: slots 2i and 2i + 1 meet; an empty slot (None) is a bye."""

    round: int
    slots: tuple[EntrantId | None, ...]

    @property
    def matches(self) -> tuple[tuple[EntrantId | None, EntrantId | None], ...]:
        s = self.slots
        return tuple((s[i], s[i + 1]) for i in range(0, len(s), 2))

    def pairing(self) -> Pairing:
        """The tables of the round (numbered in match order) and its byes."""
        tables: list[Table] = []
        byes: list[EntrantId] = []
        for a, b in self.matches:
            if a is not None and b is not None:
                tables.append(Table.of(len(tables) + 1, a, b))
            else:
                byes.extend(e for e in (a, b) if e is not None)
        return Pairing(self.round, tuple(tables), tuple(byes))


@dataclass(frozen=True, slots=True)
class Knockout:
    """A knockout in progress: the rounds drawn so far and the winners of those completed."""

    entrants: tuple[EntrantId, ...]
    mode: BracketMode
    rounds: tuple[KnockoutRound, ...]
    winners: tuple[tuple[EntrantId, ...], ...] = ()
    """For each completed round, the winner of each match in match order (byes included)."""

    @classmethod
    def draw(
        cls,
        entrants: Sequence[EntrantId],
        rng: random.Random,
        mode: BracketMode = BracketMode.REDRAW_EACH_ROUND,
    ) -> Knockout:
        """T24: round 1 of a bracket of the next power of two. The matches that hold a bye are
        drawn at random (never two byes in one match), then the entrants are shuffled into the
        slots: so who gets a bye, and who meets whom, is random."""
        if len(set(entrants)) != len(entrants):
            raise ValueError("an entrant is listed twice")
        size = bracket_size(len(entrants))
        n_byes = size - len(entrants)
        bye_matches = set(rng.sample(range(size // 2), n_byes))
        order = list(entrants)
        rng.shuffle(order)
        it = iter(order)
        slots: list[EntrantId | None] = []
        for m in range(size // 2):
            slots.append(next(it))
            slots.append(None if m in bye_matches else next(it))
        return cls(tuple(entrants), mode, (KnockoutRound(1, tuple(slots)),))

    @property
    def size(self) -> int:
        return len(self.rounds[0].slots)

    @property
    def total_rounds(self) -> int:
        return self.size.bit_length() - 1

    @property
    def current(self) -> KnockoutRound | None:
        """The round being played, or None when the knockout is over."""
        return None if self.champion is not None else self.rounds[-1]

    @property
    def champion(self) -> EntrantId | None:
        if len(self.winners) == self.total_rounds:
            return self.winners[-1][0]
        return None

    def advance(self, winners: Iterable[EntrantId], rng: random.Random | None = None) -> Knockout:
        """Record the winners of the current round's played matches (byes advance by themselves)
        and draw the next round: at random with ``rng`` (``redraw_each_round``) or along the
        bracket (``fixed_bracket``)."""
        current = self.current
        if current is None:
            raise ValueError("the knockout is over")
        given = list(winners)
        if len(set(given)) != len(given):
            raise ValueError("a winner is listed twice")
        won = set(given)
        advancing: list[EntrantId] = []
        for a, b in current.matches:
            if a is None or b is None:
                bye = a if a is not None else b
                if bye is not None:
                    advancing.append(bye)
                continue
            if (a in won) == (b in won):
                raise ValueError(f"round {current.round}: give exactly one winner of {a} v {b}")
            advancing.append(a if a in won else b)
        if won - set(advancing):
            raise ValueError(f"round {current.round}: {sorted(won - set(advancing))} did not play")
        done = (*self.winners, tuple(advancing))
        if len(advancing) == 1:
            return Knockout(self.entrants, self.mode, self.rounds, done)
        slots = list(advancing)
        if self.mode is BracketMode.REDRAW_EACH_ROUND:
            if rng is None:
                raise ValueError("redraw_each_round needs a random.Random")
            rng.shuffle(slots)
        nxt = KnockoutRound(current.round + 1, tuple(slots))
        return Knockout(self.entrants, self.mode, (*self.rounds, nxt), done)

    def place_of_elimination(self, round: int) -> int:
        """T25: the shared place of the losers of ``round``: 2 for the final, 3 for the
        semi-finals, 5 for the quarter-finals, ... (2^(rounds left) + 1)."""
        return (1 << (self.total_rounds - round)) + 1

    def ranking(self) -> tuple[tuple[int, tuple[EntrantId, ...]], ...]:
        """T25: (place, entrants) best first: the winner, the finalist, then the losers of each
        earlier round ex aequo (sorted by id). Only the places decided so far are listed."""
        out: list[tuple[int, tuple[EntrantId, ...]]] = []
        if self.champion is not None:
            out.append((1, (self.champion,)))
        for rnd, won in reversed(list(zip(self.rounds, self.winners, strict=False))):
            losers = sorted(e for e in rnd.slots if e is not None and e not in set(won))
            if losers:
                out.append((self.place_of_elimination(rnd.round), tuple(losers)))
        return tuple(out)
