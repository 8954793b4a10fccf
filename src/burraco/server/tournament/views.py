"""The JSON of a tournament (``view``) and of its line in the list (``summary``), as the HTTP
routes answer and the watchers' pushes carry (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, Final

from burraco.store import EntrantInfo, TournamentData, TournamentInfo
from burraco.tournament import (
    RankedRow,
    RoundStatus,
    TournamentState,
    TournamentStatus,
    round_deals,
)

from .records import counted_entrants, table_config
from .samecards import round_deals_json

REGISTRATION_CLOSES: Final = timedelta(minutes=2)
"""T1: registration to a scheduled tournament closes this long before its start."""


def registration_open(info: TournamentInfo, now: datetime) -> bool:
    if info.status != TournamentStatus.REGISTERING:
        return False
    return info.starts_at is None or now < info.starts_at - REGISTRATION_CLOSES


def summary(info: TournamentInfo, entrants: int, now: datetime) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "status": info.status,
        "start": info.start,
        "starts_at": None if info.starts_at is None else info.starts_at.isoformat(),
        "closes_at": None
        if info.starts_at is None
        else (info.starts_at - REGISTRATION_CLOSES).isoformat(),
        "size": info.size,
        "entrant_count": entrants,
        "settings": info.settings,
        "created_by": info.created_by,
        "created_at": info.created_at.isoformat(),
        "started_at": None if info.started_at is None else info.started_at.isoformat(),
        "finished_at": None if info.finished_at is None else info.finished_at.isoformat(),
        "note": info.note,
        "registration_open": registration_open(info, now),
    }


def view(data: TournamentData, state: TournamentState, now: datetime) -> dict[str, Any]:
    out = summary(data.info, counted_entrants(data), now)
    names = {e.entrant: e.name for e in data.entrants}
    out["entrants"] = [
        {
            "id": e.entrant,
            "name": e.name,
            "bot": e.bot,
            "user_id": e.user_id,
            "partner_id": e.partner_id,
            "position": e.position,
            "status": e.status,
        }
        for e in data.entrants
    ]
    table = state.settings.table()
    out["vp_table"] = table.name
    out["vp_rows"] = [list(row) for row in table.rows()]  # shown before the start (T16)
    out["rounds_total"] = state.total_rounds() if state.admitted else None
    out["rounds"] = [
        {
            "number": r.number,
            "status": r.status,
            "relaxed": r.relaxed,
            "byes": [{"id": b, "name": names.get(b, b)} for b in r.byes],
            "tables": [
                {
                    "number": t.number,
                    "table_id": t.table_id,
                    "lines": [
                        [{"id": e, "name": names.get(e, e)} for e in line] for line in t.lines
                    ],
                    "result": t.result,
                }
                for t in data.tables
                if t.round == r.number
            ],
        }
        for r in data.rounds
    ]
    if state.settings.same_cards:
        _same_cards(out, data, state)
    if state.admitted:
        entrants = {e.entrant: e for e in data.entrants}
        out["standings"] = [_row(row, entrants) for row in state.ranking()]
    else:
        out["standings"] = []
    out["eliminated"] = dict(state.eliminated())
    return out


def _same_cards(out: dict[str, Any], data: TournamentData, state: TournamentState) -> None:
    """A same-cards round in the view: its commitments from the start; while it is played no
    table's result (the others play the same cards), only whether it has finished; once over,
    the decks and salts, and each table's MP and VP from the comparison with each deal's
    field (docs/tournaments.md, "Same cards")."""
    settings = state.settings
    rules = table_config(settings, data.info.id).ruleset()
    for rnd in out["rounds"]:
        number = rnd["number"]
        over = rnd["status"] == RoundStatus.FINISHED
        deals = round_deals(data.info.seed, number, rules, settings.smazzate)
        rnd["same_cards"] = round_deals_json(deals, revealed=over)
        compared = state.comparison(number) if over else {}
        for table in rnd["tables"]:
            table["finished"] = table["result"] is not None
            if not over:
                table["result"] = None
                continue
            c = compared.get(table["number"])
            if c is None or table["result"] is None:
                continue
            table["result"] = {
                **table["result"],
                "table_mp": table["result"]["mp"],
                "table_vp": table["result"]["vp"],
                "mp": list(c.mp),
                "vp": list(c.vp),
                "comparison": [
                    {
                        "deal": d.deal,
                        "mp": d.mp,
                        "field": None if d.field is None else round(float(d.field), 1),
                        "difference": round(float(d.difference), 1),
                        "others": d.others,
                    }
                    for d in c.deals
                ],
                "exact": round(float(c.exact), 2),
            }


def _row(ranked: RankedRow, entrants: Mapping[str, EntrantInfo]) -> dict[str, Any]:
    row = ranked.row
    who = entrants.get(row.entrant)
    return {
        "place": ranked.place,
        "entrant": row.entrant,
        "name": who.name if who else row.entrant,
        "bot": who.bot if who else None,
        "vp": row.vp,
        "mp": row.mp,
        "played": row.total.played,
        "byes": row.total.sat_out,
        "tied": ranked.tied,
    }
