"""The club manager's words in Italian and English: calendar events, the rules sent with the
calendar, the e-mails and the headings of the exports. Pure: values in, text out.

``t(lang, key, **values)`` gives one text; ``lang`` is ``it`` (the default, the club's
language) or ``en``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.store.club.records import EveningStatus
from burraco.tournament import POINTS, EveningType

from .calendar import EveningTimes
from .errors import bad

if TYPE_CHECKING:
    from burraco.store.club import ClubInfo, SeasonInfo

    from .views import SeasonEvening

LANGS = ("it", "en")
WEEKDAY_NAMES = {
    "it": (
        "il lunedì",
        "il martedì",
        "il mercoledì",
        "il giovedì",
        "il venerdì",
        "il sabato",
        "la domenica",
    ),
    "en": ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"),
}

TEXTS: dict[str, dict[str, str]] = {
    "type.internazionale": {"it": "Burraco Internazionale", "en": "Burraco Internazionale"},
    "type.italiano": {"it": "Burraco Italiano", "en": "Burraco Italiano"},
    "evening": {"it": "Serata {number}", "en": "Evening {number}"},
    "cancelled": {"it": "ANNULLATA", "en": "CANCELLED"},
    "summary": {"it": "{club}: {evening}, {type}", "en": "{club}: {evening}, {type}"},
    "checkin": {
        "it": "Estrazione e registrazione dei presenti dalle {opens} alle {closes}; chi arriva"
        " dopo le {closes} non gioca.",
        "en": "Check-in and draw from {opens} to {closes}; players arriving after {closes} do"
        " not play.",
    },
    "games": {
        "it": "{games} partite da {minutes} minuti.",
        "en": "{games} games of {minutes} minutes.",
    },
    "one_fewer": {
        "it": "Questa sera si gioca una partita in meno.",
        "en": "One game fewer this evening.",
    },
    "break": {
        "it": "Pausa di {minutes} minuti dopo due partite ({start}-{end}).",
        "en": "A {minutes}-minute break after two games ({start}-{end}).",
    },
    "ends": {"it": "Fine prevista alle {end}.", "en": "Planned end at {end}."},
    # the rules sent with the calendar (seed 003, RULES.md T26-T30)
    "rules.title": {"it": "Regolamento del torneo", "en": "Tournament rules"},
    "rules": {
        "it": (
            "- Il torneo {season} si gioca {weekday} secondo il calendario: serate di Burraco"
            " Internazionale (3 partite da 50 minuti) e di Burraco Italiano (4 partite da 35"
            " minuti); i Responsabili possono decidere di giocare una partita in meno.\n"
            "- Registrazione dei presenti dalle {opens} alle {closes}; la presenza comunicata"
            " dopo le {closes} non è valida e il ritardatario non gioca. Il sorteggio dei"
            " tavoli avviene alla chiusura della registrazione.\n"
            "- Si gioca a coppie variabili, con un compagno diverso a ogni partita; i punti"
            " vittoria (VP) seguono la tabella {vp_table}.\n"
            "- Se i presenti non sono un multiplo di quattro, a ogni partita sono sorteggiati i"
            " nomi di chi riposa (mai due volte nella stessa serata prima che tutti abbiano"
            " riposato): chi riposa riceve 10 VP e 0 MP.\n"
            "- Classifica della serata per VP totali; a parità, lo score migliore (MP). Punti"
            " ai primi dieci: {points}; agli altri 0. La classifica generale è la somma dei"
            " punti delle serate.\n"
            "- Premio settimanale al miglior punteggio della serata (cumulabili, consegnati a"
            " fine torneo); premi di fine torneo ai primi tre della classifica generale.\n"
            "- Le quote si versano nella prima serata di ogni mese, prima delle partite o"
            " durante la pausa.\n"
            "- Durante la pausa, dopo due partite, si può chiedere ai Responsabili la verifica"
            " dei punteggi pubblicati. Le classifiche parziale e generale sono inviate per"
            " e-mail dopo ogni serata."
        ),
        "en": (
            "- The {season} tournament is played on {weekday} as the calendar says: evenings of"
            " Burraco Internazionale (3 games of 50 minutes) and of Burraco Italiano (4 games"
            " of 35 minutes); the officers may decide to play one game fewer.\n"
            "- Players present register from {opens} to {closes}; registrations after {closes}"
            " are not valid and late players do not play. The tables are drawn when"
            " registration closes.\n"
            "- Players change partner at every game; victory points (VP) follow table"
            " {vp_table}.\n"
            "- When the players present are not a multiple of four, the names of those who rest"
            " are drawn for each game (nobody rests twice in an evening before everyone has"
            " rested): a rest is worth 10 VP and 0 MP.\n"
            "- The evening ranking is by total VP; ties go to the better score (MP). Points to"
            " the first ten: {points}; 0 to the others. The season standings are the sum of"
            " the evenings' points.\n"
            "- A weekly prize for the best score of each evening (they add up and are handed"
            " out at the end of the tournament); prizes for the first three of the season.\n"
            "- Fees are paid at the first evening of each month, before the games or during the"
            " break.\n"
            "- During the break, after two games, players may ask the officers to check a"
            " published score. The partial and general standings are e-mailed after every"
            " evening."
        ),
    },
    # e-mails
    "mail.standings.subject": {
        "it": "{club}: classifiche dopo la serata del {date}",
        "en": "{club}: standings after the evening of {date}",
    },
    "mail.standings.intro": {
        "it": "Ciao {name},\n\necco la classifica della serata {number} ({date}, {type}) e la"
        " classifica generale del torneo {season} dopo {counted} serate.",
        "en": "Hello {name},\n\nhere are the ranking of evening {number} ({date}, {type}) and"
        " the general standings of the {season} tournament after {counted} evenings.",
    },
    "mail.calendar.subject": {
        "it": "{club}: calendario e regolamento del torneo {season}",
        "en": "{club}: calendar and rules of the {season} tournament",
    },
    "mail.calendar.intro": {
        "it": "Ciao {name},\n\nin allegato il calendario del torneo {season} (file .ics da"
        " aprire con il proprio calendario) e qui sotto le serate e il regolamento.",
        "en": "Hello {name},\n\nattached is the calendar of the {season} tournament (an .ics"
        " file for your calendar app); the evenings and the rules follow.",
    },
    "mail.sign": {"it": "I Responsabili del {club}", "en": "The officers of {club}"},
    # headings
    "h.partial": {"it": "Classifica della serata", "en": "Evening ranking"},
    "h.general": {"it": "Classifica generale", "en": "Season standings"},
    "h.calendar": {"it": "Calendario", "en": "Calendar"},
    "h.place": {"it": "Pos.", "en": "Place"},
    "h.player": {"it": "Giocatore", "en": "Player"},
    "h.vp": {"it": "VP", "en": "VP"},
    "h.mp": {"it": "MP", "en": "MP"},
    "h.points": {"it": "Punti", "en": "Points"},
    "h.played": {"it": "Partite", "en": "Games"},
    "h.rests": {"it": "Riposi", "en": "Rests"},
    "h.evenings": {"it": "Serate", "en": "Evenings"},
    "h.weekly": {"it": "Premi sett.", "en": "Weekly prizes"},
    "h.date": {"it": "Data", "en": "Date"},
    "h.type": {"it": "Tipo", "en": "Type"},
    "h.number": {"it": "N.", "en": "No."},
    "h.checkin": {"it": "Registrazione", "en": "Check-in"},
    "h.end": {"it": "Fine prevista", "en": "Planned end"},
    "h.game": {"it": "Partita {number}", "en": "Game {number}"},
    "h.score": {"it": "Punteggio", "en": "Score"},
    "h.rest": {"it": "riposa", "en": "rests"},
    "h.chart": {
        "it": "{season}: punti dopo ogni serata",
        "en": "{season}: points after each evening",
    },
    "h.after": {"it": "Serata", "en": "Evening"},
}


def check_lang(lang: str) -> str:
    lang = (lang or "it").strip().lower()
    if lang not in LANGS:
        raise bad(f"the language is it or en, not {lang!r}")
    return lang


def t(lang: str, key: str, **values: object) -> str:
    """One text in ``lang`` (``it`` or ``en``) with ``values`` filled in."""
    text = TEXTS[key][check_lang(lang)]
    return text.format(**values) if values else text


def type_name(lang: str, kind: EveningType | str) -> str:
    return t(lang, f"type.{EveningType(kind).value}")


def points_text() -> str:
    return ", ".join(f"{place}° {p}" for place, p in enumerate(POINTS, 1))


def evening_summary(lang: str, e: SeasonEvening, season: SeasonInfo, club: ClubInfo) -> str:
    """The title of a calendar event: the club, the evening's number and its type."""
    what = t(lang, "evening", number=e.number) if e.number else t(lang, "cancelled")
    summary = t(lang, "summary", club=club.name, evening=what, type=type_name(lang, e.type))
    if e.info.status is EveningStatus.CANCELLED and e.number:
        summary += f" ({t(lang, 'cancelled')})"
    return summary


def evening_description(
    lang: str, e: SeasonEvening, season: SeasonInfo, times: EveningTimes
) -> str:
    """The text of a calendar event: check-in, games, break, end."""
    kind = EveningType(e.type)
    lines = [
        t(
            lang,
            "checkin",
            opens=f"{times.checkin_opens:%H:%M}",
            closes=f"{times.checkin_closes:%H:%M}",
        ),
        t(lang, "games", games=len(times.games), minutes=kind.minutes),
    ]
    if e.info.one_game_fewer:
        lines.append(t(lang, "one_fewer"))
    if times.break_ is not None:
        start, end = times.break_
        lines.append(
            t(
                lang,
                "break",
                minutes=season.break_minutes,
                start=f"{start:%H:%M}",
                end=f"{end:%H:%M}",
            )
        )
    lines.append(t(lang, "ends", end=f"{times.end:%H:%M}"))
    if e.info.note:
        lines.append(e.info.note)
    return "\n".join(lines)


def rules_text(lang: str, season: SeasonInfo) -> str:
    """The tournament rules sent with the calendar (seed 003), and the club's own note."""
    text = t(
        lang,
        "rules",
        season=season.name,
        weekday=WEEKDAY_NAMES[check_lang(lang)][season.weekday],
        opens=f"{season.checkin_opens:%H:%M}",
        closes=f"{season.checkin_closes:%H:%M}",
        vp_table=season.vp_table,
        points=points_text(),
    )
    if season.rules_note:
        text += "\n\n" + season.rules_note
    return text
