"""The draw and the seatings (T29, T30): the stations and game 1 when check-in closes, each next
game when the one before is complete, a seating entered by hand, an officer's change of who
rests, undoing the draw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from burraco.store.club import ClubTx, EveningState, EveningStatus, GameInfo, NewSeat, SeasonInfo
from burraco.tournament import EntrantId, Evening, Pairing, Table, sit_outs

from .access import Actor, Operation, Part, member_row, names
from .checkin import window
from .checks import clean
from .errors import bad, conflict
from .evenings import (
    build_evening,
    check_rest_order,
    evening_config,
    pairing_of,
    rng,
    seating_json,
    seats_of,
)
from .reading import evening_view
from .views import Draw, GameView


class Seatings(Part):
    """The draw and the seatings (part of ``ClubService``)."""

    async def draw(
        self,
        actor: Actor,
        evening_id: int,
        *,
        seed: int | None = None,
        at: datetime | None = None,
    ) -> Draw:
        """The draw when check-in closes (T30): the players' stations in random order, then the
        rests (T29) and the tables of game 1. Before the window has closed an officer may still
        draw (everyone is there); it is noted in the audit trail."""
        when = at or self.clock()
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            ev, season = op.evening, op.season
            if ev.status is not EveningStatus.SCHEDULED:
                raise conflict(
                    f"the evening of {ev.date} is {ev.status}: its seats cannot be drawn now"
                )
            who = await names(op.tx, op.club.id)
            players = sorted(EntrantId(who[c.member_id]) for c in op.state.checkins)
            if len(players) < 4:
                raise conflict(
                    f"{len(players)} players registered: an evening needs at least 4",
                    "too_few_players",
                    n=len(players),
                )
            drawn_seed = self.seeds() if seed is None else seed
            evening = Evening.start(players, evening_config(ev, season), rng(drawn_seed, 0))
            pairing = evening.draw_game(rng(drawn_seed, 1))
            ids = {n: i for i, n in who.items()}
            await op.tx.update_evening(
                evening_id,
                status=EveningStatus.PLAYING,
                seed=drawn_seed,
                stations=[ids[p] for p in evening.players],
                drawn_at=when,
            )
            await _add_game(op.tx, evening_id, 1, pairing, ids)
            _, closes = window(ev, season, op.club)
            await op.audit(
                "evening.draw",
                f"evening {ev.date}: {len(players)} players",
                after={
                    "seed": drawn_seed,
                    "stations": list(evening.players),
                    "rests": list(pairing.byes),
                    "early": when < closes,
                },
            )
            view = await evening_view(op.tx, evening_id)
            return Draw(view.stations, view.game(1))

    async def undo_draw(self, actor: Actor, evening_id: int, reason: str) -> None:
        """Back to check-in (before any result): to admit a late player, or to draw again."""
        if not clean(reason):
            raise bad("say why the draw is undone", "reason_needed")
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            if op.evening.status is not EveningStatus.PLAYING:
                raise conflict("there is no draw to undo", "no_draw")
            if any(g.results for g in op.state.games):
                raise conflict(
                    "results are already entered: the draw cannot be undone", "results_entered"
                )
            await op.tx.delete_games(evening_id)
            await op.tx.update_evening(
                evening_id,
                status=EveningStatus.SCHEDULED,
                seed=None,
                stations=None,
                drawn_at=None,
            )
            await op.audit(
                "evening.undo_draw",
                f"evening {op.evening.date}",
                before={"seed": op.evening.seed},
                reason=clean(reason),
            )

    async def set_seating(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        tables: Sequence[Sequence[int | str]],
        rests: Sequence[int | str] = (),
        *,
        reason: str = "",
    ) -> GameView:
        """A game's seating as the room was seated by hand (seed 003: *sorteggio manuale*):
        each table NS1, EW1, NS2, EW2 (partners are 1st and 3rd, 2nd and 4th; a 2-player table
        when the season plays one), and who rests. Replaces the drawn seating while the game
        has no result."""
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            if not op.evening.status.drawn:
                raise conflict("draw the evening first (the stations), then seat its games")
            who = await names(op.tx, op.club.id)
            evening, done = build_evening(op.state, op.season, who)
            if not 1 <= game <= evening.config.games:
                raise bad(f"the evening has games 1 to {evening.config.games}, not {game}")
            existing = op.state.game(game)
            if existing is not None and existing.results:
                raise conflict(f"game {game} already has results: correct them instead")
            if game != done + 1:
                raise conflict(f"game {game} cannot be seated before game {done} is complete")
            pairing = await _hand_seating(op, game, tables, rests)
            _check_seating(evening, pairing)
            if existing is not None:
                await op.tx.delete_games(evening_id, from_game=game)
            ids = {n: i for i, n in who.items()}
            await _add_game(op.tx, evening_id, game, pairing, ids, drawn=False)
            await op.audit(
                "seating.set",
                f"evening {op.evening.date}: game {game}",
                before=None if existing is None else seating_json(pairing_of(existing, who)),
                after=seating_json(pairing),
                reason=clean(reason) or None,
            )
            return (await evening_view(op.tx, evening_id)).game(game)

    async def change_rest(
        self,
        actor: Actor,
        evening_id: int,
        game: int,
        *,
        rest: int | str,
        instead_of: int | str,
        reason: str,
    ) -> GameView:
        """An officer manages who rests (seed 003): ``rest`` rests in game ``game`` instead of
        ``instead_of``, who takes his seat. Only before the game has results; nobody rests twice
        while another player has not rested yet (T29)."""
        if not clean(reason):
            raise bad("say why the rest changes", "reason_needed")
        async with self.operation(actor, evening_id=evening_id, lock=True) as op:
            who = await names(op.tx, op.club.id)
            current = op.state.game(game)
            if current is None:
                raise bad(f"game {game} is not seated yet")
            if current.results:
                raise conflict(f"game {game} already has results")
            newcomer = await member_row(op.tx, op.club.id, rest)
            leaving = await member_row(op.tx, op.club.id, instead_of)
            resting = {r.member_id for r in current.rests}
            if leaving.id not in resting:
                raise bad(f"{leaving.name} does not rest in game {game}")
            if not any(s.member_id == newcomer.id for s in current.seats):
                raise bad(f"{newcomer.name} does not play in game {game}")
            rests_now = (resting - {leaving.id}) | {newcomer.id}
            evening, _ = build_evening(op.state, op.season, who)
            check_rest_order(evening, tuple(sorted(EntrantId(who[i]) for i in rests_now)))
            new_game = await _swap(
                op.tx,
                current,
                evening_id=evening_id,
                newcomer=newcomer.id,
                leaving=leaving.id,
                rests=rests_now,
            )
            await op.audit(
                "rest.change",
                f"evening {op.evening.date}: game {game}",
                before=seating_json(pairing_of(current, who)),
                after=seating_json(pairing_of(new_game, who)),
                reason=clean(reason),
            )
            return (await evening_view(op.tx, evening_id)).game(game)


async def draw_next(
    tx: ClubTx, state: EveningState, season: SeasonInfo, who: Mapping[int, str]
) -> None:
    """When a game is complete, the next one is drawn (its rests among those who have not
    rested yet, T29; its tables by the season's seating)."""
    evening, done = build_evening(state, season, who)
    if evening.finished or state.game(done + 1) is not None:
        return
    seed = state.evening.seed
    assert seed is not None
    pairing = evening.draw_game(rng(seed, done + 1))
    await _add_game(tx, state.evening.id, done + 1, pairing, {n: i for i, n in who.items()})


async def _add_game(
    tx: ClubTx,
    evening_id: int,
    game: int,
    pairing: Pairing,
    ids: Mapping[str, int],
    *,
    drawn: bool = True,
) -> None:
    await tx.add_game(
        evening_id,
        game,
        seats_of(pairing, ids),
        [ids[r] for r in pairing.byes],
        drawn=drawn,
        relaxed=pairing.relaxed if drawn else False,
    )


async def _hand_seating(
    op: Operation, game: int, tables: Sequence[Sequence[int | str]], rests: Sequence[int | str]
) -> Pairing:
    """The seating entered by hand, as a ``Pairing`` of the members named."""
    members = {m.name: m for m in [await member_row(op.tx, op.club.id, w) for w in rests]}
    rest_names = sorted(EntrantId(n) for n in members)
    if len(rest_names) != len(rests):
        raise bad("a player rests twice")
    table_list = []
    for number, seats in enumerate(tables, 1):
        line_names = [EntrantId((await member_row(op.tx, op.club.id, w)).name) for w in seats]
        lines: tuple[tuple[EntrantId, ...], tuple[EntrantId, ...]]
        if len(line_names) == 4:
            lines = ((line_names[0], line_names[2]), (line_names[1], line_names[3]))
        elif len(line_names) == 2:
            lines = ((line_names[0],), (line_names[1],))
        else:
            raise bad(f"table {number} has {len(line_names)} players: 4 (or 2)")
        table_list.append(Table(number, lines))
    try:
        return Pairing(game, tuple(table_list), tuple(rest_names))
    except ValueError as error:
        raise bad(str(error)) from None


def _check_seating(evening: Evening, pairing: Pairing) -> None:
    present = set(evening.players)
    placed = list(pairing.entrants)
    strangers = sorted(set(placed) - present)
    if strangers:
        raise bad(f"not registered this evening: {', '.join(strangers)}")
    missing = sorted(present - set(placed))
    if missing:
        raise bad(f"everyone present must play or rest; missing: {', '.join(missing)}")
    n_rest, n_two = sit_outs(len(present), evening.config.two_left_over)
    twos = [t for t in pairing.tables if len(t.entrants) == 2]
    if len(twos) != n_two or len(pairing.byes) != n_rest:
        raise bad(
            f"with {len(present)} players, {n_rest} rest and {n_two} table(s) of two"
            f" (T29); this seating has {len(pairing.byes)} resting and {len(twos)}"
        )
    check_rest_order(evening, pairing.byes)


async def _swap(
    tx: ClubTx, current: GameInfo, *, evening_id: int, newcomer: int, leaving: int, rests: set[int]
) -> GameInfo:
    """The game stored again with ``leaving`` in ``newcomer``'s seat and ``rests`` resting
    (its timer kept)."""
    seats = [
        NewSeat(leaving if s.member_id == newcomer else s.member_id, s.table_no, s.line, s.position)
        for s in current.seats
    ]
    await tx.delete_games(evening_id, from_game=current.number)
    await tx.add_game(
        evening_id,
        current.number,
        seats,
        sorted(rests),
        drawn=current.drawn,
        relaxed=current.relaxed,
        rests_drawn=False,
    )
    if current.started_at is not None:
        await tx.set_game_started(evening_id, current.number, current.started_at)
    after = await tx.evening_state(evening_id)
    assert after is not None
    new_game = after.game(current.number)
    assert new_game is not None
    return new_game
