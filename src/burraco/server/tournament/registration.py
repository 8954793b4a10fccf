"""Registration to an online tournament (T1, T2): players, pairs (invited until the partner
confirms), bots entered by the organiser; a Sit&Go that fills up starts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burraco.bots import BOT_LEVELS, display_name
from burraco.errors import ErrorCode
from burraco.store import EntrantTaken, TournamentData, TournamentInfo, UserInfo
from burraco.tournament import (
    ACTIVE_TOURNAMENTS,
    MAX_ENTRANTS,
    EntrantKind,
    EntrantStatus,
    TournamentStatus,
)

from .errors import TournamentError
from .records import counted_entrants, settings_of
from .views import registration_open

if TYPE_CHECKING:
    from ..tournaments import TournamentManager


class Registration:
    """The registration requests of ``TournamentManager`` (which delegates them here)."""

    def __init__(self, manager: TournamentManager) -> None:
        self.manager = manager

    async def register(
        self, user: UserInfo, tournament_id: str, partner: str | None = None
    ) -> dict[str, Any]:
        """Register ``user``. In a pairs tournament ``partner`` names the other player, and the
        pair is *invited* until that player confirms it (``confirm``): nobody is entered in a
        tournament without agreeing to it."""
        async with self.manager.lock:
            data = await self.open_for_registration(tournament_id)
            mate: UserInfo | None = None
            if settings_of(data).entrant_kind is EntrantKind.PAIRS:
                if not partner:
                    raise TournamentError(
                        ErrorCode.PARTNER_NEEDED, "a pair registers with a partner"
                    )
                mate = await self.manager.hub.store.user_by_name(partner.strip())
                if mate is None or mate.id == user.id:
                    raise TournamentError(ErrorCode.NO_SUCH_PARTNER, f"no player named {partner!r}")
                if await self.manager.hub.moderation.blocks(mate.id, user.id):
                    raise TournamentError(
                        ErrorCode.FORBIDDEN, f"{mate.name} does not take invitations from you"
                    )
            elif partner:
                raise TournamentError(ErrorCode.NO_PAIRS, "this tournament is for single players")
            try:
                await self.manager.store.add_entrant(
                    tournament_id,
                    f"u{user.id}",
                    user_id=user.id,
                    partner_id=None if mate is None else mate.id,
                    bot=None,
                    name=user.name if mate is None else f"{user.name} & {mate.name}",
                    now=self.manager.clock(),
                    status=EntrantStatus.REGISTERED if mate is None else EntrantStatus.INVITED,
                )
            except EntrantTaken:
                raise TournamentError(
                    ErrorCode.ALREADY_REGISTERED, "you (or your partner) are registered already"
                ) from None
            if mate is not None:
                self.manager.watchers.tell_partner(mate.id, tournament_id, "partner_invite", user)
            await self.after_registration(data.info)
        return await self.manager.view(tournament_id)

    async def confirm(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        """The partner named by a pair agrees to play: the pair is registered now (after
        everyone registered so far), and a Sit&Go it fills starts."""
        async with self.manager.lock:
            data = await self.open_for_registration(tournament_id)
            invited = next(
                (
                    e
                    for e in data.entrants
                    if e.partner_id == user.id and e.status == EntrantStatus.INVITED
                ),
                None,
            )
            if invited is None:
                raise TournamentError(
                    ErrorCode.NO_INVITATION, "no pair is waiting for you to confirm"
                )
            await self.manager.store.confirm_entrant(
                tournament_id, invited.entrant, now=self.manager.clock()
            )
            self.manager.watchers.tell_partner(
                invited.user_id, tournament_id, "partner_confirmed", user
            )
            await self.after_registration(data.info)
        return await self.manager.view(tournament_id)

    async def invitations(self, user: UserInfo) -> list[dict[str, Any]]:
        """The pairs waiting for ``user`` to confirm, in tournaments still registering."""
        found = await self.manager.store.invitations(user.id)
        return [
            {"tournament": tid, "name": name, "pair": pair, "by": by}
            for tid, name, pair, by in found
        ]

    async def add_bots(
        self, user: UserInfo, tournament_id: str, level: str, count: int
    ) -> dict[str, Any]:
        if level not in BOT_LEVELS or level == "cmd":
            raise TournamentError(ErrorCode.NO_SUCH_BOT, f"unknown bot level {level[:64]!r}")
        async with self.manager.lock:
            data = await self.open_for_registration(tournament_id)
            if data.info.created_by != user.id:
                raise TournamentError(ErrorCode.FORBIDDEN, "only the organiser can enter bots")
            taken = {e.entrant for e in data.entrants}
            bots = sum(1 for e in data.entrants if e.bot is not None)
            limit = self.manager.hub.config.max_tournament_bots
            if bots + count > limit:
                raise TournamentError(
                    ErrorCode.TOO_MANY_BOTS,
                    f"a tournament takes at most {limit} bots ({bots} entered already)",
                )
            await self._check_organiser_bots(user, count)
            number = 0
            for _ in range(count):
                if data.info.size is not None:
                    fresh = await self.manager.store.load(tournament_id)
                    assert fresh is not None
                    if counted_entrants(fresh) >= data.info.size:
                        break
                number += 1
                while f"b{number}" in taken:
                    number += 1
                taken.add(f"b{number}")
                await self.manager.store.add_entrant(
                    tournament_id,
                    f"b{number}",
                    user_id=None,
                    bot=level,
                    name=display_name(level, number),
                    now=self.manager.clock(),
                )
            await self.after_registration(data.info)
        return await self.manager.view(tournament_id)

    async def _check_organiser_bots(self, user: UserInfo, count: int) -> None:
        """Refuse ``count`` more bots beyond what an organiser may have entered over all his
        tournaments not finished (issue 19, M1: many Sit&Gos of bots are many bot tables)."""
        store = self.manager.store
        entered = 0
        for info in await store.tournaments(ACTIVE_TOURNAMENTS, created_by=user.id):
            data = await store.load(info.id)
            if data is not None:
                entered += sum(1 for e in data.entrants if e.bot is not None)
        limit = self.manager.hub.config.max_organiser_bots
        if entered + count > limit:
            raise TournamentError(
                ErrorCode.TOO_MANY_BOTS,
                f"your tournaments not finished already have {entered} bots (at most {limit})",
                detail="organiser_bots",
                params={"limit": limit},
            )

    async def unregister(self, user: UserInfo, tournament_id: str) -> dict[str, Any]:
        async with self.manager.lock:
            data = await self.open_for_registration(tournament_id, joining=False)
            entrant = next((e for e in data.entrants if user.id in e.users), None)
            if entrant is None or not await self.manager.store.remove_entrant(
                tournament_id, entrant.entrant
            ):
                raise TournamentError(ErrorCode.NOT_REGISTERED, "you are not registered")
            if entrant.status == EntrantStatus.INVITED and entrant.partner_id == user.id:
                # The partner declined the pair: tell the player who registered it.
                self.manager.watchers.tell_partner(
                    entrant.user_id, tournament_id, "partner_declined", user
                )
            await self.manager.push(tournament_id, "registration")
        return await self.manager.view(tournament_id)

    async def open_for_registration(
        self, tournament_id: str, *, joining: bool = True
    ) -> TournamentData:
        data = await self.manager.store.load(tournament_id)
        if data is None:
            raise TournamentError(ErrorCode.NO_SUCH_TOURNAMENT, "there is no such tournament")
        info = data.info
        if info.status != TournamentStatus.REGISTERING:
            raise TournamentError(ErrorCode.NOT_REGISTERING, "registration is over")
        if not registration_open(info, self.manager.clock()):
            raise TournamentError(
                ErrorCode.REGISTRATION_CLOSED, "registration closes 2 minutes before the start"
            )
        if joining:
            active = counted_entrants(data)
            if (info.size is not None and active >= info.size) or active >= MAX_ENTRANTS:
                raise TournamentError(ErrorCode.FULL, "the tournament is full")
        return data

    async def after_registration(self, info: TournamentInfo) -> None:
        data = await self.manager.store.load(info.id)
        assert data is not None
        if info.size is not None and counted_entrants(data) >= info.size:
            await self.manager.begin_locked(info.id)
        else:
            await self.manager.push(info.id, "registration")
