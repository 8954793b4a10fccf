"""The arena's report: from the stored game results to the tables, the CSV files and the chart.

``summarize`` turns results into figures (per pairing and per bot) with the pure functions of
``ratings.py``; ``text_report``, ``write_csv`` and ``write_chart`` present them. Only complete
duplicate deals (every seat layout of the deal played) count, so that the luck of the cards
cancels; docs/arena.md says what every figure means.
"""

from __future__ import annotations

import csv
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from burraco.engine.vp import VPTable, vp_table

from .arena import GameResult, Settings, seat_layouts
from .ratings import Interval, Unit, bootstrap_ratings, mean_ci, vp_rounds

VIRTUAL_TIES: float = 1.0
"""Bradley-Terry prior: one tied smazzata added to every pair that played (docs/arena.md)."""


@dataclass
class Side:
    """One bot's figures within a pairing."""

    won: int = 0
    score_total: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    faults: int = 0
    rounds_won: int = 0
    vp_total: int = 0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else math.nan


@dataclass
class Pairing:
    """Bot A against bot B (the order in which they were listed); MP and VP from A's side."""

    a: str
    b: str
    spec_a: str
    spec_b: str
    deals: int = 0
    """Complete duplicate deals (each counts as many smazzate as it has seat layouts)."""
    smazzate: int = 0
    tied: int = 0
    side_a: Side = field(default_factory=Side)
    side_b: Side = field(default_factory=Side)
    unit_mp: list[float] = field(default_factory=list)
    """Per duplicate deal: A's MP averaged over the plays of the deal (the independent unit)."""
    rounds: int = 0
    rounds_tied: int = 0
    mp: Interval = field(default_factory=lambda: mean_ci([]))

    @property
    def score_a(self) -> float:
        """A's share of the smazzate: (won + tied / 2) / smazzate, in percent."""
        if not self.smazzate:
            return math.nan
        return 100.0 * (self.side_a.won + self.tied / 2) / self.smazzate

    @property
    def vp_a(self) -> float:
        return self.side_a.vp_total / self.rounds if self.rounds else math.nan


@dataclass
class BotLine:
    """One bot's overall figures and rating."""

    label: str
    spec: str
    smazzate: int = 0
    points: float = 0.0
    """Pairwise wins, ties counted half (3 players: one comparison per opponent seat-group)."""
    comparisons: int = 0
    decisions: int = 0
    seconds: float = 0.0
    faults: int = 0
    fault_games: int = 0
    notes: list[str] = field(default_factory=list)
    rating: float = math.nan
    low: float = math.nan
    high: float = math.nan

    @property
    def score(self) -> float:
        return 100.0 * self.points / self.comparisons if self.comparisons else math.nan

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else math.nan


@dataclass
class Summary:
    settings: Settings
    pairings: list[Pairing]
    bots: list[BotLine]
    anchor: str | None
    """The bot rated 0, or None when the ratings have mean 0."""
    incomplete: int
    """Deals left out because some of their plays are missing."""
    bootstrap: int
    round_size: int
    table: VPTable
    level: float = 0.95


def _side_score(result: GameResult, who: int) -> float:
    seats = [s for s, x in enumerate(result.layout) if x == who]
    return sum(result.scores[s] for s in seats) / len(seats)


def summarize(
    settings: Settings,
    results: Sequence[GameResult],
    *,
    bootstrap: int = 1000,
    round_size: int = 3,
    level: float = 0.95,
) -> Summary:
    """Every figure of the report, from the results of ``settings``' games."""
    table_vp = vp_table("auto", smazzate=round_size)
    players = settings.rules.players
    by_key = {r.key: r for r in results}
    bots: dict[str, BotLine] = {}
    for table in settings.tables:
        for entrant in table.bots:
            bots.setdefault(entrant.label, BotLine(entrant.label, entrant.spec))
    index = {label: i for i, label in enumerate(bots)}
    lines = list(bots.values())
    pairings: dict[tuple[str, str], Pairing] = {}
    strata: list[list[Unit]] = []
    incomplete = 0
    for table in settings.tables:
        layouts = seat_layouts(len(table.bots), players)
        labels = [b.label for b in table.bots]
        pairs = [
            (x, y) if index[labels[x]] < index[labels[y]] else (y, x)
            for x, y in itertools.combinations(range(len(labels)), 2)
        ]
        for x, y in pairs:
            key = (labels[x], labels[y])
            if key not in pairings:
                pairings[key] = Pairing(*key, table.bots[x].spec, table.bots[y].spec)
        # Per pair and seat layout, the two sides' scores deal by deal (for the VP rounds).
        by_layout: dict[tuple[int, int, int], list[tuple[float, float] | None]] = {
            (x, y, p): [] for x, y in pairs for p in range(len(layouts))
        }
        units: list[Unit] = []
        for deal in range(settings.deals):
            plays = [by_key.get((table.specs, deal, p)) for p in range(len(layouts))]
            if any(r is None for r in plays):
                incomplete += any(r is not None for r in plays)
                for series in by_layout.values():
                    series.append(None)
                continue
            complete = [r for r in plays if r is not None]
            unit: list[tuple[int, int, float]] = []
            for x, y in pairs:
                pairing = pairings[(labels[x], labels[y])]
                pairing.deals += 1
                mps = []
                for p, r in enumerate(complete):
                    sx, sy = _side_score(r, x), _side_score(r, y)
                    by_layout[(x, y, p)].append((sx, sy))
                    mps.append(sx - sy)
                    pairing.smazzate += 1
                    pairing.side_a.score_total += sx
                    pairing.side_b.score_total += sy
                    ix, iy = index[labels[x]], index[labels[y]]
                    if sx > sy:
                        pairing.side_a.won += 1
                        unit.append((ix, iy, 1.0))
                    elif sy > sx:
                        pairing.side_b.won += 1
                        unit.append((iy, ix, 1.0))
                    else:
                        pairing.tied += 1
                        unit += [(ix, iy, 0.5), (iy, ix, 0.5)]
                    for who, side, line, mine, theirs in (
                        (x, pairing.side_a, lines[ix], sx, sy),
                        (y, pairing.side_b, lines[iy], sy, sx),
                    ):
                        line.comparisons += 1
                        line.points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                        for s, held in enumerate(r.layout):
                            if held == who:
                                side.decisions += r.decisions[s]
                                side.seconds += r.seconds[s]
                                side.faults += r.faults[s]
                pairing.unit_mp.append(sum(mps) / len(mps))
            units.append(unit)
            for r in complete:
                seen: set[str] = set()
                for s, held in enumerate(r.layout):
                    line = bots[labels[held]]
                    if labels[held] not in seen:
                        line.smazzate += 1
                        seen.add(labels[held])
                    line.decisions += r.decisions[s]
                    line.seconds += r.seconds[s]
                    line.faults += r.faults[s]
                faulty = {labels[held] for s, held in enumerate(r.layout) if r.faults[s]}
                for label in faulty:
                    bots[label].fault_games += 1
                for note in r.notes:
                    label = note.partition(":")[0]
                    if label in bots and len(bots[label].notes) < 3:
                        bots[label].notes.append(note)
        strata.append(units)
        for (x, y, _p), series in by_layout.items():
            pairing = pairings[(labels[x], labels[y])]
            for rnd in vp_rounds(series, size=round_size, table=table_vp):
                pairing.rounds += 1
                pairing.side_a.vp_total += rnd.vp[0]
                pairing.side_b.vp_total += rnd.vp[1]
                if rnd.vp[0] > rnd.vp[1]:
                    pairing.side_a.rounds_won += 1
                elif rnd.vp[1] > rnd.vp[0]:
                    pairing.side_b.rounds_won += 1
                else:
                    pairing.rounds_tied += 1
    for pairing in pairings.values():
        pairing.mp = mean_ci(pairing.unit_mp, level)
    anchor = _anchor(lines)
    rated = [i for i, line in enumerate(lines) if line.comparisons]
    if len(rated) >= 2:
        remap = {old: new for new, old in enumerate(rated)}
        sub_strata = [
            [[(remap[i], remap[j], w) for i, j, w in unit] for unit in units]
            for units in strata
            if units
        ]
        anchor_index = remap.get(index[anchor]) if anchor is not None else None
        intervals = bootstrap_ratings(
            sub_strata,
            len(rated),
            samples=bootstrap,
            rng=random.Random(f"burraco-arena-bootstrap:{settings.seed}"),
            anchor=anchor_index,
            virtual_ties=VIRTUAL_TIES,
            level=level,
        )
        for new, old in enumerate(rated):
            lines[old].rating = intervals.ratings[new]
            lines[old].low = intervals.low[new]
            lines[old].high = intervals.high[new]
    return Summary(
        settings,
        list(pairings.values()),
        lines,
        anchor if anchor is not None and bots[anchor].comparisons else None,
        incomplete,
        bootstrap,
        round_size,
        table_vp,
        level,
    )


def _anchor(lines: Sequence[BotLine]) -> str | None:
    for line in lines:
        if line.spec == "random":
            return line.label
    return None


# ------------------------------------------------------------------------------ text


def _signed(x: float, digits: int = 1) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:+.{digits}f}"


def _number(x: float, digits: int = 1) -> str:
    return "-" if math.isnan(x) else f"{x:,.{digits}f}"


def _rate(x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:,.0f}" if x >= 10 else f"{x:.2f}"


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Columns padded to their width: the first ``left`` left-aligned, the others right."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:
        cells = [
            str(c).ljust(w) if i < left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    return [fmt(header), fmt(["-" * w for w in widths]), *(fmt(r) for r in rows)]


def text_report(summary: Summary) -> str:
    settings = summary.settings
    rules = settings.rules
    pct = f"{100 * summary.level:g}%"
    out = [
        f"burraco arena · {rules.name} · {rules.players} players · seed {settings.seed}"
        f" · {settings.deals} duplicate deals per pairing",
    ]
    if summary.incomplete:
        out.append(f"({summary.incomplete} incomplete deals left out: rerun to finish them)")
    out += [
        "",
        "Pairings: A against B; MP (Match Points = A's score minus B's) per smazzata with its"
        f" {pct} CI over duplicate deals;",
        f"rounds of {summary.round_size} smazzate with Victory Points from table"
        f" {summary.table.name}; dec/s = decisions per second spent in choose().",
        "",
    ]
    header = [
        "A",
        "B",
        "deals",
        "smazz",
        "A won",
        "B won",
        "tied",
        "A %",
        "MP/smazz",
        f"{pct} CI",
        "rounds",
        "A-B-tied",
        "VP A",
        "dec/s A",
        "dec/s B",
    ]
    rows = []
    for p in summary.pairings:
        ci = f"[{_signed(p.mp.low)}, {_signed(p.mp.high)}]" if not math.isnan(p.mp.low) else "-"
        rows.append(
            [
                p.a,
                p.b,
                str(p.deals),
                str(p.smazzate),
                str(p.side_a.won),
                str(p.side_b.won),
                str(p.tied),
                _number(p.score_a),
                _signed(p.mp.mean),
                ci,
                str(p.rounds),
                f"{p.side_a.rounds_won}-{p.side_b.rounds_won}-{p.rounds_tied}",
                _number(p.vp_a, 2),
                _rate(p.side_a.decisions_per_second),
                _rate(p.side_b.decisions_per_second),
            ]
        )
    out += _grid(header, rows, 2)
    anchor = f"{summary.anchor} = 0" if summary.anchor is not None else "mean 0 (no random bot)"
    out += [
        "",
        f"Ratings: Bradley-Terry on smazzate won (a tie is half a win), Elo scale, {anchor};",
        f"{pct} intervals from {summary.bootstrap} bootstrap resamplings of duplicate deals.",
        "",
    ]
    header = ["rank", "bot", "rating", f"{pct} CI", "smazz", "score %", "dec/s", "faults"]
    rows = []
    ranked = sorted(summary.bots, key=lambda b: -b.rating if not math.isnan(b.rating) else math.inf)
    for rank, bot in enumerate(ranked, start=1):
        if bot.label == summary.anchor:
            ci = "(anchor)"
        elif math.isnan(bot.low):
            ci = "-"
        else:
            ci = f"[{_signed(bot.low, 0)}, {_signed(bot.high, 0)}]"
        rows.append(
            [
                str(rank),
                bot.label,
                _signed(bot.rating, 0) if bot.label != summary.anchor else "0",
                ci,
                str(bot.smazzate),
                _number(bot.score),
                _rate(bot.decisions_per_second),
                str(bot.faults),
            ]
        )
    out += _grid(header, rows, 2)
    faulty = [b for b in summary.bots if b.faults]
    if faulty:
        out += ["", "Faults: moves lost to automatic play (RULES.md T13), the arena carried on."]
        for bot in faulty:
            out.append(f"  {bot.label}: {bot.faults} moves in {bot.fault_games} smazzate")
            out += [f"    e.g. {note}" for note in bot.notes]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ CSV and chart


def _csv_number(x: float, digits: int = 3) -> str:
    return "" if math.isnan(x) else f"{x:.{digits}f}"


def write_csv(summary: Summary, pairings_path: Path, ratings_path: Path) -> None:
    with pairings_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "bot_a",
                "bot_b",
                "spec_a",
                "spec_b",
                "deals",
                "smazzate",
                "a_won",
                "b_won",
                "tied",
                "a_score_pct",
                "mp_mean",
                "mp_ci_low",
                "mp_ci_high",
                "mp_sd_per_deal",
                "a_mean_score",
                "b_mean_score",
                "rounds",
                "a_rounds_won",
                "b_rounds_won",
                "rounds_tied",
                "a_vp_mean",
                "a_decisions",
                "a_seconds",
                "a_decisions_per_s",
                "b_decisions",
                "b_seconds",
                "b_decisions_per_s",
                "a_faults",
                "b_faults",
            ]
        )
        for p in summary.pairings:
            n = p.smazzate or 1
            writer.writerow(
                [
                    p.a,
                    p.b,
                    p.spec_a,
                    p.spec_b,
                    p.deals,
                    p.smazzate,
                    p.side_a.won,
                    p.side_b.won,
                    p.tied,
                    _csv_number(p.score_a),
                    _csv_number(p.mp.mean),
                    _csv_number(p.mp.low),
                    _csv_number(p.mp.high),
                    _csv_number(p.mp.sd),
                    _csv_number(p.side_a.score_total / n),
                    _csv_number(p.side_b.score_total / n),
                    p.rounds,
                    p.side_a.rounds_won,
                    p.side_b.rounds_won,
                    p.rounds_tied,
                    _csv_number(p.vp_a),
                    p.side_a.decisions,
                    _csv_number(p.side_a.seconds, 6),
                    _csv_number(p.side_a.decisions_per_second, 1),
                    p.side_b.decisions,
                    _csv_number(p.side_b.seconds, 6),
                    _csv_number(p.side_b.decisions_per_second, 1),
                    p.side_a.faults,
                    p.side_b.faults,
                ]
            )
    with ratings_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "rank",
                "bot",
                "spec",
                "rating",
                "ci_low",
                "ci_high",
                "anchor",
                "smazzate",
                "score_pct",
                "decisions",
                "seconds",
                "decisions_per_s",
                "faults",
            ]
        )
        ranked = sorted(
            summary.bots, key=lambda b: -b.rating if not math.isnan(b.rating) else math.inf
        )
        for rank, bot in enumerate(ranked, start=1):
            writer.writerow(
                [
                    rank,
                    bot.label,
                    bot.spec,
                    _csv_number(bot.rating, 1),
                    _csv_number(bot.low, 1),
                    _csv_number(bot.high, 1),
                    int(bot.label == summary.anchor),
                    bot.smazzate,
                    _csv_number(bot.score),
                    bot.decisions,
                    _csv_number(bot.seconds, 6),
                    _csv_number(bot.decisions_per_second, 1),
                    bot.faults,
                ]
            )


def write_chart(summary: Summary, path: Path) -> None:
    """The ratings with their intervals as a PNG (matplotlib, Agg canvas, no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rated = sorted((b for b in summary.bots if not math.isnan(b.rating)), key=lambda b: b.rating)
    height = 1.6 + 0.45 * max(len(rated), 1)
    figure = Figure(figsize=(7.5, height), dpi=110, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    ys = list(range(len(rated)))
    ratings = [b.rating for b in rated]
    below = [b.rating - b.low if not math.isnan(b.low) else 0.0 for b in rated]
    above = [b.high - b.rating if not math.isnan(b.high) else 0.0 for b in rated]
    axes.errorbar(
        ratings,
        ys,
        xerr=[below, above],
        fmt="o",
        color="#1f4e79",
        ecolor="#6a8fb5",
        elinewidth=2,
        capsize=4,
    )
    axes.set_yticks(ys, [b.label for b in rated])
    axes.axvline(0.0, color="#999999", linewidth=0.8, linestyle="--")
    anchor = f"{summary.anchor} = 0" if summary.anchor is not None else "mean = 0"
    axes.set_xlabel(f"rating (Bradley-Terry, Elo scale, {anchor})")
    rules = summary.settings.rules
    axes.set_title(
        f"burraco arena: {rules.name}, {rules.players} players,"
        f" {summary.settings.deals} duplicate deals"
        f"\n{100 * summary.level:g}% bootstrap intervals ({summary.bootstrap} resamplings)",
        fontsize=10,
    )
    axes.grid(axis="x", alpha=0.3)
    if rated:
        axes.set_ylim(-0.7, len(rated) - 0.3)
    figure.savefig(path, format="png")
