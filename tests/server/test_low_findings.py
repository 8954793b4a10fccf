"""The low findings of the black-box test (issue 19, "Low"): a logout closes the sockets of its
session; private tables' matches stay out of the public list; pages cannot be framed by other
sites or sniffed; Starlette's own refusals have the documented ``{error, message}`` shape."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Closed, Server
from .inprocess import app_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with app_server(tmp_path, bot_delay=0.0, login_attempts_per_minute=60_000.0) as running:
        yield running


def test_a_logout_closes_the_sockets_of_its_session(server: Server) -> None:
    token, _user = server.guest()
    other_token, _ = server.guest()
    with server.peer(token) as mine, server.peer(other_token) as theirs:
        mine.ping()
        with server.client(token) as client:
            assert client.post("/api/logout").status_code == 204
        with pytest.raises(Closed):
            for _ in range(5):  # what was already on its way may come first
                mine.recv(timeout=5)
        theirs.ping()  # another session's socket is untouched


def test_private_tables_matches_are_not_listed_publicly(server: Server) -> None:
    token, _user = server.guest()
    bots = {"0": "greedy", "1": "greedy"}
    with server.client(token) as client:
        private = client.post(
            "/api/tables",
            json={"players": 2, "smazzate": 1, "seat": None, "bots": bots, "public": False},
        ).json()["id"]
        public = client.post(
            "/api/tables", json={"players": 2, "smazzate": 1, "seat": None, "bots": bots}
        ).json()["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            listed = {m["table"] for m in client.get("/api/matches").json()}
            if public in listed:
                break
            time.sleep(0.05)
        while time.monotonic() < deadline:
            if client.get(f"/api/tables/{private}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        listed = {m["table"] for m in client.get("/api/matches").json()}
    assert public in listed and private not in listed


def test_pages_and_answers_carry_the_security_headers(server: Server) -> None:
    with server.client() as client:
        for path in ("/", "/api/info", "/api/no-such-thing"):
            headers = client.get(path).headers
            assert headers["x-frame-options"] == "DENY", path
            assert headers["content-security-policy"] == "frame-ancestors 'none'", path
            assert headers["x-content-type-options"] == "nosniff", path
            assert headers["referrer-policy"] == "same-origin", path


def test_starlettes_refusals_have_the_documented_shape(server: Server) -> None:
    token, _ = server.guest()
    with server.client(token) as client:
        missing = client.get("/api/no-such-thing")
        assert missing.status_code == 404
        assert missing.json() == {"error": "no_such_route", "message": "Not Found"}
        wrong = client.delete("/api/info")
        assert wrong.status_code == 405 and wrong.json()["error"] == "method_not_allowed"
        broken = client.post(
            "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert broken.status_code == 422
        assert broken.json()["error"] == "bad_request" and broken.json()["message"]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_a_body_with_nan_or_infinity_is_refused_in_the_documented_shape(
    server: Server, number: str
) -> None:
    """Python's JSON reader takes NaN and Infinity; the refusal quoting them back was not JSON
    and came out as a plain-text 500 (issue 19, found by the black-box test)."""
    with server.client() as client:
        for path, body in (
            ("/api/login", '{"name": "abc", "password": %s}'),
            ("/api/register", '{"a": %s}'),
        ):
            answer = client.post(
                path, content=(body % number).encode(), headers={"content-type": "application/json"}
            )
            assert answer.status_code == 422, answer.text
            refused = answer.json()
            assert refused["error"] == "bad_request" and refused["message"], refused


def test_a_tournament_start_out_of_reach_is_refused(server: Server) -> None:
    """A start in year 1 overflowed the registration's deadline (a 500, issue 19)."""
    token, _ = server.guest()
    with server.client(token) as client:
        for starts_at in ("0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"):
            answer = client.post(
                "/api/tournaments",
                json={"name": "x", "start": "scheduled", "starts_at": starts_at, "smazzate": 1},
            )
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"] == "bad_tournament", answer.text
