"""Account mails through the configured SMTP server with ``aiosmtplib`` (an asyncio SMTP
client, maintained, typed: the event loop is never blocked by a slow mail server, where the
club manager's batches run ``smtplib`` in a thread). Texts in the reader's language."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Final

import aiosmtplib

from burraco.errors import ErrorCode, ServiceError

from .config import ServerConfig

TEXTS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "verify": {
        "it": (
            "Conferma il tuo indirizzo per Burraco",
            "Ciao {name},\n\nper confermare questo indirizzo apri il collegamento:\n{link}\n\n"
            "Vale 24 ore e una volta sola. Se non sei stato tu, ignora questo messaggio.\n",
        ),
        "en": (
            "Confirm your address for Burraco",
            "Hello {name},\n\nto confirm this address, open the link:\n{link}\n\n"
            "It works once, for 24 hours. If it was not you, ignore this message.\n",
        ),
    },
    "standings": {
        "it": (
            "Classifica finale: {tournament}",
            "Ciao {name},\n\nil torneo {tournament} è finito. La classifica finale:\n\n{table}\n"
            "\nHai chiesto queste classifiche per e-mail; dal tuo account puoi smettere.\n",
        ),
        "en": (
            "Final standings: {tournament}",
            "Hello {name},\n\nthe tournament {tournament} is over. The final standings:\n\n"
            "{table}\n\nYou asked for these standings by e-mail; your account can stop them.\n",
        ),
    },
    "invite": {
        "it": (
            "{by} ti invita al suo tavolo di Burraco",
            "Ciao {name},\n\n{by} ti invita al suo tavolo di Burraco: {settings}.\n"
            "Per sederti apri il collegamento:\n{link}\n\n"
            "Ti scriviamo perché non avevi pagine del sito aperte e hai chiesto gli inviti per\n"
            "e-mail; dal tuo account puoi smettere.\n",
        ),
        "en": (
            "{by} invites you to a Burraco table",
            "Hello {name},\n\n{by} invites you to a Burraco table: {settings}.\n"
            "To take a seat, open the link:\n{link}\n\n"
            "We write because you had no page of the site open and asked for invitations by\n"
            "e-mail; your account can stop them.\n",
        ),
    },
    "challenge": {
        "it": (
            "{by} ti sfida a Burraco",
            "Ciao {name},\n\n{by} ti sfida a una partita a un tavolo privato: {settings}.\n"
            "Per accettare apri il collegamento:\n{link}\n\n"
            "Ti scriviamo perché non avevi pagine del sito aperte e hai chiesto gli inviti per\n"
            "e-mail; dal tuo account puoi smettere.\n",
        ),
        "en": (
            "{by} challenges you to Burraco",
            "Hello {name},\n\n{by} challenges you to a match at a private table: {settings}.\n"
            "To accept, open the link:\n{link}\n\n"
            "We write because you had no page of the site open and asked for invitations by\n"
            "e-mail; your account can stop them.\n",
        ),
    },
    "reset": {
        "it": (
            "Nuova password per Burraco",
            "Ciao {name},\n\nper scegliere una nuova password apri il collegamento:\n{link}\n\n"
            "Vale un'ora e una volta sola. Se non l'hai chiesta tu, ignora questo messaggio:\n"
            "la tua password non cambia.\n",
        ),
        "en": (
            "A new password for Burraco",
            "Hello {name},\n\nto choose a new password, open the link:\n{link}\n\n"
            "It works once, for one hour. If you did not ask for it, ignore this message:\n"
            "your password stays as it is.\n",
        ),
    },
}


class Mailer:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config

    @property
    def available(self) -> bool:
        return self.config.smtp_host is not None

    def require(self) -> None:
        if not self.available:
            raise ServiceError(
                ErrorCode.MAIL_UNAVAILABLE,
                "this server sends no mail (no SMTP server configured: --smtp-host)",
            )

    async def send(self, to: str, kind: str, lang: str, **values: str) -> None:
        """One mail of ``kind`` (a key of ``TEXTS``) to ``to``; a failure of the mail server
        is ``mail_failed`` (nothing else changed)."""
        self.require()
        subject, body = TEXTS[kind]["en" if lang == "en" else "it"]
        message = EmailMessage()
        message["From"] = self.config.mail_from
        message["To"] = to
        message["Subject"] = subject.format(**values)
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain="burraco.local")
        message.set_content(body.format(**values))
        try:
            await aiosmtplib.send(
                message,
                hostname=self.config.smtp_host,
                port=self.config.smtp_port,
                start_tls=self.config.smtp_starttls,
                username=self.config.smtp_username,
                password=self.config.smtp_password,
                timeout=30,
            )
        except (aiosmtplib.SMTPException, OSError) as error:
            raise ServiceError(
                ErrorCode.MAIL_FAILED, f"the mail server refused or failed: {error}"
            ) from error
