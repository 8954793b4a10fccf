"""Scoring a smazzata (RULES.md R59-R61, R50-R51; 3.5 for the 3-player split)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import NUM_TYPES

if TYPE_CHECKING:
    from .state import Smazzata


@dataclass(frozen=True, slots=True)
class LineScore:
    """One line's score sheet for a smazzata, in the fields of the record spec's JSON."""

    seats: tuple[int, ...]
    melds: int
    """Card points of the line's melds (R59)."""
    burraco_bonus: int
    closing_bonus: int
    hand: int
    """Minus the value of the cards left in the line's hands (an unplayed pozzetto included when
    the ruleset counts it, R50); zero or negative."""
    pozzetto_penalty: int
    """-100 when the line did not take a pozzetto (R51), or under the ``penalty`` policy (R50)."""
    burrachi: tuple[str, ...]
    """The types of the line's burrachi: clean, dirty, semiclean, nobile, reale."""

    @property
    def score(self) -> int:
        return (
            self.melds + self.burraco_bonus + self.closing_bonus + self.hand + self.pozzetto_penalty
        )

    def as_json(self) -> dict[str, object]:
        return {
            "seats": list(self.seats),
            "melds": self.melds,
            "burraco_bonus": self.burraco_bonus,
            "closing_bonus": self.closing_bonus,
            "hand": self.hand,
            "pozzetto_penalty": self.pozzetto_penalty,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class SmazzataScore:
    ended: str
    """``closing``, ``stock`` or ``stall``."""
    closed_by: int | None
    lines: tuple[LineScore, ...]
    result: tuple[int, ...]
    """What the record's ``result`` holds: per line with 2 or 4 players, per seat with 3."""

    def line_of_seat(self, seat: int) -> LineScore:
        for line in self.lines:
            if seat in line.seats:
                return line
        raise KeyError(seat)


def split_half(score: int) -> int:
    """Half of a pair's score, rounded half away from zero to a multiple of 5 (3.5, X8)."""
    if score % 10 == 0:
        return score // 2
    magnitude = (abs(score) + 5) // 2
    return magnitude if score > 0 else -magnitude


def score_smazzata(state: Smazzata) -> SmazzataScore:
    if not state.is_over:
        raise ValueError("the smazzata is not over yet")
    rules = state.rules
    value = rules.card_value
    line_scores: list[LineScore] = []
    for seats in state.lines():
        line = state.line_of[seats[0]]
        melds = state.melds[line]
        meld_points = sum(m.points(rules) for m in melds)
        burrachi = tuple(t for t in (m.burraco_type(rules) for m in melds) if t is not None)
        bonus = sum(m.bonus(rules) for m in melds)
        closing = rules.closing_bonus if state.closed_by in seats else 0
        hand = 0
        penalty = 0 if state.taken[line] else -rules.no_pozzetto_penalty
        for seat in seats:
            counts = state.hands[seat]
            hand -= sum(value(c) * counts[c] for c in range(NUM_TYPES) if counts[c])
            unplayed = state.unplayed[seat]
            if unplayed is not None and rules.unplayed_pozzetto_policy == "penalty":
                # R50 with the Reale rule: the unplayed pozzetto is ignored and costs 100.
                hand += sum(value(c) for c in unplayed)
                penalty = -rules.no_pozzetto_penalty
        line_scores.append(
            LineScore(
                seats=seats,
                melds=meld_points,
                burraco_bonus=bonus,
                closing_bonus=closing,
                hand=hand,
                pozzetto_penalty=penalty,
                burrachi=burrachi,
            )
        )
    if state.n == 3:
        per_seat = [0] * 3
        for ls in line_scores:
            share = ls.score if len(ls.seats) == 1 else split_half(ls.score)
            for seat in ls.seats:
                per_seat[seat] = share
        result = tuple(per_seat)
    else:
        result = tuple(ls.score for ls in line_scores)
    return SmazzataScore(
        ended=state.end_reason or "",
        closed_by=state.closed_by,
        lines=tuple(line_scores),
        result=result,
    )
