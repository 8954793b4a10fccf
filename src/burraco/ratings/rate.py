"""One rated match through OpenSkill's Plackett-Luce model."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .settings import RatingSettings
from .value import Rating


class RatingsError(ValueError):
    """A match that cannot be rated as given: ``code`` names the case (``guest``,
    ``outside_bot``, ``bad_match``), the message says it in words."""

    def __init__(self, message: str, *, code: str = "bad_match") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Entrant:
    key: str
    """Who: ``user:ID`` for a person, ``bot:LEVEL`` for a bot."""
    rating: Rating
    fixed: bool = False
    """Rated against but never changed: a bot's anchor, or a partner who is not to be
    penalised for his partner's abandonment."""


def _model(settings: RatingSettings) -> PlackettLuce:
    return PlackettLuce(mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau)


def rate(
    settings: RatingSettings,
    teams: Sequence[Sequence[Entrant]],
    ranks: Sequence[int],
    *,
    penalised: Collection[str] = (),
) -> dict[str, Rating]:
    """The new ratings of the match's entrants that are not fixed. ``ranks``: one per team,
    0 the best, equal ranks a tie. ``penalised``: keys that lose ``abandon_penalty`` more."""
    if len(teams) < 2 or len(ranks) != len(teams):
        raise RatingsError("a rated match has at least two teams and one rank per team")
    if any(not team for team in teams):
        raise RatingsError("every team of a rated match has a player")
    keys = [entrant.key for team in teams for entrant in team]
    moving = [entrant.key for team in teams for entrant in team if not entrant.fixed]
    if len(set(moving)) != len(moving):
        raise RatingsError("a player is twice in one match")
    unknown = set(penalised) - set(keys)
    if unknown:
        raise RatingsError(f"penalised players not in the match: {sorted(unknown)}")
    model = _model(settings)
    before = [
        [model.create_rating([e.rating.mu, e.rating.sigma], name=e.key) for e in team]
        for team in teams
    ]
    after = model.rate(before, ranks=list(ranks))
    out: dict[str, Rating] = {}
    for team, rated in zip(teams, after, strict=True):
        for entrant, new in zip(team, rated, strict=True):
            if entrant.fixed:
                continue
            mu = new.mu - (settings.abandon_penalty if entrant.key in penalised else 0.0)
            out[entrant.key] = Rating(mu, new.sigma)
    return out


def win_probability(settings: RatingSettings, a: Rating, b: Rating) -> float:
    """The chance that ``a`` beats ``b`` in one match as the Plackett-Luce update sees it: a
    logistic of the gap over ``c = sqrt(sigma_a^2 + sigma_b^2 + 2 beta^2)`` (Weng and Lin 2011,
    the model's expected score). OpenSkill's ``predict_win`` is a probit approximation that
    runs more extreme; this is the figure the updates follow (docs/ratings.md)."""
    c = math.sqrt(a.sigma**2 + b.sigma**2 + 2 * settings.beta**2)
    return 1 / (1 + math.exp(-(a.mu - b.mu) / c))


def is_provisional(settings: RatingSettings, rating: Rating) -> bool:
    return rating.sigma > settings.provisional_sigma


def ratings_of(entrants: Mapping[str, Rating]) -> dict[str, int]:
    """Shown values by key (for messages and tests)."""
    return {key: rating.shown for key, rating in entrants.items()}
