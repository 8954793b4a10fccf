"""Ratings arithmetic (issue 16): OpenSkill's Plackett-Luce as set up in RatingSettings, the
outcome of a match as teams and places, the bots' fixed anchors and which matches are rated."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from burraco.ratings import (
    PRESETS,
    Entrant,
    Mode,
    Rating,
    RatingsError,
    RatingSettings,
    bot_rating,
    outcome_of,
    rate,
    unrated_reason,
)
from burraco.ratings.rate import is_provisional, win_probability

S = PRESETS["standard"]
NEW = Rating(S.mu, S.sigma)


def test_a_two_player_match_moves_both_as_the_library_computes() -> None:
    after = rate(S, [[Entrant("user:1", NEW)], [Entrant("user:2", NEW)]], [0, 1])
    model = PlackettLuce(mu=S.mu, sigma=S.sigma, beta=S.beta, tau=S.tau)
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    assert after["user:1"] == Rating(a.mu, a.sigma) and after["user:2"] == Rating(b.mu, b.sigma)
    assert after["user:1"].mu > S.mu > after["user:2"].mu
    assert after["user:1"].sigma < S.sigma


def test_a_bot_is_a_fixed_anchor_and_the_scale_is_elo_like() -> None:
    expert = bot_rating(Mode.TWO, "heuristic")
    assert expert is not None and expert.shown == 1650
    assert bot_rating(Mode.TWO, "search:seconds=1") == bot_rating(Mode.TWO, "search")
    assert bot_rating(Mode.TWO, "cmd:python my_bot.py") is None
    after = rate(
        S, [[Entrant("user:1", NEW)], [Entrant("bot:heuristic", expert, fixed=True)]], [0, 1]
    )
    assert set(after) == {"user:1"}  # the bot does not move
    # Two well-known players 400 points apart: about 10 to 1, as on Elo's scale.
    p = win_probability(S, Rating(1900, 40), Rating(1500, 40))
    assert 0.87 < p < 0.93, p
    # Beating a stronger player gains more than beating a weaker one.
    strong = rate(S, [[Entrant("u", NEW)], [Entrant("b", Rating(1900, 40), fixed=True)]], [0, 1])
    weak = rate(S, [[Entrant("u", NEW)], [Entrant("b", Rating(1100, 40), fixed=True)]], [0, 1])
    assert strong["u"].mu > weak["u"].mu


def test_partners_have_their_own_ratings_and_an_abandonment_spares_the_partner() -> None:
    outcome = outcome_of(Mode.FOUR, totals=[1200, 2010], winner=1)
    assert outcome.teams == ((0, 2), (1, 3)) and outcome.ranks == (1, 0)
    ratings = [NEW, Rating(1700, 100), Rating(1400, 300), NEW]
    teams = [[Entrant(f"user:{s}", ratings[s]) for s in team] for team in outcome.teams]
    after = rate(S, teams, outcome.ranks)
    assert after["user:1"].mu > 1700 and after["user:2"].mu < 1400
    # The less certain partner moves more (issue 16: an individual rating in pairs).
    assert abs(after["user:2"].mu - 1400) > abs(after["user:0"].mu - S.mu) * 0.5
    # Seat 2 abandons: his line loses whatever the totals, he loses the penalty on top, and
    # his partner (seat 0) is held where he was.
    left = outcome_of(Mode.FOUR, totals=[1500, 300], winner=0, leaver=2)
    assert left.ranks == (1, 0) and left.held == {0} and left.penalised == {2}
    teams = [
        [Entrant(f"user:{s}", ratings[s], fixed=s in left.held) for s in team]
        for team in left.teams
    ]
    plain = rate(S, teams, left.ranks)
    punished = rate(S, teams, left.ranks, penalised={"user:2"})
    assert "user:0" not in punished
    assert punished["user:2"].mu == pytest.approx(plain["user:2"].mu - S.abandon_penalty)
    assert punished["user:1"] == plain["user:1"]


def test_three_players_are_placed_by_their_own_totals() -> None:
    assert outcome_of(Mode.THREE, totals=[900, 1250, 900], winner=1).ranks == (1, 0, 1)
    assert outcome_of(Mode.THREE, totals=[900, 1250, 300], winner=1, leaver=1).ranks == (0, 2, 1)
    teams = [[Entrant(f"user:{s}", NEW)] for s in range(3)]
    after = rate(S, teams, [1, 0, 2])
    assert after["user:1"].mu > after["user:0"].mu > after["user:2"].mu


def test_matches_that_cannot_be_rated_say_why() -> None:
    seats = ["user:1", "bot:heuristic"]
    assert unrated_reason(S, target=None, smazzate=2, tournament=False, seats=seats) == "too_short"
    assert unrated_reason(S, target=None, smazzate=3, tournament=False, seats=seats) is None
    assert unrated_reason(S, target=2005, smazzate=None, tournament=False, seats=seats) is None
    assert unrated_reason(S, target=None, smazzate=1, tournament=True, seats=seats) is None
    assert (
        unrated_reason(S, target=2005, smazzate=None, tournament=False, seats=["user:1", "guest"])
        == "guest"
    )
    assert (
        unrated_reason(
            S, target=2005, smazzate=None, tournament=False, seats=["user:1", "bot:cmd:x"]
        )
        == "outside_bot"
    )


def test_bad_input_is_refused_with_a_reason() -> None:
    with pytest.raises(RatingsError, match="twice"):
        rate(S, [[Entrant("user:1", NEW)], [Entrant("user:1", NEW)]], [0, 1])
    with pytest.raises(RatingsError, match="one rank per team"):
        rate(S, [[Entrant("user:1", NEW)], [Entrant("user:2", NEW)]], [0])
    with pytest.raises(RatingsError, match="not in the match"):
        rate(S, [[Entrant("user:1", NEW)], [Entrant("user:2", NEW)]], [0, 1], penalised={"x"})
    with pytest.raises(RatingsError, match="winner"):
        outcome_of(Mode.TWO, totals=[1, 2], winner=3)
    with pytest.raises(ValueError, match="sigma must be positive"):
        RatingSettings(sigma=0)
    with pytest.raises(ValueError, match="uncertainty is positive"):
        Rating(1500, 0)
    with pytest.raises(ValueError, match="2, 3 or 4"):
        Mode.for_players(5)


def test_provisional_until_the_uncertainty_falls() -> None:
    assert is_provisional(S, NEW)
    rating = NEW
    for _ in range(20):
        rating = rate(
            S, [[Entrant("u", rating)], [Entrant("b", Rating(rating.mu, 40), fixed=True)]], [0, 1]
        )["u"]
    assert not is_provisional(S, rating)


@given(st.floats(-5000, 5000, allow_nan=False), st.floats(0.1, 1000, allow_nan=False))
def test_a_rating_has_a_text_round_trip(mu: float, sigma: float) -> None:
    rating = Rating(round(mu, 1), round(sigma, 1))
    assert Rating.from_text(str(rating)) == rating


def test_a_seat_summary_counts_its_line_and_its_own_closings() -> None:
    from burraco.ratings import summarize

    sheets = [
        {
            "closed_by": 2,
            "lines": [
                {
                    "seats": [0, 2],
                    "score": 900,
                    "burrachi": ["clean", "dirty", "reale"],
                    "pozzetto": True,
                },
                {"seats": [1, 3], "score": 300, "burrachi": ["semiclean"], "pozzetto": False},
            ],
        },
        {
            "closed_by": 1,
            "lines": [
                {"seats": [0, 2], "score": 100, "burrachi": [], "pozzetto": True},
                {"seats": [1, 3], "score": 700, "burrachi": ["clean"], "pozzetto": True},
            ],
        },
    ]
    partner = summarize(sheets, 0)
    assert (partner.smazzate, partner.mp) == (2, 600 - 600)
    assert (partner.burrachi_clean, partner.burrachi_dirty) == (2, 1)
    assert (partner.pozzetti, partner.closings) == (2, 0)
    assert summarize(sheets, 2).closings == 1  # the closing is his own, not his partner's
    other = summarize(sheets, 1)
    assert (other.mp, other.burrachi_clean, other.burrachi_dirty, other.pozzetti) == (0, 1, 1, 1)
    assert summarize(sheets, 5).smazzate == 0
