"""Every HTTP route fuzzed from the OpenAPI description (issue 19, "extend the fuzz to every HTTP
route"): schemathesis draws requests for each of the app's operations (path and query values,
bodies, headers the description names, and values just outside what it declares), sends them to
the ASGI app in process, and no answer may be a 5xx. Every refusal must be the documented
``{error, message}`` body with a code of ``ErrorCode``.

The app starts with a little of everything (a table, an organiser's club with a season and an
evening), and each operation is tried anonymously and as a logged-in user, then once more with
every number of its path set to 1 (those ids), so that the draws reach the routes' deeper
branches.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.python import asgi

from burraco.errors import ErrorCode
from burraco.server.app import create_app
from burraco.server.config import ServerConfig
from tests.depth import by_depth

CODES = {code.value for code in ErrorCode}
EXAMPLES_PER_OPERATION = by_depth(quick=5, deep=15)
"""Draws per operation (tests/depth.py): every operation is fuzzed at every depth."""
PASSWORD = "un segreto lungo"


def _prepare(client: asgi.ASGIClient) -> dict[str, str]:
    """An account with some data behind it; returns its bearer header."""
    answer = client.post("/api/register", json={"name": "fuzzer", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    auth = {"Authorization": f"Bearer {answer.json()['token']}"}
    client.cookies.clear()
    made = client.post(
        "/api/tables", json={"players": 2, "bots": {"1": "greedy"}, "smazzate": 1}, headers=auth
    )
    assert made.status_code in (200, 201), made.text
    club = client.post("/api/club/clubs", json={"name": "Circolo del fuzz"}, headers=auth)
    assert club.status_code in (200, 201), club.text
    season = client.post(
        f"/api/club/clubs/{club.json()['id']}/seasons",
        json={"name": "Stagione", "starts_on": "2026-09-01", "ends_on": "2027-06-30"},
        headers=auth,
    )
    assert season.status_code == 201, season.text
    evening = client.post(
        f"/api/club/seasons/{season.json()['id']}/evenings",
        json={"date": "2026-12-10"},
        headers=auth,
    )
    assert evening.status_code == 201, evening.text
    return auth


# The app is made when the module is collected (schemathesis reads its description then, to
# make one test per operation); its lifespan starts with the first request, in schemathesis's
# own event loop thread, and ends with the module.
DATA_DIR = Path(tempfile.mkdtemp(prefix="burraco-fuzz-"))
APP = create_app(
    ServerConfig(
        data_dir=DATA_DIR,
        bot_delay=0.0,
        bot_workers=0,
        login_attempts_per_minute=60000.0,
        test_seed=19,
    )
)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP)


@pytest.fixture(scope="module")
def auth() -> Iterator[dict[str, str]]:
    # One lifespan for the module: schemathesis's pytest plugin ends the app's lifespan after
    # every test (``asgi.shutdown_lifespans`` in its ``pytest_runtest_teardown``), so each of the
    # 126 operations started the app again (the store, the hub, the recovery of its tables): a
    # third of the file's CPU. The app now lives from the first request to the module's end, as
    # a server does, and the operations meet the state the ones before them left.
    ending = asgi.shutdown_lifespans
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(asgi, "shutdown_lifespans", lambda: None)
        with asgi.get_client(cast(Any, APP)) as client:
            headers = _prepare(client)
        yield headers
    ending()
    shutil.rmtree(DATA_DIR, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_route_answers_a_server_error(case: Any, auth: dict[str, str]) -> None:
    for headers in ({}, auth):
        _check(case, case.call(headers=dict(headers)))
    # The same draw on the prepared data: drawn numbers seldom hit a real id, so every number in
    # the path becomes 1 (the club, season, evening and member made above) and the body reaches
    # the route's logic (an empty season change was a 500 the draws alone never found).
    numbers = {k: v for k, v in (case.path_parameters or {}).items() if isinstance(v, int)}
    if numbers:
        case.path_parameters = {**case.path_parameters, **dict.fromkeys(numbers, 1)}
        _check(case, case.call(headers=dict(auth)))


DELIBERATE_5XX = {502: {"mail_failed"}, 503: {"mail_unavailable", "busy", "review_queue_full"}}
"""Refusals that are 5xx on purpose: this server has no mail server configured (503), or one
that refused (502); a full server (503), a full queue of reviews (503). Any other 5xx is a
failure of the route."""


def _check(case: Any, response: Any) -> None:
    if response.status_code in DELIBERATE_5XX:
        assert response.json()["error"] in DELIBERATE_5XX[response.status_code], response.text
        return
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} {case.query!r} {case.body!r}: "
        f"{response.status_code} {response.text[:300]}"
    )
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"error", "message"}, (case.formatted_path, body)
        assert body["error"] in CODES, (case.formatted_path, body)
        assert isinstance(body["message"], str) and body["message"], body
