"""A match: smazzate to a target score (3.6) or a fixed number per round (R63), with the first
player rotating clockwise (R6) and the 3-player switch to three pozzetti (3.5). A target-score
match ends after at most ``MAX_SMAZZATE`` smazzate (decision D14 in docs/rules.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .deal import Deal
from .rules import MAX_SMAZZATE, Rules
from .scoring import SmazzataScore
from .state import Smazzata
from .vp import RoundScore, VPTable, round_score, vp_table


class Match:
    """The running score of a match and the dealing of its smazzate.

    Totals are per line with 2 or 4 players and per seat with 3 (each player's share, 3.5).
    """

    def __init__(self, rules: Rules, *, first: int = 0) -> None:
        if not 0 <= first < rules.players:
            raise ValueError(f"first seat {first} is not a seat of a {rules.players}-player table")
        self.rules = rules
        self.first = first
        self.scores: list[SmazzataScore] = []
        self.late = False
        """3 players: the match has switched to three pozzetti of 11 (3.5)."""
        self.totals = [0] * self.sides

    @classmethod
    def random_first(cls, rules: Rules, rng: random.Random) -> Match:
        """A match whose first player is drawn at random (R6)."""
        return cls(rules, first=rng.randrange(rules.players))

    @property
    def sides(self) -> int:
        """How many totals the match keeps: 2 lines, or 3 seats with 3 players."""
        return 3 if self.rules.players == 3 else 2

    @property
    def next_first(self) -> int:
        """R6: each smazzata starts one seat clockwise from the previous one."""
        return (self.first + len(self.scores)) % self.rules.players

    @property
    def target(self) -> int | None:
        rules = self.rules
        if self.late and rules.three_player_late_target is not None:
            return rules.three_player_late_target
        return rules.target_score

    def deal(
        self,
        *,
        rng: random.Random | None = None,
        deck: Sequence[Card] | None = None,
        deal: Deal | None = None,
        first: int | None = None,
    ) -> Smazzata:
        """Deal the next smazzata (``first`` overrides the rotation, as a record may)."""
        if self.is_over:
            raise ValueError("the match is over")
        return Smazzata.new(
            self.rules,
            rng=rng,
            deck=deck,
            deal=deal,
            first=self.next_first if first is None else first,
            late=self.late,
        )

    def add(self, score: SmazzataScore) -> None:
        """Count a finished smazzata."""
        if self.is_over:
            raise ValueError("the match is over")
        self.scores.append(score)
        for i, points in enumerate(score.result):
            self.totals[i] += points
        switch = self.rules.three_player_switch_score
        if self.rules.players == 3 and switch is not None and max(self.totals) >= switch:
            self.late = True

    @property
    def cap(self) -> int | None:
        """The most smazzate this match may last: ``smazzate`` when set (R63); otherwise, for a
        target-score match, ``MAX_SMAZZATE`` (D14: a target that no line can reach, e.g. with
        every card and bonus worth 0 or only penalties, would otherwise be played for ever);
        None for free play with neither."""
        if self.rules.smazzate is not None:
            return self.rules.smazzate
        late_target = self.rules.players == 3 and self.rules.three_player_late_target is not None
        if self.rules.target_score is not None or late_target:
            return MAX_SMAZZATE
        return None

    @property
    def capped(self) -> bool:
        """The match is over because it reached its cap of smazzate without a decision."""
        cap = self.cap
        return not self.decided and cap is not None and len(self.scores) >= cap

    @property
    def is_over(self) -> bool:
        return self.decided or self.capped

    @property
    def decided(self) -> bool:
        """A target-score match is decided once a total reaches the target with a sole leader."""
        target = self.target
        if target is None or not self.scores:
            return False
        best = max(self.totals)
        return best >= target and self.totals.count(best) == 1

    @property
    def winner(self) -> int | None:
        """The winning line (seat with 3 players), or None while undecided or tied (at the end of
        a fixed round, or of a target-score match at its cap: D14, a draw)."""
        if not self.is_over:
            return None
        best = max(self.totals)
        if self.totals.count(best) != 1:
            return None
        return self.totals.index(best)

    def round_score(self, table: VPTable | str = "auto") -> RoundScore:
        """MP and VP of a two-line round (R65, R66)."""
        if self.sides != 2:
            raise ValueError("Match Points and Victory Points need two lines")
        if isinstance(table, str):
            table = vp_table(table, smazzate=self.rules.smazzate or len(self.scores))
        return round_score(self.totals, table)
