"""Invitations by mail (issue 16; docs/accounts.md): an invitation to a table or a challenge is
also mailed to the invitee who asked for it (``mail_invitations``, off by default) and has a
confirmed address, when no page of the site is open for him. Never for a guest's invitation.
Limited (``mail_sent``, purpose ``invitation``, with the inviter as ``sender_id``) so that
invitations cannot fill an inbox; sent off the request's path: a refused mail is logged and
the invitation stands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any, Final, Literal
from urllib.parse import quote

from burraco.errors import ServiceError
from burraco.store import AccountStore, UserInfo

from .clock import Clock, SystemClock
from .mailer import Mailer
from .tableconfig import TableConfig

log = logging.getLogger("burraco.invitemail")

PURPOSE: Final = "invitation"
"""The ``mail_sent`` purpose of these mails (not counted by the verification/reset limits)."""
PAIR_WINDOW: Final = timedelta(minutes=10)
"""At most one mail per (inviter, invitee) in this time."""
PER_INVITEE: Final = 5
"""Invitation mails to one account in an hour, at most (whoever invites)."""
PER_INVITER: Final = 10
"""Invitation mails one player's invitations cause in an hour, at most (to anybody)."""
LOBBY_SEEN_SECONDS: Final = 30.0
"""A lobby (it opens no WebSocket) that asked for its friends this recently is an open page:
it polls every few seconds and shows the invitation itself."""
SHUTDOWN_SECONDS: Final = 5.0
"""How long the server's stop waits for mails still being sent."""

Kind = Literal["invite", "challenge"]

_WORDS: Final[dict[str, dict[str, str]]] = {
    "it": {
        "players": "{n} giocatori",
        "target": "a {n} punti",
        "smazzate": "{n} smazzate",
        "smazzata": "1 smazzata",
        "clock": "orologio di {each} per parte",
        "turn": "{seconds} s a mano",
        "no_clock": "senza tempo",
        "rated": "valida per le classifiche",
    },
    "en": {
        "players": "{n} players",
        "target": "to {n} points",
        "smazzate": "{n} smazzate",
        "smazzata": "1 smazzata",
        "clock": "a clock of {each} per side",
        "turn": "{seconds} s a turn",
        "no_clock": "no clock",
        "rated": "rated",
    },
}
_PRESETS: Final[dict[str, dict[str, str]]] = {
    "it": {
        "classic": "regole classiche",
        "internazionale": "regole internazionali",
        "italian-semipulito": "regole italiane con semipulito",
        "reale": "Burraco Reale",
    },
    "en": {
        "classic": "classic rules",
        "internazionale": "international rules",
        "italian-semipulito": "Italian rules with semi-clean",
        "reale": "Burraco Reale",
    },
}


def describe(config: TableConfig, lang: str) -> str:
    """A table's settings in words (the lobby's ``describeConfig``, for a mail)."""
    words = _WORDS["en" if lang == "en" else "it"]
    presets = _PRESETS["en" if lang == "en" else "it"]
    rules = config.ruleset()
    parts = [words["players"].format(n=config.players)]
    if rules.name in presets:
        parts.append(presets[rules.name])
    if rules.target_score is not None:
        parts.append(words["target"].format(n=rules.target_score))
    if rules.smazzate is not None:
        parts.append(
            words["smazzata"] if rules.smazzate == 1 else words["smazzate"].format(n=rules.smazzate)
        )
    if config.round_seconds is not None:
        each = int(config.round_seconds // (3 if config.players == 3 else 2))
        parts.append(words["clock"].format(each=f"{each // 60}:{each % 60:02d}"))
        if config.hand_seconds is not None:
            parts.append(words["turn"].format(seconds=f"{config.hand_seconds:g}"))
    else:
        parts.append(words["no_clock"])
    if config.rated:
        parts.append(words["rated"])
    return ", ".join(parts)


class InvitationMail:
    """The hub's: decides (at once, for the answer's ``mailed``) and sends (in a task)."""

    def __init__(self, accounts: AccountStore, mailer: Mailer, clock: Clock | None = None) -> None:
        self.accounts = accounts
        self.mailer = mailer
        self.clock: Clock = clock or SystemClock()
        """The hub's: when a lobby was last seen, the mail limits' windows."""
        self._lock = asyncio.Lock()
        """Around the limits' check and the log of the mail: two invitations at once cannot
        both pass a limit (in this process)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lobby_seen: dict[int, float] = {}

    def seen_at_lobby(self, user_id: int) -> None:
        """The user's lobby asked for his friends (and invitations) now."""
        now = self.clock.monotonic()
        self._lobby_seen[user_id] = now
        if len(self._lobby_seen) > 1000:
            old = now - LOBBY_SEEN_SECONDS
            for uid in [u for u, at in self._lobby_seen.items() if at < old]:
                del self._lobby_seen[uid]

    def at_lobby(self, user_id: int) -> bool:
        at = self._lobby_seen.get(user_id)
        return at is not None and self.clock.monotonic() - at < LOBBY_SEEN_SECONDS

    async def offer(
        self,
        *,
        inviter: UserInfo,
        invitee_id: int,
        kind: Kind,
        table_id: str,
        config: TableConfig,
        base_url: str,
        online: set[int],
    ) -> bool:
        """Mail the invitation if the invitee wants it and may get it now; whether a mail is
        on its way (it is sent off the caller's path)."""
        if inviter.is_guest or not self.mailer.available:
            return False
        if invitee_id in online or self.at_lobby(invitee_id):
            return False
        account = await self.accounts.account(invitee_id)
        if account is None or account.email is None or not account.mail_invitations:
            return False
        async with self._lock:
            now = self.clock.utcnow()
            if not await self._within_limits(inviter.id, invitee_id, now):
                log.info(
                    "invitation mail from %s to %s: over the limits", inviter.name, account.name
                )
                return False
            # Logged before it is sent: the limits count the mails on their way, and a mail
            # the server refuses (it may be refused again) counts too.
            await self.accounts.log_mail(
                account.email, invitee_id, PURPOSE, now=now, sender_id=inviter.id
            )
        lang = "it"  # the account keeps no language: the site's (docs/accounts.md)
        values = {
            "name": account.name,
            "by": inviter.name,
            "settings": describe(config, lang),
            "link": f"{base_url.rstrip('/')}/?table={quote(table_id, safe='')}",
        }
        self._spawn(self._send(account.email, kind, lang, values))
        return True

    async def _within_limits(self, inviter_id: int, invitee_id: int, now: datetime) -> bool:
        mails = self.accounts.mails_since
        pair = await mails(
            user_id=invitee_id, sender_id=inviter_id, purposes=[PURPOSE], since=now - PAIR_WINDOW
        )
        if pair > 0:
            return False
        hour = now - timedelta(hours=1)
        if await mails(user_id=invitee_id, purposes=[PURPOSE], since=hour) >= PER_INVITEE:
            return False
        return await mails(sender_id=inviter_id, purposes=[PURPOSE], since=hour) < PER_INVITER

    async def _send(self, to: str, kind: Kind, lang: str, values: dict[str, str]) -> None:
        try:
            await self.mailer.send(to, kind, lang, **values)
        except ServiceError as error:
            log.warning("%s mail from %s to %s: %s", kind, values["by"], values["name"], error)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("invitation mail failed", exc_info=task.exception())

    async def settle(self, timeout: float | None = None) -> None:
        """Wait for the mails being sent (at most ``timeout`` seconds)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def close(self) -> None:
        """The server stops: the mails on their way get a few seconds, then are dropped."""
        await self.settle(SHUTDOWN_SECONDS)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
