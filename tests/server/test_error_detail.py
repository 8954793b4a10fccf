"""The precise cause of a refusal travels as ``detail: {code, params}`` (issue 15, defect 4):
pages render it in their language; ``message`` stays English for programs."""

from __future__ import annotations

import json
from datetime import date
from types import SimpleNamespace
from typing import Any, cast

import pytest

from burraco.club.checks import check_name, check_score
from burraco.club.errors import ClubError, bad
from burraco.club.schedule import check_in_season
from burraco.errors import ServiceError
from burraco.server import errors


def body(error: ServiceError) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(bytes(errors.http_response(error).body))
    return loaded


def test_a_refusal_without_detail_keeps_the_old_body() -> None:
    assert body(bad("no")) == {"error": "bad_input", "message": "no"}


def test_detail_is_code_and_params_beside_the_english_message() -> None:
    error = bad("2026-12-02 is outside", "date_outside_season", date="2026-12-02")
    assert body(error) == {
        "error": "bad_input",
        "message": "2026-12-02 is outside",
        "detail": {"code": "date_outside_season", "params": {"date": "2026-12-02"}},
    }


def test_a_date_outside_the_season_names_the_dates() -> None:
    season = cast(
        Any, SimpleNamespace(name="Inverno", starts_on=date(2027, 1, 1), ends_on=date(2027, 6, 30))
    )
    with pytest.raises(ClubError) as caught:
        check_in_season(season, date(2026, 12, 2))
    detail = body(caught.value)["detail"]
    assert detail == {
        "code": "date_outside_season",
        "params": {
            "date": "2026-12-02",
            "start": "2027-01-01",
            "end": "2027-06-30",
            "season": "Inverno",
        },
    }


@pytest.mark.parametrize(
    ("check", "code"),
    [
        (lambda: check_name("a;b"), "member_name"),
        (lambda: check_score(7, "the NS score"), "score_multiple"),
        (lambda: check_score(10**9, "the NS score"), "score_range"),
    ],
)
def test_form_refusals_carry_a_detail(check: object, code: str) -> None:
    with pytest.raises(ClubError) as caught:
        check()  # type: ignore[operator]
    detail = body(caught.value)["detail"]
    assert isinstance(detail, dict) and detail["code"] == code
