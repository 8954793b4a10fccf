"""Accounts over HTTP, against the server's app in process (``inprocess.AppServer``, its own
SQLite database).

Register (an argon2id hash is stored, never the password), names unique regardless of case, bad
names and passwords, login (right, wrong, unknown name in the same time as a wrong password),
logout, guests, the session cookie's flags, bearer tokens, ``/api/me``, the rate limit on login
attempts (per address and per name) and expired sessions.

The server runs with its default login limit (10 a minute, bursts of 5); each test speaks from
its own client addresses (``X-Forwarded-For``, which uvicorn trusts from 127.0.0.1 only: the
in-process server has uvicorn's proxy-header middleware, its clients come from 127.0.0.1), so the
limit applies to the tests that are about it and to no other.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import re
import sqlite3
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from burraco.server.ratelimit import FailureDelay

from .harness import Server
from .inprocess import app_server

PASSWORD = "un segreto lungo"
_addresses = (f"10.1.{i // 250}.{i % 250 + 1}" for i in itertools.count())
_names = (f"user_{i}" for i in itertools.count())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(tmp_path_factory.mktemp("accounts")) as running:
        yield running


@pytest.fixture(scope="module")
def secure_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(tmp_path_factory.mktemp("secure"), secure_cookies=True) as running:
        yield running


def post(
    server: Server, path: str, body: Any = None, *, address: str | None = None, **kw: Any
) -> httpx.Response:
    """A POST from a client of its own (no cookies kept) at ``address`` (a fresh one if None)."""
    headers = {"X-Forwarded-For": address or next(_addresses), **kw.pop("headers", {})}
    with server.client() as client:
        return client.post(path, json=body, headers=headers, **kw)


def get(server: Server, path: str, **headers: str) -> httpx.Response:
    with server.client() as client:
        return client.get(path, headers={"X-Forwarded-For": next(_addresses), **headers})


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def register(server: Server, name: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = post(server, "/api/register", {"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def error_of(answer: httpx.Response) -> str:
    body = answer.json()
    assert set(body) >= {"error", "message"} and isinstance(body["message"], str), body
    code: str = body["error"]
    return code


# ---------------------------------------------------------------------------------- register


def test_register_stores_an_argon2id_hash_never_the_password(server: Server) -> None:
    name = next(_names)
    body = register(server, name)
    assert body["user"]["name"] == name and body["user"]["guest"] is False
    assert isinstance(body["user"]["id"], int) and len(body["token"]) >= 32
    [(stored,)] = server.query("SELECT password_hash FROM users WHERE name = ?", name)
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored
    # Sessions are kept as the SHA-256 of their token, not the token.
    tokens = [t for (t,) in server.query("SELECT token_hash FROM sessions")]
    assert hashlib.sha256(body["token"].encode()).hexdigest() in tokens
    assert body["token"] not in tokens
    # The password is nowhere in the database files.
    for path in server.data_dir.glob("burraco.db*"):
        assert PASSWORD.encode() not in path.read_bytes()


def test_the_same_password_gives_different_hashes(server: Server) -> None:
    first, second = next(_names), next(_names)
    register(server, first)
    register(server, second)
    hashes = server.query("SELECT password_hash FROM users WHERE name IN (?, ?)", first, second)
    assert len({h for (h,) in hashes}) == 2  # salted


def test_names_are_unique_regardless_of_case(server: Server) -> None:
    name = f"Lucia_{next(_names)}"
    register(server, name)
    for taken in (name.lower(), name.upper(), f"  {name} "):
        answer = post(server, "/api/register", {"name": taken, "password": PASSWORD})
        assert answer.status_code == 409 and error_of(answer) == "name_taken", taken
    register(server, "Strasse" + name[5:])
    answer = post(server, "/api/register", {"name": "STRAßE" + name[5:], "password": PASSWORD})
    assert answer.status_code == 409 and error_of(answer) == "name_taken"


@pytest.mark.parametrize(
    ("name", "password", "status", "code"),
    [
        ("ab", PASSWORD, 400, "bad_name"),
        ("x" * 25, PASSWORD, 400, "bad_name"),
        ("with space", PASSWORD, 400, "bad_name"),
        ("semi;colon", PASSWORD, 400, "bad_name"),
        ("<script>", PASSWORD, 400, "bad_name"),
        ("name\nnext", PASSWORD, 400, "bad_name"),
        ("Ospite-12345", PASSWORD, 400, "bad_name"),
        ("guest-12", PASSWORD, 400, "bad_name"),
        ("", PASSWORD, 422, "bad_request"),
        ("x" * 65, PASSWORD, 422, "bad_request"),
        ("good_name", "short", 400, "bad_password"),
        ("good_name", "p" * 129, 400, "bad_password"),
        ("good_name", "", 422, "bad_request"),
        ("good_name", "p" * 257, 422, "bad_request"),
    ],
)
def test_bad_names_and_passwords_are_refused(
    server: Server, name: str, password: str, status: int, code: str
) -> None:
    answer = post(server, "/api/register", {"name": name, "password": password})
    assert answer.status_code == status and error_of(answer) == code, answer.text
    assert "set-cookie" not in answer.headers
    assert server.query("SELECT count(*) FROM users WHERE name = ?", name.strip()) == [(0,)]


@pytest.mark.parametrize(
    "body",
    [None, [], {"name": "only_name"}, {"password": PASSWORD}, {"name": 5, "password": PASSWORD}],
)
def test_malformed_bodies_get_bad_request(server: Server, body: Any) -> None:
    answer = post(server, "/api/register", body)
    assert answer.status_code == 422 and error_of(answer) == "bad_request"
    assert answer.json()["detail"]


def test_a_body_that_is_not_json_gets_bad_request(server: Server) -> None:
    answer = post(
        server,
        "/api/login",
        content=b"name=x&password=y",
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 422 and error_of(answer) == "bad_request"


# ------------------------------------------------------------------------------------- login


def test_login_with_the_right_password(server: Server) -> None:
    name = next(_names)
    registered = register(server, name)
    answer = post(server, "/api/login", {"name": name.upper(), "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["user"] == registered["user"]  # the name as registered, not as typed
    assert body["token"] != registered["token"]  # a new session
    me = get(server, "/api/me", **bearer(body["token"]))
    assert me.status_code == 200 and me.json() == registered["user"]


def test_login_with_a_wrong_password_or_an_unknown_name(server: Server) -> None:
    name = next(_names)
    register(server, name)
    wrong = post(server, "/api/login", {"name": name, "password": PASSWORD + "!"})
    unknown = post(server, "/api/login", {"name": next(_names), "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json() == unknown.json() == {"error": "bad_login", "message": wrong.json()["message"]}
    )
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_a_guest_has_no_password_to_log_in_with(server: Server) -> None:
    name = post(server, "/api/guest").json()["user"]["name"]
    answer = post(server, "/api/login", {"name": name, "password": PASSWORD})
    assert answer.status_code == 401 and error_of(answer) == "bad_login"


def test_an_unknown_name_takes_as_long_as_a_wrong_password(server: Server) -> None:
    """Names cannot be probed by timing: an unknown name costs a password check too."""
    name = next(_names)
    register(server, name)

    def timed(login: str) -> float:
        # The CPU time of this process (the app runs in it): what a check costs, whatever else
        # the machine does (wall time beside other workers varied 2.5x for the same check).
        started = time.process_time()
        answer = post(server, "/api/login", {"name": login, "password": "wrong password"})
        assert answer.status_code == 401
        return time.process_time() - started

    known: list[float] = []
    unknown: list[float] = []
    for _ in range(4):  # interleaved, so that both see the same conditions
        known.append(timed(name))
        unknown.append(timed(next(_names)))
    # A database lookup alone takes a few milliseconds; an argon2id check tens of them.
    assert statistics.median(unknown) > 0.5 * statistics.median(known), (known, unknown)


# ---------------------------------------------------------------------------- sessions, me


def test_me_needs_a_session(server: Server) -> None:
    for headers in (
        {},
        bearer("not-a-token"),
        {"Authorization": "Bearer"},
        {"Authorization": "Basic dXNlcjpwYXNzd29yZA=="},
        {"Cookie": "burraco_session=not-a-token"},
    ):
        answer = get(server, "/api/me", **headers)
        assert answer.status_code == 401, headers
        assert answer.json() == {"error": "not_authenticated", "message": "log in first"}


def test_bearer_tokens_and_the_cookie_both_work(server: Server) -> None:
    body = register(server, next(_names))
    assert get(server, "/api/me", **bearer(body["token"])).json() == body["user"]
    cookie = get(server, "/api/me", Cookie=f"burraco_session={body['token']}")
    assert cookie.status_code == 200 and cookie.json() == body["user"]
    # A browser client keeps the cookie it was given.
    with server.client() as browser:
        guest = browser.post("/api/guest", headers={"X-Forwarded-For": next(_addresses)})
        assert browser.cookies.get("burraco_session") == guest.json()["token"]
        assert browser.get("/api/me").json() == guest.json()["user"]


def test_logout_ends_the_session(server: Server) -> None:
    body = register(server, next(_names))
    other = post(server, "/api/login", {"name": body["user"]["name"], "password": PASSWORD})
    token = body["token"]
    answer = post(server, "/api/logout", headers=bearer(token))
    assert answer.status_code == 204
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("burraco_session=") and re.search(r"(?i)max-age=0|expires=", cookie)
    assert get(server, "/api/me", **bearer(token)).status_code == 401
    # Only that session: the other login goes on.
    assert get(server, "/api/me", **bearer(other.json()["token"])).status_code == 200
    # Logging out twice, or without a session, is harmless.
    assert post(server, "/api/logout", headers=bearer(token)).status_code == 204
    assert post(server, "/api/logout").status_code == 204


def test_an_expired_session_is_refused(server: Server) -> None:
    body = register(server, next(_names))
    token = body["token"]
    assert get(server, "/api/me", **bearer(token)).status_code == 200
    digest = hashlib.sha256(token.encode()).hexdigest()
    with contextlib.closing(sqlite3.connect(server.db_path, timeout=10)) as db, db:
        db.execute(
            "UPDATE sessions SET expires_at = '2001-01-01 00:00:00.000000' WHERE token_hash = ?",
            (digest,),
        )
    answer = get(server, "/api/me", **bearer(token))
    assert answer.status_code == 401 and error_of(answer) == "not_authenticated"


def test_sessions_expire_in_thirty_days_and_guests_in_two(server: Server) -> None:
    user = register(server, next(_names))
    guest = post(server, "/api/guest").json()
    for body, days in ((user, 30), (guest, 2)):
        digest = hashlib.sha256(body["token"].encode()).hexdigest()
        [(created, expires)] = server.query(
            "SELECT created_at, expires_at FROM sessions WHERE token_hash = ?", digest
        )
        assert expires[:10] > created[:10]
        span = _parse(expires) - _parse(created)
        assert abs(span - days * 86400) < 5


def _parse(moment: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(moment).timestamp()


# ------------------------------------------------------------------------------------ guests


def test_guests_get_generated_names(server: Server) -> None:
    bodies = [post(server, "/api/guest").json() for _ in range(3)]
    names = [b["user"]["name"] for b in bodies]
    assert all(re.fullmatch(r"Ospite-\d{5}", n) for n in names), names
    assert len(set(names)) == 3 and all(b["user"]["guest"] is True for b in bodies)
    me = get(server, "/api/me", **bearer(bodies[0]["token"]))
    assert me.json() == bodies[0]["user"]
    rows = server.query("SELECT is_guest, password_hash FROM users WHERE name = ?", names[0])
    assert rows == [(1, None)]


# ----------------------------------------------------------------------------------- cookies


def cookie_flags(answer: httpx.Response) -> dict[str, str]:
    header = answer.headers["set-cookie"]
    name_value, *attributes = (part.strip() for part in header.split(";"))
    flags = {"": name_value}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        flags[key.lower()] = value
    return flags


def test_the_session_cookie_is_http_only_and_same_site_lax(server: Server) -> None:
    name = next(_names)
    answers = [
        post(server, "/api/register", {"name": name, "password": PASSWORD}),
        post(server, "/api/login", {"name": name, "password": PASSWORD}),
        post(server, "/api/guest"),
    ]
    for answer in answers:
        flags = cookie_flags(answer)
        assert flags[""] == f"burraco_session={answer.json()['token']}"
        assert "httponly" in flags
        assert flags["samesite"].lower() == "lax"
        assert flags["path"] == "/"
        assert int(flags["max-age"]) > 0
        assert "secure" not in flags  # plain HTTP on loopback; see the next test


def test_secure_cookies_behind_https(secure_server: Server) -> None:
    flags = cookie_flags(post(secure_server, "/api/guest"))
    assert "secure" in flags and "httponly" in flags and flags["samesite"].lower() == "lax"


# ------------------------------------------------------------------------------- rate limits


def test_login_attempts_are_limited_per_address_and_per_name(server: Server) -> None:
    """Per address, and per address and name together: a guesser cannot lock the owner out
    from elsewhere (issue 19, M8); the name that keeps failing is slowed down instead, under
    every spelling of it, so a guessing attack spread over addresses gains nothing."""
    name, other_name = next(_names), next(_names)
    register(server, name)
    register(server, other_name)
    address = next(_addresses)
    wrong = {"name": name, "password": "not the password"}
    for _ in range(5):  # the burst
        assert post(server, "/api/login", wrong, address=address).status_code == 401
    limited = post(server, "/api/login", wrong, address=address)
    assert limited.status_code == 429 and error_of(limited) == "rate_limited"
    right = {"name": name, "password": PASSWORD}
    assert post(server, "/api/login", right, address=address).status_code == 429
    # A spread-out guessing attack on the same name, under other spellings (spaces, capitals,
    # full-width letters), is answered, each time more slowly...
    waits = []
    for spelling in (f"  {name}\t", name.upper(), fullwidth(name)):
        started = time.monotonic()
        guess = post(
            server, "/api/login", {"name": spelling, "password": "guess"}, address=next(_addresses)
        )
        waits.append(time.monotonic() - started)
        assert guess.status_code == 401, spelling
    assert waits[0] >= 0.5 and waits[1] >= 1.0 and waits[2] >= 2.0, waits
    # ...while the owner, from his own address, gets in (slowed, not refused).
    elsewhere = next(_addresses)
    assert post(server, "/api/login", right, address=elsewhere).status_code == 200
    # Another name is not held by the first one's failures (FailureDelay's own test checks
    # the arithmetic: delays, decay, a success clearing them).
    other = {"name": other_name, "password": PASSWORD}
    assert post(server, "/api/login", other, address=elsewhere).status_code == 200


def test_failure_delay_grows_decays_and_clears() -> None:
    failures = FailureDelay()
    for n in range(5):
        assert failures.delay("anna", now=n) == 0.0
        failures.failed("anna", now=n)
    assert failures.delay("anna", now=5) == 0.5
    failures.failed("anna", now=5)
    assert failures.delay("anna", now=6) == 1.0
    for n in range(6, 20):
        failures.failed("anna", now=n)
    assert failures.delay("anna", now=20) == 4.0, "capped"
    assert failures.delay("bruno", now=20) == 0.0, "per name"
    assert failures.delay("anna", now=20 + failures.memory) == 0.0, "forgotten when quiet"
    failures.succeeded("anna")
    assert failures.delay("anna", now=21) == 0.0, "cleared by a login"


def fullwidth(text: str) -> str:
    """The same text in full-width forms (U+FF01..U+FF5E), which NFKC maps back."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def test_names_that_look_the_same_are_the_same_name(server: Server) -> None:
    name = next(_names)
    registered = register(server, name)
    answer = post(server, "/api/register", {"name": fullwidth(name), "password": PASSWORD})
    assert answer.status_code == 409 and error_of(answer) == "name_taken"
    login = post(server, "/api/login", {"name": fullwidth(name.upper()), "password": PASSWORD})
    assert login.status_code == 200 and login.json()["user"] == registered["user"]
    # A full-width spelling is stored as the plain letters.
    other = register(server, fullwidth(next(_names)))
    assert other["user"]["name"].isascii()


def test_guests_and_registrations_are_limited_per_address(server: Server) -> None:
    address = next(_addresses)
    codes = [post(server, "/api/guest", address=address).status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
    answer = post(
        server, "/api/register", {"name": next(_names), "password": PASSWORD}, address=address
    )
    assert answer.status_code == 429 and error_of(answer) == "rate_limited"
    assert post(server, "/api/guest").status_code == 200  # another address


def test_the_log_is_clean(server: Server) -> None:
    assert server.traceback_free(), server.log()
