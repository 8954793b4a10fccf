"""Reading an evening and a season: the evening with its seatings, results, ranking and score
checks; the season standings (T28), recomputed from the results every time they are read, so a
corrected result corrects every ranking at once."""

from __future__ import annotations

from burraco.store.club import ClubInfo, ClubTx, EveningStatus, SeasonInfo
from burraco.tournament import EveningRanking, Season

from . import calendar as cal
from .access import Actor, Part, evening_rows, names
from .evenings import build_evening, evening_config, game_view, numbered, times_of
from .views import CheckinView, CheckView, EveningView, SeasonEvening, StandingsView


class Reading(Part):
    """Evenings and standings (part of ``ClubService``)."""

    async def evening(self, actor: Actor | None, evening_id: int) -> EveningView:
        """The evening with its seatings, results, ranking and score checks (``actor`` None:
        no check, for the console's exports)."""
        async with self.reading(actor, evening_id=evening_id) as op:
            return await evening_view(op.tx, evening_id)

    async def standings(
        self, actor: Actor | None, season_id: int, *, after: int | None = None
    ) -> StandingsView:
        """The season standings (T28): the sum of the ranking points of the finished evenings,
        or of the first ``after`` of them (the partial standings of an e-mail)."""
        async with self.reading(actor, season_id=season_id) as op:
            return await standings_of(op.tx, op.club, op.season, after)


async def evening_view(tx: ClubTx, evening_id: int) -> EveningView:
    state, season, club = await evening_rows(tx, evening_id)
    who = await names(tx, club.id)
    tz = cal.zone(club.timezone)
    ev = state.evening
    config = evening_config(ev, season)
    number = next(
        (e.number for e in numbered(await tx.evenings(season.id)) if e.info.id == ev.id), 0
    )
    if ev.stations:
        evening, done = build_evening(state, season, who)
        ranking = evening.ranking()
    else:
        done = 0
        ranking = EveningRanking(())
    return EveningView(
        club=club,
        season=season,
        evening=ev,
        number=number,
        type=config.type,
        games_planned=config.games,
        times=times_of(ev, season, tz),
        checkins=tuple(
            CheckinView(
                who[c.member_id],
                c.at.astimezone(tz),
                c.late,
                c.recorded_by,
                c.override_by,
                c.override_reason,
            )
            for c in state.checkins
        ),
        stations=tuple(who[i] for i in ev.stations or ()),
        games=tuple(game_view(g, who, config) for g in state.games),
        ranking=ranking,
        complete_games=done,
        checks=tuple(
            CheckView(c, None if c.member_id is None else who.get(c.member_id))
            for c in state.checks
        ),
    )


async def standings_of(
    tx: ClubTx, club: ClubInfo, season: SeasonInfo, after: int | None
) -> StandingsView:
    """The standings after the first ``after`` finished evenings (None: all of them), with
    each player's points after each (the chart)."""
    who = await names(tx, club.id)
    evenings: list[SeasonEvening] = []
    for e in numbered(await tx.evenings(season.id)):
        ranking = None
        if e.info.status is EveningStatus.FINISHED:
            state = await tx.evening_state(e.info.id)
            assert state is not None
            ranking = build_evening(state, season, who)[0].ranking()
        evenings.append(SeasonEvening(e.info, e.number, e.type, e.games, ranking))
    counted = [e for e in evenings if e.ranking is not None]
    if after is not None:
        counted = counted[: max(0, after)]
    season_model = Season(tuple(e.ranking for e in counted if e.ranking is not None))
    progress: dict[str, list[int]] = {}
    running: dict[str, int] = {}
    for k, e in enumerate(counted):
        assert e.ranking is not None
        for row in e.ranking.rows:
            running[row.player] = running.get(row.player, 0) + row.points
            progress.setdefault(row.player, [0] * k)
        for player, points in running.items():
            progress[player].append(points)
    return StandingsView(
        club=club,
        season=season,
        evenings=tuple(evenings),
        counted=tuple(counted),
        rows=season_model.standings(),
        progress={p: tuple(v) for p, v in progress.items()},
    )
