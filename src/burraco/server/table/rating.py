"""Rating a finished match (issue 16): the table's seats as rating keys, the outcome by
``burraco.ratings``, the update in the store; the changes go out with ``match_end``. A
same-cards round's match is kept to be rated once the round is over (issue 27, H2)."""

from __future__ import annotations

import logging

from burraco.ratings import Mode, RatingsError, outcome_of, summarize
from burraco.store import PlayerMatchRow

from .. import messages
from .core import TableCore

log = logging.getLogger("burraco.table")


class RatingMixin(TableCore):
    def _note_abandoned(self, seat: int) -> None:
        """``seat``'s player stayed away past his deadline at a rated table: he abandoned it
        (the first to do so is the one who loses it, issue 16)."""
        if self.config.rated and self.abandoned is None:
            self.abandoned = seat

    async def _rate(self, result: messages.MatchResult) -> messages.RatingNews | None:
        """Rate the match if the table is rated; what changed, or why it was not rated."""
        if not self.config.rated or self.match is None:
            return None
        mode = Mode.for_players(len(self.seats))
        keys: list[str] = []
        if any(holder.gone for holder in self.seats):
            return messages.rating_news(None, unrated="account_deleted")
        for holder in self.seats:
            if holder.user_id is not None:
                keys.append(f"user:{holder.user_id}")
            elif holder.bot is not None:
                keys.append(f"bot:{holder.bot}")
            else:
                return messages.rating_news(None, unrated="empty_seat")
        if result["ended"] == "forfeit" and result["winner"] is None:
            return messages.rating_news(None, unrated="no_contest")  # nobody came: no result
        leaver = self.abandoned
        try:
            outcome = outcome_of(
                mode, totals=list(self.match.totals), winner=result["winner"], leaver=leaver
            )
            if self.config.same_cards is not None:
                # Rated now, the match would tell its result to the round's other tables,
                # still playing the same cards (docs/tournaments.md, "Same cards"): it is rated
                # once the round is over (TournamentManager, RatingStore.rate_pending).
                kept = await self.hub.ratings.defer_match(
                    table_id=self.id,
                    match_no=self.match_no,
                    mode=mode,
                    seats=keys,
                    outcome=outcome,
                    now=self.hub.clock.utcnow(),
                )
                return messages.rating_news(None, pending="same_cards_round") if kept else None
            changes = await self.hub.ratings.rate_match(
                table_id=self.id,
                match_no=self.match_no,
                mode=mode,
                seats=keys,
                outcome=outcome,
                now=self.hub.clock.utcnow(),
            )
        except RatingsError as error:
            # A named condition (a guest at a tournament table, an outside program): the match
            # stands and is simply not rated; say so to the players and in the log.
            log.warning("table %s match %s not rated: %s", self.id, self.match_no, error)
            return messages.rating_news(None, unrated=error.code)
        if changes is None:
            return None  # rated already (a resumed table finishing again)
        return messages.rating_news(
            [
                messages.rating_change(c.seat, c.before.mu, c.after.mu, c.after.sigma, c.result)
                for c in changes
            ]
        )

    async def _record_profiles(self, result: messages.MatchResult, names: list[str]) -> None:
        """Each person's row of the finished match, for his profile (profile_store.py)."""
        match = self.match
        if match is None or self.config.lesson:
            return
        sides = match.sides
        now = self.hub.clock.utcnow()
        winner = result["winner"]

        def side(seat: int) -> int:
            return seat if sides != 2 else seat % 2

        rows = []
        for seat, holder in enumerate(self.seats):
            if holder.user_id is None:
                continue
            figures = summarize(self.scores, seat)
            outcome = "draw" if winner is None else "win" if winner == side(seat) else "loss"
            opponents = [
                other.user_id
                for s, other in enumerate(self.seats)
                if other.user_id is not None and side(s) != side(seat)
            ]
            rows.append(
                PlayerMatchRow(
                    holder.user_id,
                    self.id,
                    self.match_no,
                    seat,
                    now,
                    Mode.for_players(len(self.seats)).value,
                    self.config.rules,
                    self.config.rated,
                    outcome,
                    result["ended"],
                    figures.smazzate,
                    figures.mp,
                    figures.burrachi_clean,
                    figures.burrachi_dirty,
                    figures.pozzetti,
                    figures.closings,
                    names,
                    opponents,
                )
            )
        if rows:
            await self.hub.profiles.record(rows)
