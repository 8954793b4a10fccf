"""Lasting accounts in the database (``AccountStore(store)``): the verified address, the
single-use tokens of the mailed links, password changes with the sessions they end, the mails
sent (for the limits: per address, per account, per inviter), the account's data for its
export, and its deletion."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from burraco.tournament.lifecycle import TournamentStatus

from . import account_models as a
from . import models
from . import review_models as rm
from . import tournament_models as tm
from .store import Store, _aware, fresh_token, hash_token


class TokenError(Exception):
    """A link's token that cannot be used: ``reason`` is ``unknown``, ``used`` or
    ``expired``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"this link is {reason}" if reason != "unknown" else "no such link")
        self.reason = reason


class AddressTaken(Exception):
    """The address is another account's (said only to whoever proved he reads it)."""


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """An entry withdrawn from a tournament still registering (``delete_account``)."""

    tournament_id: str
    partner_id: int | None
    """The other player of a pair's entry, who is told."""


@dataclass(frozen=True, slots=True)
class AccountInfo:
    user_id: int
    name: str
    email: str | None
    mail_standings: bool
    mail_invitations: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SessionRow:
    token_hash: str
    created_at: datetime
    expires_at: datetime


class AccountStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def account(self, user_id: int) -> AccountInfo | None:
        async with self.store.sessions() as session:
            user = await session.get(models.User, user_id)
            if user is None:
                return None
            return AccountInfo(
                user.id,
                user.name,
                user.email,
                user.mail_standings,
                user.mail_invitations,
                _aware(user.created_at),
            )

    async def user_by_email(self, email: str) -> models.User | None:
        async with self.store.sessions() as session:
            user: models.User | None = await session.scalar(
                select(models.User).where(models.User.email == email)
            )
            return user

    async def set_mail_standings(self, user_id: int, wanted: bool) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(models.User).where(models.User.id == user_id).values(mail_standings=wanted)
            )

    async def set_mail_invitations(self, user_id: int, wanted: bool) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(models.User).where(models.User.id == user_id).values(mail_invitations=wanted)
            )

    # ------------------------------------------------------------------------- tokens

    async def new_token(
        self, user_id: int, purpose: str, email: str, *, now: datetime, lifetime: timedelta
    ) -> str:
        """A token for a link (only its hash is kept); earlier unused ones of the same
        purpose stop working, so only the last mail's link does."""
        token = fresh_token()
        async with self.store.write() as session:
            await session.execute(
                update(a.AccountToken)
                .where(
                    a.AccountToken.user_id == user_id,
                    a.AccountToken.purpose == purpose,
                    a.AccountToken.used_at.is_(None),
                )
                .values(used_at=now)
            )
            session.add(
                a.AccountToken(
                    token_hash=hash_token(token),
                    user_id=user_id,
                    purpose=purpose,
                    email=email,
                    created_at=now,
                    expires_at=now + lifetime,
                )
            )
        return token

    async def use_token(self, token: str, purpose: str, *, now: datetime) -> tuple[int, str]:
        """Spend a token: (user id, address), or TokenError. The update that marks it used
        is conditional, so two uses at once cannot both succeed."""
        digest = hash_token(token)
        async with self.store.write() as session:
            row = await session.get(a.AccountToken, digest)
            if row is None or row.purpose != purpose:
                raise TokenError("unknown")
            if row.used_at is not None:
                raise TokenError("used")
            if _aware(row.expires_at) <= now:
                raise TokenError("expired")
            spent = await session.execute(
                update(a.AccountToken)
                .where(a.AccountToken.token_hash == digest, a.AccountToken.used_at.is_(None))
                .values(used_at=now)
            )
            if getattr(spent, "rowcount", 1) != 1:
                raise TokenError("used")
            return row.user_id, row.email

    async def verify_email(self, user_id: int, email: str) -> None:
        async with self.store.write() as session:
            try:
                await session.execute(
                    update(models.User).where(models.User.id == user_id).values(email=email)
                )
                await session.flush()
            except IntegrityError:
                raise AddressTaken(email) from None

    # ------------------------------------------------------------------------ mail log

    async def mails_since(
        self,
        *,
        email: str | None = None,
        user_id: int | None = None,
        since: datetime,
        purposes: Collection[str] | None = None,
        sender_id: int | None = None,
    ) -> int:
        """How many mails were sent since ``since``: to ``email``, to the account ``user_id``,
        of one of ``purposes``, by ``sender_id``'s doing (each filter only if given)."""
        sent = a.MailSent
        query = select(func.count()).select_from(sent).where(sent.at >= since)
        if email is not None:
            query = query.where(sent.email == email)
        if user_id is not None:
            query = query.where(sent.user_id == user_id)
        if purposes is not None:
            query = query.where(sent.purpose.in_(list(purposes)))
        if sender_id is not None:
            query = query.where(sent.sender_id == sender_id)
        async with self.store.sessions() as session:
            return int(await session.scalar(query) or 0)

    async def log_mail(
        self,
        email: str,
        user_id: int | None,
        purpose: str,
        *,
        now: datetime,
        sender_id: int | None = None,
    ) -> None:
        async with self.store.write() as session:
            session.add(
                a.MailSent(
                    email=email, user_id=user_id, purpose=purpose, at=now, sender_id=sender_id
                )
            )

    # -------------------------------------------------------------------- sessions, password

    async def set_password(self, user_id: int, password_hash: str) -> None:
        async with self.store.write() as session:
            await session.execute(
                update(models.User)
                .where(models.User.id == user_id)
                .values(password_hash=password_hash)
            )

    async def sessions_of(self, user_id: int, *, now: datetime) -> list[SessionRow]:
        async with self.store.sessions() as session:
            rows = (
                await session.scalars(
                    select(models.Session)
                    .where(models.Session.user_id == user_id)
                    .order_by(models.Session.created_at.desc())
                )
            ).all()
        return [
            SessionRow(r.token_hash, _aware(r.created_at), _aware(r.expires_at))
            for r in rows
            if _aware(r.expires_at) > now
        ]

    async def end_sessions(self, user_id: int, *, keep: str | None = None) -> list[str]:
        """End every session of the user but ``keep`` (a token); the hashes ended."""
        async with self.store.write() as session:
            query = select(models.Session.token_hash).where(models.Session.user_id == user_id)
            if keep is not None:
                query = query.where(models.Session.token_hash != hash_token(keep))
            ended = list((await session.scalars(query)).all())
            if ended:
                await session.execute(
                    delete(models.Session).where(models.Session.token_hash.in_(ended))
                )
        return ended

    # ------------------------------------------------------------------- export, deletion

    async def export(self, user_id: int) -> dict[str, Any]:
        """Everything the account holds about its owner, and the records of his matches."""
        account = await self.account(user_id)
        assert account is not None
        async with self.store.sessions() as session:
            matches = (
                await session.scalars(select(models.MatchLog).order_by(models.MatchLog.finished_at))
            ).all()
        mine = [m for m in matches if account.name in m.players]
        return {
            "name": account.name,
            "email": account.email,
            "mail_standings": account.mail_standings,
            "mail_invitations": account.mail_invitations,
            "created_at": account.created_at.isoformat(),
            "matches": [
                {"table": m.table_id, "match": m.match_no, "record": m.record} for m in mine
            ],
        }

    async def delete_account(self, user_id: int, *, replacement: str) -> list[Withdrawal]:
        """Remove the account and its personal data; its finished matches stay as records,
        the name replaced by ``replacement`` (in the list and in each record's players). His
        entries to tournaments still registering are withdrawn (returned: the server tells
        the partners and the lists); in the others his entrant stays, under ``replacement``
        (docs/tournaments.md)."""
        account = await self.account(user_id)
        if account is None:
            return []
        quoted, new = f'"{account.name}"', f'"{replacement}"'
        withdrawn: list[Withdrawal] = []
        async with self.store.write() as session:
            registering = set(
                (
                    await session.scalars(
                        select(tm.Tournament.id).where(
                            tm.Tournament.status == TournamentStatus.REGISTERING.value
                        )
                    )
                ).all()
            )
            entries = await session.scalars(
                select(tm.TournamentEntrant).where(
                    or_(
                        tm.TournamentEntrant.user_id == user_id,
                        tm.TournamentEntrant.partner_id == user_id,
                    )
                )
            )
            for entry in entries.all():
                if entry.tournament_id in registering:
                    mate = entry.partner_id if entry.user_id == user_id else entry.user_id
                    withdrawn.append(Withdrawal(entry.tournament_id, mate))
                    await session.delete(entry)
                else:  # a pair's name is "Anna & Bruno"
                    entry.name = " & ".join(
                        replacement if part == account.name else part
                        for part in entry.name.split(" & ")
                    )
            for match in (await session.scalars(select(models.MatchLog))).all():
                if account.name not in match.players:
                    continue
                match.players = [replacement if p == account.name else p for p in match.players]
                match.record = "\n".join(
                    line.replace(quoted, new) if line.startswith("players") else line
                    for line in match.record.split("\n")
                )
            # The bot's reviews of his seat name him too (``player``, docs/review.md).
            for review in (await session.scalars(select(rm.Review))).all():
                if review.result is not None and review.result.get("player") == account.name:
                    review.result = {**review.result, "player": replacement}
            await session.execute(delete(models.User).where(models.User.id == user_id))
        return withdrawn
