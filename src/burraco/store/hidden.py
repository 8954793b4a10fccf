"""What a same-cards round in play hides (docs/tournaments.md, "Same cards"), as one SQL condition.

Until every table of a same-cards round has ended, a finished table of the round tells the
players still at the others about the cards they are playing: its totals, deals, MP, VP, who
won. Every query that reads finished matches for others to see (the players' match lists and
their statistics, the head-to-head, the rating history, the public list of matches) selects
them with ``~same_cards_in_play(<its table id column>)``, so that an aggregate written later
over the same rows leaves them out by construction; the server's refusals of a single table
(its record, replay, reviews, watching it) ask the same condition
(``TournamentStore.same_cards_hidden``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, exists
from sqlalchemy.orm import aliased

from burraco.tournament.lifecycle import RoundStatus

from . import tournament_models as m


def same_cards_in_play(table_id: SQLColumnExpression[Any]) -> ColumnElement[bool]:
    """Whether ``table_id`` (a column of the enclosing query, correlated) is the server table
    of a round still being played of a tournament with ``same_cards``. Its own tables are
    aliased, so that a query over ``tournament_tables`` itself can use it too."""
    table = aliased(m.TournamentTable)
    round_ = aliased(m.TournamentRound)
    tournament = aliased(m.Tournament)
    return exists().where(
        table.table_id == table_id,
        round_.tournament_id == table.tournament_id,
        round_.number == table.round,
        round_.status == RoundStatus.PLAYING.value,
        tournament.id == table.tournament_id,
        # ``same_cards`` is stored only when true (TournamentSettings.to_json): absent, NULL.
        tournament.settings["same_cards"].as_boolean(),
    )
