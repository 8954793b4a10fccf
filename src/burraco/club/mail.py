"""E-mails of the club manager, through the club's SMTP server (seed 003: the partial and
general standings after each evening, the calendar with the rules), to every active member with
an address. ``smtplib`` runs in a worker thread (``asyncio.to_thread``), off the event loop.

Each member gets his own message (no list of everyone's addresses in ``To``). Sending stops at
the first failure: the messages already accepted by the server stay sent, the error says how
many, and nothing is recorded as published.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from . import export
from .errors import ClubError, bad, conflict
from .service import Actor, ClubService
from .texts import check_lang, rules_text, t, type_name


@dataclass(frozen=True, slots=True)
class SmtpConfig:
    host: str
    port: int = 25
    sender: str = "burraco@localhost"
    username: str | None = None
    password: str | None = None
    starttls: bool = False
    ssl: bool = False
    """SMTPS from the first byte (port 465); ``starttls`` upgrades a plain connection."""
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if not self.host:
            raise bad("no SMTP server configured (--smtp-host or BURRACO_SMTP_HOST)")
        if not 0 < self.port < 65536:
            raise bad(f"not a port: {self.port}")


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes
    maintype: str
    subtype: str


def message(
    sender: str,
    to: str,
    subject: str,
    text: str,
    *,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain="burraco.club")
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for a in attachments:
        msg.add_attachment(a.data, maintype=a.maintype, subtype=a.subtype, filename=a.filename)
    return msg


def deliver(config: SmtpConfig, messages: Sequence[EmailMessage]) -> int:
    """Send the messages over one connection (blocking); returns how many were sent."""
    sent = 0
    try:
        client: smtplib.SMTP
        if config.ssl:
            client = smtplib.SMTP_SSL(
                config.host,
                config.port,
                timeout=config.timeout,
                context=ssl.create_default_context(),
            )
        else:
            client = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
        with client:
            if config.starttls:
                client.starttls(context=ssl.create_default_context())
            if config.username:
                client.login(config.username, config.password or "")
            for msg in messages:
                client.send_message(msg)
                sent += 1
    except (OSError, smtplib.SMTPException) as error:
        raise ClubError(
            "mail_failed",
            f"the SMTP server {config.host}:{config.port} failed after {sent} of"
            f" {len(messages)} messages: {error}",
        ) from None
    return sent


async def send(config: SmtpConfig, messages: Sequence[EmailMessage]) -> int:
    return await asyncio.to_thread(deliver, config, messages)


async def mail_standings(
    service: ClubService, actor: Actor, evening_id: int, config: SmtpConfig, lang: str = "it"
) -> list[str]:
    """After a finished evening: its ranking (the partial standings) and the season standings
    after it (the general ones), to every active member with an address; as text, as a
    printable HTML part, with the standings in CSV and the chart in PNG attached. Returns the
    addresses; the sending is recorded in the audit trail and as the evening's publication."""
    lang = check_lang(lang)
    club_id = await service.club_of(evening_id=evening_id)
    await service.require_officer(actor, club_id)
    evening = await service.evening(None, evening_id)
    if not evening.finished:
        raise conflict(f"the evening of {evening.evening.date} is not finished")
    general = await service.standings(None, evening.season.id)
    counted = [e.info.id for e in general.counted]
    general = await service.standings(None, evening.season.id, after=counted.index(evening_id) + 1)
    members = await service.mailing_list(club_id)
    subject = t(lang, "mail.standings.subject", club=evening.club.name, date=evening.evening.date)
    page = export.standings_html(general, lang, evening)
    attachments = [
        Attachment("standings.csv", export.standings_csv(general).encode(), "text", "csv"),
        Attachment("evening.csv", export.evening_csv(evening).encode(), "text", "csv"),
        Attachment("standings.png", export.standings_png(general, lang), "image", "png"),
    ]
    messages = []
    for m in members:
        assert m.email is not None
        body = "\n\n".join(
            [
                t(
                    lang,
                    "mail.standings.intro",
                    name=m.name,
                    number=evening.number,
                    date=evening.evening.date,
                    type=type_name(lang, evening.type),
                    season=evening.season.name,
                    counted=len(general.counted),
                ),
                t(lang, "h.partial"),
                export.ranking_text(lang, evening),
                t(lang, "h.general"),
                export.standings_text(lang, general),
                t(lang, "mail.sign", club=evening.club.name),
            ]
        )
        messages.append(
            message(config.sender, m.email, subject, body, html=page, attachments=attachments)
        )
    await send(config, messages)
    recipients = [m.email for m in members if m.email]
    await service.note_mail(
        actor,
        club_id,
        "standings",
        recipients,
        season_id=evening.season.id,
        evening_id=evening_id,
    )
    return recipients


async def mail_calendar(
    service: ClubService, actor: Actor, season_id: int, config: SmtpConfig, lang: str = "it"
) -> list[str]:
    """The season's calendar with the tournament rules (seed 003), the .ics attached."""
    lang = check_lang(lang)
    club, season, evenings = await service.calendar(season_id)
    await service.require_officer(actor, club.id)
    members = await service.mailing_list(club.id)
    ics = await service.calendar_ics(season_id, lang)
    subject = t(lang, "mail.calendar.subject", club=club.name, season=season.name)
    page = export.calendar_html(club, season, evenings, lang)
    calendar = export.calendar_text(club, season, evenings, lang)
    messages = []
    for m in members:
        assert m.email is not None
        body = "\n\n".join(
            [
                t(lang, "mail.calendar.intro", name=m.name, season=season.name),
                t(lang, "h.calendar"),
                calendar,
                t(lang, "rules.title"),
                rules_text(lang, season),
                t(lang, "mail.sign", club=club.name),
            ]
        )
        messages.append(
            message(
                config.sender,
                m.email,
                subject,
                body,
                html=page,
                attachments=[Attachment("calendar.ics", ics.encode(), "text", "calendar")],
            )
        )
    await send(config, messages)
    recipients = [m.email for m in members if m.email]
    await service.note_mail(actor, club.id, "calendar", recipients, season_id=season_id)
    return recipients
