"""``burraco club create`` and ``burraco club member ...``: the club and its members."""

from __future__ import annotations

from burraco.club.service import Actor

from .running import Ctx


async def create_club(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.service.create_club(ctx.actor, a.name, timezone=a.timezone, place=a.place)
    print(f"club {club.name} created (time zone {club.timezone})")
    return 0


async def member_add(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    m = await ctx.service.add_member(
        ctx.actor, club.id, a.name, email=a.email, officer=a.officer, account=a.account
    )
    print(f"member {m.name} added{' (officer)' if m.officer else ''}")
    return 0


async def member_update(ctx: Ctx) -> int:
    a = ctx.args
    club = await ctx.club()
    m = await ctx.service.update_member(
        ctx.actor,
        club.id,
        a.name,
        name=a.rename,
        email=a.email,
        officer=a.officer,
        active=a.active,
        account=a.account,
    )
    print(f"member {m.name}: officer {m.officer}, active {m.active}, e-mail {m.email or '-'}")
    return 0


async def member_list(ctx: Ctx) -> int:
    club = await ctx.club()
    for m in await ctx.service.members(Actor.of_console(""), club.id):
        flags = " ".join(f for f, on in (("officer", m.officer), ("inactive", not m.active)) if on)
        print(f"{m.name:<24} {m.email or '-':<32} {flags}".rstrip())
    return 0
