"""Exports of the club manager: CSV, printable HTML pages, the PNG chart of the season
standings over the evenings, the printable calendar. Pure: views in, text or bytes out.

The HTML pages are self-contained (inline CSS, no script) and print on A4: the organiser pins
them on the club's notice board (seed 003: "messa in bacheca").
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Sequence

from burraco.store.club import ClubInfo, EveningStatus, SeasonInfo

from . import calendar as cal
from . import fees as fee
from .texts import evening_description, rules_text, t, type_name
from .views import ClubReport, EveningView, MemberReport, SeasonEvening, StandingsView

# ------------------------------------------------------------------------------ CSV


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text cell that a spreadsheet would read as a formula (a member named ``=HYPERLINK(..)``)
    is quoted with a leading apostrophe, as OWASP advises; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue()


def evening_csv(view: EveningView) -> str:
    """The evening ranking (T27, T28): place, player, VP, MP, points, games played, rests."""
    return _csv(
        ("place", "player", "vp", "mp", "points", "played", "rests"),
        ((r.place, r.player, r.vp, r.mp, r.points, r.played, r.rests) for r in view.ranking.rows),
    )


def results_csv(view: EveningView) -> str:
    """Every game's tables: the lines, the scores, MP and VP; and who rested."""
    rows: list[Sequence[object]] = []
    for g in view.games:
        for table in g.tables:
            result = table.result
            rows.append(
                (
                    g.number,
                    table.number,
                    " & ".join(table.lines[0]),
                    " & ".join(table.lines[1]),
                    "" if result is None else result.ns,
                    "" if result is None else result.ew,
                    "" if table.mp is None else table.mp[0],
                    "" if table.vp is None else table.vp[0],
                    "" if table.vp is None else table.vp[1],
                )
            )
        rows.extend((g.number, "rest", name, "", "", "", "", 10, "") for name in g.rests)
    return _csv(
        ("game", "table", "ns", "ew", "ns_score", "ew_score", "ns_mp", "ns_vp", "ew_vp"), rows
    )


def standings_csv(view: StandingsView) -> str:
    """The season standings (T28) with each counted evening's points."""
    header = ["place", "player", "points", "evenings", "weekly_prizes"]
    header += [f"{e.info.date}" for e in view.counted]
    per_evening = [
        {r.player: r.points for r in e.ranking.rows} if e.ranking else {} for e in view.counted
    ]
    return _csv(
        header,
        (
            [r.place, r.player, r.points, r.evenings, r.weekly_prizes]
            + [points.get(r.player, "") for points in per_evening]
            for r in view.rows
        ),
    )


def fees_csv(report: fee.FeesReport) -> str:
    return _csv(
        ("member", "months", "owed", "paid", "balance"),
        (
            (
                a.member,
                " ".join(f.period for f in a.fees),
                fee.euros(a.owed_cents),
                fee.euros(a.paid_cents),
                fee.euros(a.balance_cents),
            )
            for a in report.accounts
        ),
    )


# ------------------------------------------------------------------------------ HTML

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.2em 0 .4em; }
p.sub { margin: 0 0 1em; color: #444; }
table { border-collapse: collapse; margin: .3em 0 1em; }
th, td { border: 1px solid #999; padding: .2em .6em; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #f3f3f3; }
pre { white-space: pre-wrap; font-family: inherit; }
@media print { body { margin: 0; } h2 { break-after: avoid; } table { break-inside: avoid; } }
"""


def _e(value: object) -> str:
    return html.escape(str(value))


def _page(lang: str, title: str, subtitle: str, body: Sequence[str]) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{lang}"><head><meta charset="utf-8">',
            f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
            f"<h1>{_e(title)}</h1>",
            f'<p class="sub">{_e(subtitle)}</p>',
            *body,
            "</body></html>",
            "",
        ]
    )


def _table(header: Sequence[tuple[str, bool]], rows: Iterable[Sequence[object]]) -> str:
    """``header``: (label, numeric) per column."""
    head = "".join(f"<th{' class=n' if n else ''}>{_e(label)}</th>" for label, n in header)
    body = []
    for row in rows:
        cells = "".join(
            f"<td{' class=n' if n else ''}>{_e(v)}</td>"
            for v, (_, n) in zip(row, header, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def ranking_table(lang: str, view: EveningView) -> str:
    return _table(
        [
            (t(lang, "h.place"), True),
            (t(lang, "h.player"), False),
            (t(lang, "h.vp"), True),
            (t(lang, "h.mp"), True),
            (t(lang, "h.points"), True),
            (t(lang, "h.played"), True),
            (t(lang, "h.rests"), True),
        ],
        (
            (r.place, r.player, r.vp, f"{r.mp:+d}", r.points, r.played, r.rests)
            for r in view.ranking.rows
        ),
    )


def standings_table(lang: str, view: StandingsView) -> str:
    return _table(
        [
            (t(lang, "h.place"), True),
            (t(lang, "h.player"), False),
            (t(lang, "h.points"), True),
            (t(lang, "h.evenings"), True),
            (t(lang, "h.weekly"), True),
        ],
        ((r.place, r.player, r.points, r.evenings, r.weekly_prizes) for r in view.rows),
    )


def evening_title(lang: str, view: EveningView) -> str:
    return (
        f"{view.club.name}: {t(lang, 'evening', number=view.number)}, {view.evening.date}"
        f" ({type_name(lang, view.type)})"
    )


def evening_html(view: EveningView, lang: str = "it") -> str:
    """The printable page of an evening: each game's tables and rests, and the ranking."""
    body = [f"<h2>{_e(t(lang, 'h.partial'))}</h2>", ranking_table(lang, view)]
    for g in view.games:
        body.append(f"<h2>{_e(t(lang, 'h.game', number=g.number))}</h2>")
        rows: list[tuple[object, ...]] = []
        for table in g.tables:
            r = table.result
            rows.append(
                (
                    table.number,
                    " & ".join(table.lines[0]),
                    " & ".join(table.lines[1]),
                    "" if r is None else f"{r.ns} - {r.ew}",
                    "" if table.vp is None else f"{table.vp[0]} - {table.vp[1]}",
                )
            )
        rows.extend(("-", name, t(lang, "h.rest"), "", "10") for name in g.rests)
        body.append(
            _table(
                [
                    ("#", True),
                    ("NS", False),
                    ("EW", False),
                    (t(lang, "h.score"), True),
                    ("VP", True),
                ],
                rows,
            )
        )
    return _page(lang, evening_title(lang, view), view.season.name, body)


def standings_html(
    view: StandingsView, lang: str = "it", evening: EveningView | None = None
) -> str:
    """The printable season standings (with the evening's ranking first, when given: the
    partial and the general standings of seed 003)."""
    body: list[str] = []
    if evening is not None:
        body += [f"<h2>{_e(evening_title(lang, evening))}</h2>", ranking_table(lang, evening)]
    body += [f"<h2>{_e(t(lang, 'h.general'))}</h2>", standings_table(lang, view)]
    subtitle = f"{t(lang, 'h.evenings')}: {len(view.counted)}"
    return _page(lang, f"{view.club.name}: {view.season.name}", subtitle, body)


def evening_timetable(season: SeasonInfo, club: ClubInfo, e: SeasonEvening) -> cal.EveningTimes:
    return cal.evening_times(
        e.info.date,
        cal.zone(club.timezone),
        opens=season.checkin_opens,
        closes=season.checkin_closes,
        type=e.type,
        one_game_fewer=e.info.one_game_fewer,
        break_minutes=season.break_minutes,
    )


def calendar_html(
    club: ClubInfo, season: SeasonInfo, evenings: Sequence[SeasonEvening], lang: str = "it"
) -> str:
    """The printable calendar, with the rules of the tournament."""
    rows = []
    for e in evenings:
        times = evening_timetable(season, club, e)
        rows.append(
            (
                e.number or "-",
                f"{e.info.date:%d/%m/%Y}",
                type_name(lang, e.type)
                + (
                    f" ({t(lang, 'cancelled')})" if e.info.status is EveningStatus.CANCELLED else ""
                ),
                e.games,
                f"{times.checkin_opens:%H:%M}-{times.checkin_closes:%H:%M}",
                f"{times.end:%H:%M}",
            )
        )
    body = [
        f"<h2>{_e(t(lang, 'h.calendar'))}</h2>",
        _table(
            [
                (t(lang, "h.number"), True),
                (t(lang, "h.date"), False),
                (t(lang, "h.type"), False),
                (t(lang, "h.played"), True),
                (t(lang, "h.checkin"), False),
                (t(lang, "h.end"), False),
            ],
            rows,
        ),
        f"<h2>{_e(t(lang, 'rules.title'))}</h2>",
        f"<pre>{_e(rules_text(lang, season))}</pre>",
    ]
    return _page(lang, f"{club.name}: {season.name}", club.place, body)


def calendar_text(
    club: ClubInfo, season: SeasonInfo, evenings: Sequence[SeasonEvening], lang: str = "it"
) -> str:
    """The calendar in plain text (the body of the calendar e-mail, the console)."""
    lines = []
    for e in evenings:
        head = f"{e.number or '-':>2}  {e.info.date:%d/%m/%Y}  {type_name(lang, e.type)}"
        if e.info.status is EveningStatus.CANCELLED:
            head += f" ({t(lang, 'cancelled')})"
        lines.append(head)
        times = evening_timetable(season, club, e)
        lines.extend(
            f"      {line}" for line in evening_description(lang, e, season, times).splitlines()
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------------ the chart


def standings_png(view: StandingsView, lang: str = "it", *, top: int = 12) -> bytes:
    """A line chart of the season standings over the evenings: each player's points after
    each finished evening (the ``top`` players of the current standings), as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 5.5), dpi=100)
    axes = figure.subplots()
    xs = list(range(len(view.counted) + 1))
    for i, row in enumerate(view.rows[:top]):
        points = view.progress.get(row.player, ())
        axes.plot(
            xs,
            [0, *points],
            marker="o",
            markersize=3,
            linestyle="-" if i < 10 else "--",
            label=f"{row.place}. {row.player}",
        )
    axes.set_xlabel(t(lang, "h.after"))
    axes.set_ylabel(t(lang, "h.points"))
    axes.set_title(t(lang, "h.chart", season=view.season.name))
    axes.set_xticks(xs)
    axes.grid(True, alpha=0.3)
    if view.rows:
        axes.legend(loc="upper left", fontsize="small", ncols=2)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


# ------------------------------------------------------------------------------ reports


def member_report_text(report: MemberReport) -> str:
    lines = [f"{report.member}: {report.club.name}, {report.season.name}"]
    if report.standing is None:
        lines.append("not ranked yet")
    else:
        s = report.standing
        lines.append(
            f"place {s.place}, {s.points} points, {s.evenings} evenings,"
            f" {s.weekly_prizes} weekly prizes"
        )
    lines.append("evening     type            place  VP    MP   points  rests")
    for e in report.evenings:
        date = f"{e.evening.info.date}"
        kind = e.evening.type.value
        if e.row is None:
            lines.append(f"{date}  {kind:<14}  absent")
            continue
        r = e.row
        late = "  (late, admitted)" if e.late else ""
        lines.append(
            f"{date}  {kind:<14}  {r.place:>5}  {r.vp:>3}  {r.mp:>+5}  {r.points:>6}"
            f"  {r.rests:>5}{late}"
        )
    for w in report.weekly:
        lines.append(f"weekly prize: evening {w.number} ({w.evening.date}), {w.vp} VP")
    if report.season_prize is not None:
        p = report.season_prize
        lines.append(f"season prize: place {p.place}, value {fee.euros(p.value_cents)}")
    if report.account is not None:
        a = report.account
        months = ", ".join(f"{f.period} (due {f.due_on})" for f in a.fees) or "none"
        lines.append(f"monthly fees: {months}")
        for adj in a.adjustments:
            lines.append(f"adjustment {fee.euros(adj.amount_cents)} on {adj.due_on}: {adj.reason}")
        for pay in a.payments:
            lines.append(f"paid {fee.euros(pay.amount_cents)} on {pay.paid_on} {pay.note}".rstrip())
        lines.append(
            f"owed {fee.euros(a.owed_cents)}, paid {fee.euros(a.paid_cents)},"
            f" balance {fee.euros(a.balance_cents)}"
        )
    return "\n".join(lines) + "\n"


def club_report_text(report: ClubReport) -> str:
    f = report.fees
    lines = [
        f"{report.club.name}: {report.season.name}"
        f" ({report.season.starts_on} to {report.season.ends_on})",
        f"members {report.members}; evenings: {report.count(EveningStatus.FINISHED)} finished,"
        f" {report.count(EveningStatus.PLAYING)} playing,"
        f" {report.count(EveningStatus.SCHEDULED)} scheduled,"
        f" {report.count(EveningStatus.CANCELLED)} cancelled",
        "no.  date        type            players  late  best",
    ]
    for e in report.evenings:
        ev = e.evening
        lines.append(
            f"{ev.number or '-':>3}  {ev.info.date}  {ev.type.value:<14}  {e.players:>7}"
            f"  {e.late:>4}  {', '.join(e.best)}"
        )
    lines.append(f"results corrected: {report.corrections}")
    lines.append(
        f"fees: owed {fee.euros(f.owed_cents)}, paid {fee.euros(f.paid_cents)},"
        f" outstanding {fee.euros(f.outstanding_cents)}"
    )
    lines.append(
        f"prize pool {fee.euros(f.pool_cents)} ({f.monthly_fees} monthly fees x"
        f" {fee.euros(f.pool_share_cents)}), prizes {fee.euros(f.prizes_cents)},"
        f" left {fee.euros(f.pool_left_cents)}"
    )
    for p in report.prizes.season:
        lines.append(
            f"season prize: place {p.place} {p.player} ({p.points} points),"
            f" {fee.euros(p.value_cents)}"
        )
    for player, count in sorted(report.prizes.weekly_by_player.items()):
        lines.append(f"weekly prizes: {player} x{count}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ plain text


def ranking_text(lang: str, view: EveningView) -> str:
    """The evening ranking as aligned text (the console, the e-mails)."""
    width = max([len(r.player) for r in view.ranking.rows] + [len(t(lang, "h.player"))])
    lines = [
        f"{t(lang, 'h.place'):>5}  {t(lang, 'h.player'):<{width}}  {'VP':>4}  {'MP':>6}"
        f"  {t(lang, 'h.points'):>6}  {t(lang, 'h.rests'):>6}"
    ]
    lines += [
        f"{r.place:>5}  {r.player:<{width}}  {r.vp:>4}  {r.mp:>+6}  {r.points:>6}  {r.rests:>6}"
        for r in view.ranking.rows
    ]
    return "\n".join(lines)


def standings_text(lang: str, view: StandingsView) -> str:
    """The season standings as aligned text."""
    width = max([len(r.player) for r in view.rows] + [len(t(lang, "h.player"))])
    lines = [
        f"{t(lang, 'h.place'):>5}  {t(lang, 'h.player'):<{width}}  {t(lang, 'h.points'):>6}"
        f"  {t(lang, 'h.evenings'):>7}  {t(lang, 'h.weekly')}"
    ]
    lines += [
        f"{r.place:>5}  {r.player:<{width}}  {r.points:>6}  {r.evenings:>7}  {r.weekly_prizes}"
        for r in view.rows
    ]
    return "\n".join(lines)
