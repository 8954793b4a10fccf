"""Shared by the club tests: the command line run in-process, a snapshot of every club table
(to prove that a refused change changed nothing), and RULES.md's tables written out by hand."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

from sqlalchemy import select

from burraco.cli.main import main
from burraco.store.models import Base
from burraco.store.store import make_engine

OFFICER = "Anna"


def cli(url: str, *args: str, officer: str | None = OFFICER) -> tuple[int, str, str]:
    """``burraco club ARGS --database-url URL [--as OFFICER]``: exit code, stdout, stderr."""
    argv = ["club", *args, "--database-url", url]
    if officer is not None:
        argv += ["--as", officer]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit:  # argparse refuses the command line
            code = int(exit.code or 0)
    return code, out.getvalue(), err.getvalue()


def ok(url: str, *args: str, officer: str | None = OFFICER) -> str:
    code, out, err = cli(url, *args, officer=officer)
    assert code == 0, f"burraco club {' '.join(args)}: exit {code}: {err}"
    return out


CLUB_TABLES = [t for t in Base.metadata.sorted_tables if t.name.startswith("club_")]


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every club table, in a stable order."""

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                out = {}
                for table in CLUB_TABLES:
                    rows = (await connection.execute(select(table))).all()
                    out[table.name] = sorted((tuple(r) for r in rows), key=repr)
                return out
        finally:
            await engine.dispose()

    return asyncio.run(read())


# RULES.md 4.4, table VP-3 (rounds of 3 smazzate), copied by hand: upper bound of the MP
# difference -> the winner's VP (the loser gets 20 minus it).
VP3 = [(50, 10), (150, 11), (250, 12), (350, 13), (500, 14), (650, 15), (800, 16), (1000, 17)]
VP3 += [(1250, 18), (1500, 19)]


def vp3(ns: int, ew: int) -> tuple[int, int]:
    """RULES.md R66 with VP-3: the two lines' VP for the two lines' totals."""
    diff = abs(ns - ew)
    winner = next((vp for bound, vp in VP3 if diff <= bound), 20)
    return (winner, 20 - winner) if ns >= ew else (20 - winner, winner)


POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
"""RULES.md T28."""


def evening_ranking(totals: dict[str, tuple[int, int]]) -> list[tuple[int, str, int, int, int]]:
    """RULES.md T27/T28 by hand: (place, player, VP, MP, points), by VP then MP; equal VP and
    MP share the place and its points, the next place is skipped."""
    order = sorted(totals, key=lambda p: (-totals[p][0], -totals[p][1], p))
    out: list[tuple[int, str, int, int, int]] = []
    for i, p in enumerate(order):
        place = i + 1
        if i and totals[order[i - 1]] == totals[p]:
            place = out[-1][0]
        out.append((place, p, *totals[p], POINTS[place - 1] if place <= 10 else 0))
    return out
