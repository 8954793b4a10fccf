"""Same-cards tournaments on the server (docs/tournaments.md, "Same cards"): the decks a
round's tables are given, and what stays hidden while the round is played.

The decks are ``burraco.tournament.round_deals`` of the tournament's secret seed: a table
asks for them when it starts and deals them in order (``TableConfig.same_cards`` names the
round). Until the round's last table has ended, nobody may watch a table of the round, fetch
its record or replay, or read the decks; the tournament's view shows the commitments from the
round's start and the decks and salts once it is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from burraco.store import Store, TournamentStore
from burraco.tournament import RoundDeals, round_deals

from ..fairness import CommittedDeck
from .records import settings_of, table_config

_CACHE: dict[tuple[str, int], RoundDeals] = {}
_CACHE_SIZE = 256


async def deals_for(store: Store, tournament_id: str, round: int) -> RoundDeals:
    """Round ``round``'s fixed deals (a pure function of the stored seed, so a cache is safe)."""
    key = (tournament_id, round)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    data = await TournamentStore(store).load(tournament_id)
    if data is None:
        raise RuntimeError(f"tournament {tournament_id} is gone: no deals for its table")
    settings = settings_of(data)
    rules = table_config(settings, tournament_id).ruleset()
    deals = round_deals(data.info.seed, round, rules, settings.smazzate)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = deals
    return deals


def committed(deals: RoundDeals, number: int) -> CommittedDeck:
    """Smazzata ``number``'s deck, as a table deals it."""
    if not 1 <= number <= len(deals.deals):
        raise RuntimeError(f"a same-cards round has {len(deals.deals)} deals, not {number}")
    deal = deals.deals[number - 1]
    return CommittedDeck(deal.deck, deal.salt, deal.commitment)


HIDDEN = "the other tables of this same-cards round are still playing its cards"
"""Why a hidden table's record, replay or reviews are refused (``same_cards_hidden``)."""


async def hidden(store: Store, table_id: str) -> bool:
    """Whether ``table_id`` is a table of a same-cards round still being played somewhere
    (then it may not be watched, nor its record read)."""
    return bool(await hidden_among(store, [table_id]))


async def hidden_among(store: Store, table_ids: Sequence[str]) -> set[str]:
    """Of ``table_ids``, those of a same-cards round still being played: their result would
    tell the cards (one rule, ``burraco.store.hidden``: the queries of the players' matches,
    statistics and rating history leave the same tables out)."""
    return await TournamentStore(store).same_cards_hidden(table_ids)


def round_deals_json(deals: RoundDeals, *, revealed: bool) -> dict[str, Any]:
    """The round's deals as the tournament's view shows them: the commitments (and the first
    seat) from the start, the decks and salts only once ``revealed``."""
    return {
        "first": deals.first,
        "deals": [
            {
                "number": k,
                "commitment": d.commitment,
                **({"deck": d.text, "salt": d.salt} if revealed else {}),
            }
            for k, d in enumerate(deals.deals, 1)
        ],
    }
