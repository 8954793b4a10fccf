"""Small builders for the tournament tests."""

from __future__ import annotations

from collections.abc import Sequence

from burraco.tournament import EntrantId, Pairing, Table, entrant_ids


def ids(text: str) -> tuple[EntrantId, ...]:
    """``ids("A B C")`` -> the typed entrant ids A, B, C."""
    return entrant_ids(text.split())


def one_v_one(round: int, pairs: Sequence[tuple[str, str]], byes: str = "") -> Pairing:
    """A round of 1 v 1 tables from (a, b) names."""
    tables = tuple(Table.of(n, EntrantId(a), EntrantId(b)) for n, (a, b) in enumerate(pairs, 1))
    return Pairing(round, tables, ids(byes))


def fours(round: int, tables: Sequence[str], rest: str = "") -> Pairing:
    """A round of 4-player tables from "AB-CD" strings (line NS - line EW, one letter each)."""
    out = []
    for n, spec in enumerate(tables, 1):
        ns, ew = spec.split("-")
        out.append(Table(n, (ids(" ".join(ns)), ids(" ".join(ew)))))
    return Pairing(round, tuple(out), ids(" ".join(rest)))
