"""The OpenAPI description tells the truth: every route of the lobby, accounts, history, server
and tournament areas is called in process (``inprocess.py``) in a realistic scenario, and each
JSON answer is validated against the schema the description declares for its status (with
``jsonschema``). Objects are checked strictly: a field the route returns but the description
does not name fails, as does a declared required field that is missing. Every status a route
answers must be declared. The club's routes have their own tests (test_club_routes.py).
"""

from __future__ import annotations

import asyncio
import copy
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import jsonschema

from burraco.ratings import Mode, outcome_of
from burraco.server.ratelimit import RateLimiter
from burraco.store import Standing

from .inprocess import InProcess, play_seat, running_app

Json = dict[str, Any]
PASSWORD = "un segreto lungo"
ABSENT_QUICKLY = {"disconnect_grace": 0.05, "substitute_bot": "greedy"}


def _strict(node: Any) -> Any:
    """The schema with ``additionalProperties: false`` on every object that lists its
    properties and says nothing of others (pydantic leaves them open)."""
    if isinstance(node, dict):
        out = {key: _strict(value) for key, value in node.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_strict(item) for item in node]
    return node


class Checker:
    """Validates answers against the app's description and remembers what it saw."""

    def __init__(self, app: InProcess, spec: Json) -> None:
        self.app = app
        self.spec = spec
        self.components = _strict(copy.deepcopy(spec["components"]))
        self.seen: set[tuple[str, str]] = set()
        self.templates: dict[tuple[str, str], re.Pattern[str]] = {
            (method.upper(), template): re.compile(re.sub(r"\{\w+\}", "[^/]+", template) + "$")
            for template, operations in spec["paths"].items()
            for method in operations
        }

    def template(self, method: str, path: str) -> str:
        bare = path.split("?", maxsplit=1)[0]
        for (known, template), regex in self.templates.items():
            if known == method and regex.match(bare):
                return template
        raise AssertionError(f"no route for {method} {path}")

    async def call(
        self,
        method: str,
        path: str,
        status: int,
        *,
        json: Any = None,
        headers: dict[str, str] | None = None,
        code: str | None = None,
    ) -> Any:
        """Call a route, expect ``status`` (and the error ``code``), validate the body."""
        answer = await self.app.http.request(method, path, json=json, headers=headers)
        assert answer.status_code == status, (method, path, answer.status_code, answer.text)
        template = self.template(method, path)
        self.seen.add((method, template))
        return self.validate(method, template, answer, code)

    def validate(self, method: str, template: str, answer: httpx.Response, code: str | None) -> Any:
        operation = self.spec["paths"][template][method.lower()]
        where = f"{method} {template} {answer.status_code}"
        declared = operation["responses"].get(str(answer.status_code))
        assert declared is not None, f"{where}: status not declared"
        if answer.status_code == 204:
            assert not answer.content, where
            return None
        media_type = answer.headers["content-type"].split(";")[0]
        assert media_type in declared.get("content", {}), f"{where}: {media_type} not declared"
        schema = declared["content"][media_type]["schema"]
        if media_type != "application/json":
            assert schema == {"type": "string"}, where
            return answer.text
        body = answer.json()
        document = {**_strict(schema), "components": self.components}
        validator = jsonschema.Draft202012Validator(document)
        problems = [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(body)
        ]
        assert not problems, f"{where}: {problems[:5]}"
        if answer.status_code >= 400:
            assert schema["$ref"].endswith("ErrorOut"), where
            assert code is None or body["error"] == code, (where, body)
        return body


async def _guest(checker: Checker) -> tuple[dict[str, str], Json]:
    body = await checker.call("POST", "/api/guest", 200)
    checker.app.http.cookies.clear()
    return {"Authorization": f"Bearer {body['token']}"}, body["user"]


async def _accounts(c: Checker) -> None:
    await c.call("POST", "/api/register", 201, json={"name": "Anna", "password": PASSWORD})
    await c.call("POST", "/api/register", 409, json={"name": "anna", "password": PASSWORD})
    await c.call("POST", "/api/register", 400, json={"name": "a", "password": PASSWORD})
    await c.call("POST", "/api/register", 422, json={"name": "Bruno"}, code="bad_request")
    login = await c.call("POST", "/api/login", 200, json={"name": "Anna", "password": PASSWORD})
    await c.call("POST", "/api/login", 401, json={"name": "Anna", "password": "wrong one"})
    c.app.http.cookies.clear()
    anna = {"Authorization": f"Bearer {login['token']}"}
    await c.call("GET", "/api/me", 200, headers=anna)
    await c.call("GET", "/api/me", 401, code="not_authenticated")
    assert (await c.call("GET", "/api/session", 200, headers=anna))["user"]["name"] == "Anna"
    assert (await c.call("GET", "/api/session", 200))["user"] is None  # no 401 for the page
    await c.call("POST", "/api/logout", 204, headers=anna)
    limiter = c.app.app.state.login_limiter
    c.app.app.state.login_limiter = RateLimiter(rate=0.0, burst=0.0)  # every attempt refused
    try:
        await c.call("POST", "/api/guest", 429, code="rate_limited")
        login = {"name": "Anna", "password": PASSWORD}
        await c.call("POST", "/api/login", 429, json=login, code="rate_limited")
        register = {"name": "Carla", "password": PASSWORD}
        await c.call("POST", "/api/register", 429, json=register, code="rate_limited")
    finally:
        c.app.app.state.login_limiter = limiter


async def _finished_table(c: Checker, user: dict[str, str]) -> str:
    """A match of ``user`` against a bot, played to its end."""
    body = {"players": 2, "smazzate": 1, "seat": 0, "bots": {"1": "greedy"}, "between_smazzate": 0}
    table: str = (await c.call("POST", "/api/tables", 201, json=body, headers=user))["id"]
    player = await c.app.hub.store.session_user(user["Authorization"].removeprefix("Bearer "))
    assert player is not None
    await play_seat(c.app, table, player)

    async def finished() -> bool:
        stored = await c.app.hub.store.table(table)
        return stored is not None and stored.status == "finished"

    await c.app.until(finished)
    return table


async def _lobby(c: Checker) -> tuple[str, dict[str, str]]:
    (alice, _), (bob, _) = await _guest(c), await _guest(c)
    await c.call("POST", "/api/tables", 422, json={"bots": {"1": "cmd:x"}}, headers=alice)
    await c.call("POST", "/api/tables", 409, json={"seat": 3}, headers=alice)
    await c.call("POST", "/api/tables", 422, json={"rules": "nope"}, headers=alice)
    await c.call("POST", "/api/tables", 401, json={})
    await c.call("POST", "/api/lessons", 401)
    lesson = await c.call("POST", "/api/lessons", 201, headers=bob)
    assert lesson["status"] == "playing" and lesson["config"]["lesson"] is True
    table = (
        await c.call("POST", "/api/tables", 201, json={"players": 4, "smazzate": 1}, headers=alice)
    )["id"]
    path = f"/api/tables/{table}"
    await c.call("GET", "/api/tables", 200)
    await c.call("GET", path, 200)
    await c.call("GET", "/api/tables/nope", 404, code="no_such_table")
    await c.call("POST", f"{path}/sit", 409, json={"seat": 0}, headers=bob)
    await c.call("POST", f"{path}/sit", 200, json={"seat": 1}, headers=bob)
    await c.call("POST", f"{path}/sit", 422, json={"seat": 9}, headers=bob)
    await c.call("POST", f"{path}/stand", 200, headers=bob)
    await c.call("POST", f"{path}/bots", 200, json={"seat": 2, "level": "random"}, headers=alice)
    await c.call("POST", f"{path}/bots", 200, json={"seat": 2, "level": None}, headers=alice)
    await c.call("POST", f"{path}/rematch", 409, headers=alice, code="not_finished")
    await c.call("POST", f"{path}/cancel", 403, headers=bob)
    await c.call("POST", f"{path}/cancel", 200, headers=alice)
    finished = await _finished_table(c, alice)
    await c.call("POST", f"/api/tables/{finished}/rematch", 200, headers=alice)
    return finished, alice


async def _history(c: Checker, table: str) -> None:
    user, _ = await _guest(c)
    await c.call("GET", f"/api/tables/{table}/record", 200)
    await c.call("GET", f"/api/tables/{table}/record?match=9", 404, code="no_record")
    await c.call("GET", f"/api/tables/{table}/replay", 200)
    await c.call("GET", f"/api/tables/{table}/replay?match=9", 404, code="no_record")
    await c.call("GET", f"/api/tables/{table}/replay?match=x", 422, code="bad_request")
    matches = await c.call("GET", "/api/matches", 200)
    assert [m["table"] for m in matches] == [table]
    await c.call("GET", "/api/matches?mine=true", 200, headers=user)
    await c.call("GET", "/api/matches?mine=true", 401)


async def _reviews(c: Checker, table: str, player: dict[str, str]) -> None:
    c.app.hub.reviews.seconds = 0.01  # a tiny budget: the review is quick
    stranger, _ = await _guest(c)
    path = f"/api/tables/{table}/review"
    await c.call("GET", f"/api/tables/{table}/reviews", 200, headers=player)
    await c.call("GET", "/api/tables/nope/reviews", 404, code="no_record")
    await c.call("POST", path, 401, json={})
    await c.call("POST", path, 403, json={}, headers=stranger, code="not_a_player")
    await c.call("POST", path, 409, json={"seat": 5}, headers=player, code="no_such_seat")
    await c.call("POST", path, 422, json={"seat": "x"}, headers=player, code="bad_request")
    await c.call("POST", f"{path}?match=9", 404, json={}, headers=player, code="no_record")
    await c.call("GET", f"{path}?seat=0", 404, code="no_review")
    saved, c.app.hub.reviews.queue_size = c.app.hub.reviews.queue_size, 0
    await c.call("POST", path, 503, json={}, headers=player, code="review_queue_full")
    c.app.hub.reviews.queue_size = saved
    await c.call("POST", path, 202, json={}, headers=player)
    await c.call("POST", path, 429, json={"seat": 1}, headers=player, code="too_many_reviews")

    async def done() -> bool:
        answer = await c.app.http.get(f"{path}?seat=0")
        return bool(answer.json()["status"] == "done")

    await c.app.until(done)
    await c.call("GET", f"{path}?seat=0", 200)
    await c.call("POST", path, 200, json={"seat": 0}, headers=player)
    await c.call("GET", f"/api/tables/{table}/reviews", 200)


async def _server(c: Checker) -> None:
    await c.call("GET", "/api/info", 200)
    rulesets = await c.call("GET", "/api/rulesets", 200)
    reale = next(p["parameters"] for p in rulesets["presets"] if p["name"] == "reale")
    assert (reale["jokers"], reale["set_ranks"], reale["bonus_reale"]) == (0, [], 1000)  # §3.2
    await c.call("GET", "/api/server/stats", 200)
    await c.call("GET", "/healthz", 200)


async def _tournaments(c: Checker) -> None:
    (host, _), (mate, mate_user), (other, _) = await _guest(c), await _guest(c), await _guest(c)
    base = {"start": "sitgo", "size": 4, "rounds": 1, "smazzate": 1, "between_smazzate": 0}
    await c.call("POST", "/api/tournaments", 401, json=base)
    await c.call("POST", "/api/tournaments", 422, json=base | {"size": 2}, headers=host)
    await c.call("POST", "/api/tournaments", 422, json=base | {"rules": "x"}, headers=host)
    single = (await c.call("POST", "/api/tournaments", 201, json=base, headers=host))["id"]
    path = f"/api/tournaments/{single}"
    await c.call("GET", "/api/tournaments", 200)
    await c.call("GET", path, 200)
    await c.call("GET", "/api/tournaments/nope", 404, code="no_such_tournament")
    await c.call("POST", f"{path}/register", 200, headers=other)
    await c.call("POST", f"{path}/register", 409, headers=other, code="already_registered")
    await c.call("POST", f"{path}/unregister", 200, headers=other)
    await c.call("POST", f"{path}/unregister", 409, headers=other, code="not_registered")
    await c.call("POST", f"{path}/bots", 403, json={"level": "greedy"}, headers=other)
    await c.call("POST", f"{path}/bots", 422, json={"level": "cmd"}, headers=host)
    await c.call("POST", f"{path}/bots", 200, json={"level": "greedy", "count": 4}, headers=host)
    await c.call("GET", path, 200)
    pairs = (
        await c.call("POST", "/api/tournaments", 201, json=base | {"kind": "pairs"}, headers=host)
    )["id"]
    path = f"/api/tournaments/{pairs}"
    await c.call("POST", f"{path}/register", 422, headers=host, code="partner_needed")
    registration = {"partner": mate_user["name"]}
    await c.call("POST", f"{path}/register", 200, json=registration, headers=host)
    invitations = await c.call("GET", "/api/tournaments/invitations", 200, headers=mate)
    assert [i["tournament"] for i in invitations] == [pairs]
    await c.call("GET", "/api/tournaments/invitations", 401)
    await c.call("POST", f"{path}/confirm", 409, headers=other, code="no_invitation")
    await c.call("POST", f"{path}/confirm", 200, headers=mate)
    # Recurring events (test_recurring.py): a schedule, listed and stopped.
    body = await c.call("POST", "/api/register", 201, json={"name": "Orga", "password": PASSWORD})
    c.app.http.cookies.clear()
    orga = {"Authorization": f"Bearer {body['token']}"}
    schedule = {"at": "21:00", "tournament": {"smazzate": 2, "rounds": 2}}
    made = await c.call("POST", "/api/tournaments/recurring", 201, json=schedule, headers=orga)
    await c.call("POST", "/api/tournaments/recurring", 401, json=schedule)
    await c.call("POST", "/api/tournaments/recurring", 403, json=schedule, headers=host)
    await c.call("POST", "/api/tournaments/recurring", 422, json={}, headers=orga)
    await c.call("GET", "/api/tournaments/recurring", 200, headers=orga)
    await c.call("GET", "/api/tournaments/recurring", 401)
    await c.call("DELETE", f"/api/tournaments/recurring/{made['id']}", 204, headers=orga)
    await c.call("DELETE", f"/api/tournaments/recurring/{made['id']}", 404, headers=orga)


async def _ratings(c: Checker) -> None:
    # Anna (registered in _accounts) has one rated match against the expert bot.
    anna = await c.app.hub.store.user_by_name("Anna")
    assert anna is not None
    await c.app.hub.ratings.rate_match(
        table_id="schema",
        match_no=1,
        mode=Mode.TWO,
        seats=[f"user:{anna.id}", "bot:heuristic"],
        outcome=outcome_of(Mode.TWO, totals=[2005, 300], winner=0),
        now=datetime.now(UTC),
    )
    board = await c.call("GET", "/api/ratings/2p?provisional=true", 200)
    assert [p["name"] for p in board["players"]] == ["Anna"]
    month = datetime.now(UTC).strftime("%Y-%m")
    await c.call("GET", f"/api/ratings/2p?provisional=true&month={month}", 200)
    await c.call("GET", "/api/ratings/4p", 200)
    await c.call("GET", "/api/ratings/5p", 422, code="bad_request")
    await c.call("GET", "/api/ratings/2p?month=2026-13", 422, code="bad_request")
    profile = await c.call("GET", "/api/players/Anna", 200)
    assert [r["mode"] for r in profile["ratings"]] == ["2p"]
    await c.call("GET", "/api/players/Nobody", 404, code="no_such_player")
    await c.call("GET", "/api/players/Anna/matches?mode=2p&rated=true&versus=Anna", 200)
    await c.call("GET", "/api/players/Anna/matches?rules=italian&result=win", 200)
    await c.call("GET", f"/api/players/Anna/matches?rules={'x' * 41}", 422, code="bad_request")
    await c.call("GET", "/api/players/Anna/matches?result=maybe", 422, code="bad_request")
    await c.call("GET", "/api/players/Nobody/matches", 404, code="no_such_player")
    _, guest = await _guest(c)
    await c.call("GET", f"/api/players/{guest['name']}", 403, code="guest_not_rated")
    await c.call("GET", f"/api/players/{guest['name']}/matches", 403, code="guest_not_rated")


async def _quickplay(c: Checker) -> None:
    (first, _), (second, _) = await _guest(c), await _guest(c)
    casual = {"players": 2, "rated": False}
    await c.call("POST", "/api/quickplay", 401, json=casual)
    await c.call("POST", "/api/quickplay", 403, json={"players": 2}, headers=first)
    await c.call("POST", "/api/quickplay", 422, json=casual | {"clock": "3"}, headers=first)
    await c.call("POST", "/api/quickplay", 422, json=casual | {"players": 9}, headers=first)
    await c.call("POST", "/api/quickplay", 200, json=casual, headers=first)
    await c.call("POST", "/api/quickplay", 409, json=casual, headers=first, code="conflict")
    await c.call("GET", "/api/quickplay", 200, headers=first)
    await c.call("GET", "/api/quickplay", 401)
    await c.call("DELETE", "/api/quickplay", 200, headers=first)
    await c.call("DELETE", "/api/quickplay", 401)
    await c.call("POST", "/api/quickplay", 200, json=casual, headers=first)
    seated = await c.call("POST", "/api/quickplay", 200, json=casual, headers=second)
    assert seated["status"] == "seated"
    await c.call(
        "POST",
        "/api/quickplay",
        422,
        json={"players": 4, "rated": False, "partner": "Nobody"},
        headers=first,
        code="no_such_partner",
    )


async def _account(c: Checker) -> None:
    body = await c.call("POST", "/api/register", 201, json={"name": "Elsa", "password": PASSWORD})
    c.app.http.cookies.clear()
    elsa = {"Authorization": f"Bearer {body['token']}"}
    guest, _ = await _guest(c)
    await c.call("GET", "/api/account", 200, headers=elsa)
    await c.call("GET", "/api/account", 401)
    await c.call("GET", "/api/account", 403, headers=guest)
    mail = {"email": "elsa@example.org"}
    await c.call(
        "POST", "/api/account/email", 503, json=mail, headers=elsa, code="mail_unavailable"
    )
    await c.call("POST", "/api/account/email", 401, json=mail)
    await c.call("POST", "/api/account/email", 422, json={}, headers=elsa)
    await c.call("POST", "/api/account/verify", 400, json={"token": "x" * 20}, code="bad_token")
    await c.call("POST", "/api/account/verify", 422, json={})
    await c.call("POST", "/api/password/forgot", 503, json=mail, code="mail_unavailable")
    await c.call("POST", "/api/password/forgot", 422, json={})
    await c.call("POST", "/api/password/reset", 400, json={"token": "x" * 20, "password": "x"})
    await c.call("POST", "/api/password/reset", 422, json={})
    change = {"current": PASSWORD, "new": "un'altra lunga"}
    await c.call(
        "POST", "/api/account/password", 401, json=change | {"current": "no"}, headers=elsa
    )
    await c.call("POST", "/api/account/password", 422, json={}, headers=elsa)
    await c.call("POST", "/api/account/password", 204, json=change, headers=elsa)
    await c.call("POST", "/api/account/standings", 409, json={"wanted": True}, headers=elsa)
    await c.call("POST", "/api/account/standings", 204, json={"wanted": False}, headers=elsa)
    await c.call("POST", "/api/account/standings", 422, json={}, headers=elsa)
    await c.call("GET", "/api/account/export", 200, headers=elsa)
    await c.call("GET", "/api/account/export", 403, headers=guest)
    await c.call("POST", "/api/account/logout-everywhere", 401)
    await c.call("DELETE", "/api/account", 422, json={}, headers=elsa)
    await c.call("DELETE", "/api/account", 401, json={"password": "no"}, headers=elsa)
    await c.call("DELETE", "/api/account", 204, json={"password": "un'altra lunga"}, headers=elsa)
    await c.call("POST", "/api/account/logout-everywhere", 200, headers=guest)


async def _invitation_mail(c: Checker) -> None:
    body = await c.call("POST", "/api/register", 201, json={"name": "Ines", "password": PASSWORD})
    c.app.http.cookies.clear()
    ines = {"Authorization": f"Bearer {body['token']}"}
    guest, _ = await _guest(c)
    path = "/api/account/invitations"
    await c.call("POST", path, 409, json={"wanted": True}, headers=ines, code="conflict")
    await c.call("POST", path, 204, json={"wanted": False}, headers=ines)
    await c.call("POST", path, 422, json={}, headers=ines)
    await c.call("POST", path, 401, json={"wanted": False})
    await c.call("POST", path, 403, json={"wanted": False}, headers=guest)
    mine = await c.call("GET", "/api/account", 200, headers=ines)
    assert mine["mail_invitations"] is False


async def _moderation(c: Checker) -> None:
    names = ("Mod", "Rude", "Victim")
    heads = {}
    for name in names:
        body = await c.call("POST", "/api/register", 201, json={"name": name, "password": PASSWORD})
        c.app.http.cookies.clear()
        heads[name] = {"Authorization": f"Bearer {body['token']}"}
    mod, rude, victim = (heads[n] for n in names)
    user = await c.app.hub.store.user_by_name("Mod")
    assert user is not None
    console = Standing(0, "test", "admin", None, None, False)
    await c.app.hub.moderation.sanction(
        console,
        "role",
        "user:Mod",
        now=datetime.now(UTC),
        user_id=user.id,
        values={"role": "admin"},
    )
    await c.call("GET", "/api/relations", 200, headers=victim)
    await c.call("GET", "/api/relations", 401)
    block = {"player": "Rude", "kind": "block"}
    await c.call("POST", "/api/relations", 200, json=block, headers=victim)
    await c.call("POST", "/api/relations", 404, json=block | {"player": "Nobody"}, headers=victim)
    await c.call("POST", "/api/relations", 422, json={}, headers=victim)
    await c.call("DELETE", "/api/relations", 200, json=block, headers=victim)
    await c.call(
        "POST", "/api/reports", 201, json={"player": "Rude", "reason": "x"}, headers=victim
    )
    await c.call(
        "POST", "/api/reports", 404, json={"player": "Nobody", "reason": "x"}, headers=victim
    )
    await c.call("POST", "/api/reports", 422, json={}, headers=victim)
    reports = await c.call("GET", "/api/admin/reports", 200, headers=mod)
    await c.call("GET", "/api/admin/reports", 403, headers=victim)
    close = {"resolution": "ok"}
    await c.call(
        "POST", f"/api/admin/reports/{reports[0]['id']}/close", 204, json=close, headers=mod
    )
    await c.call("POST", "/api/admin/reports/999/close", 404, json=close, headers=mod)
    await c.call("GET", "/api/admin/users/Rude", 200, headers=mod)
    await c.call("GET", "/api/admin/users/Nobody", 404, headers=mod)
    await c.call("GET", "/api/admin/users/Rude", 403, headers=victim)
    await c.call("POST", "/api/admin/users/Rude/mute", 200, json={"minutes": 5}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/mute", 422, json={"minutes": 0}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/suspend", 200, json={"days": 1}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/ban", 200, json={}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/pardon", 200, json={}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/role", 200, json={"role": "player"}, headers=mod)
    await c.call("POST", "/api/admin/users/Rude/role", 403, json={"role": "admin"}, headers=victim)
    await c.call("POST", "/api/admin/tables/nope/close", 404, json={}, headers=mod)
    await c.call("POST", "/api/admin/tables/nope/close", 403, json={}, headers=victim)
    table = await c.call("POST", "/api/tables", 201, json={"smazzate": 1}, headers=victim)
    await c.call("POST", f"/api/admin/tables/{table['id']}/close", 200, json={}, headers=mod)
    await c.call("POST", f"/api/admin/tables/{table['id']}/close", 409, json={}, headers=mod)
    await c.call("GET", "/api/admin/audit", 200, headers=mod)
    await c.call("GET", "/api/admin/audit", 403, headers=victim)
    await c.call("POST", "/api/admin/announce", 200, json={"text": "ciao"}, headers=mod)
    await c.call("POST", "/api/admin/announce", 403, json={"text": "ciao"}, headers=victim)
    await c.call("POST", "/api/admin/announce", 422, json={}, headers=mod)
    await c.call("GET", "/api/announcement", 200)
    del rude


async def _friends(c: Checker) -> None:
    heads = {}
    for name in ("Pia", "Leo"):
        body = await c.call("POST", "/api/register", 201, json={"name": name, "password": PASSWORD})
        c.app.http.cookies.clear()
        heads[name] = {"Authorization": f"Bearer {body['token']}"}
    pia, leo = heads["Pia"], heads["Leo"]
    guest, _ = await _guest(c)
    await c.call("GET", "/api/presence", 200)
    await c.call("GET", "/api/friends", 200, headers=pia)
    await c.call("GET", "/api/friends", 401)
    await c.call("POST", "/api/friends", 200, json={"player": "Leo"}, headers=pia)
    await c.call("POST", "/api/friends", 404, json={"player": "Nobody"}, headers=pia)
    await c.call("POST", "/api/friends", 403, json={"player": "Leo"}, headers=guest)
    await c.call("POST", "/api/friends", 422, json={}, headers=pia)
    await c.call("DELETE", "/api/friends", 200, json={"player": "Leo"}, headers=pia)
    await c.call("DELETE", "/api/friends", 404, json={"player": "Nobody"}, headers=pia)
    table = await c.call("POST", "/api/tables", 201, json={"smazzate": 3}, headers=pia)
    path = f"/api/tables/{table['id']}/invite"
    await c.call("POST", path, 200, json={"player": "Leo"}, headers=pia)
    await c.call("POST", path, 409, json={"player": "Pia"}, headers=leo)
    await c.call("POST", path, 404, json={"player": "Nobody"}, headers=pia)
    await c.call("POST", "/api/tables/nope/invite", 404, json={"player": "Leo"}, headers=pia)
    dare = {"player": "Leo", "table": {"smazzate": 3}}
    await c.call("POST", "/api/challenges", 201, json=dare, headers=pia)
    await c.call("POST", "/api/challenges", 404, json=dare | {"player": "Nobody"}, headers=pia)
    await c.call("POST", "/api/challenges", 422, json={}, headers=pia)
    await c.call(
        "POST", "/api/relations", 200, json={"player": "Pia", "kind": "block"}, headers=leo
    )
    await c.call("POST", "/api/challenges", 403, json=dare, headers=pia)
    await c.call("POST", path, 403, json={"player": "Leo"}, headers=pia)


async def _bots(c: Checker) -> None:
    """Bot accounts (issue 18): created, listed, a new token, revoked, deleted."""
    body = await c.call("POST", "/api/register", 201, json={"name": "Eva", "password": PASSWORD})
    c.app.http.cookies.clear()
    eva = {"Authorization": f"Bearer {body['token']}"}
    guest, _ = await _guest(c)
    await c.call("GET", "/api/account/bots", 401)
    await c.call("GET", "/api/account/bots", 403, headers=guest)
    made = await c.call("POST", "/api/account/bots", 201, json={"name": "EvaBot"}, headers=eva)
    await c.call("POST", "/api/account/bots", 409, json={"name": "EvaBot"}, headers=eva)
    await c.call("POST", "/api/account/bots", 400, json={"name": "e"}, headers=eva)
    await c.call("POST", "/api/account/bots", 422, json={}, headers=eva)
    bot = {"Authorization": f"Bearer {made['token']}"}
    await c.call("POST", "/api/account/bots", 403, json={"name": "BotBot"}, headers=bot)
    await c.call("GET", "/api/account/bots", 200, headers=eva)
    await c.call("POST", "/api/account/bots/EvaBot/token", 200, headers=eva)
    await c.call("POST", "/api/account/bots/Nobody/token", 404, headers=eva)
    await c.call("DELETE", "/api/account/bots/EvaBot/token", 204, headers=eva)
    await c.call("DELETE", "/api/account/bots/Nobody/token", 404, headers=eva)
    await c.call("DELETE", "/api/account/bots/EvaBot", 204, headers=eva)
    await c.call("DELETE", "/api/account/bots/EvaBot", 404, headers=eva)
    for _ in range(3):
        await c.call("POST", "/api/account/bots", 201, json={"name": f"EvaBot{_}"}, headers=eva)
    await c.call("POST", "/api/account/bots", 429, json={"name": "EvaBot9"}, headers=eva)


def test_every_answer_is_what_the_description_declares(tmp_path: Path) -> None:
    async def scenario() -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
        async with running_app(tmp_path, **ABSENT_QUICKLY) as app:
            spec = (await app.http.get("/api/openapi.json")).json()
            checker = Checker(app, spec)
            await _accounts(checker)
            table, player = await _lobby(checker)
            await _history(checker, table)
            await _reviews(checker, table, player)
            await _server(checker)
            await _tournaments(checker)
            await _ratings(checker)
            await _quickplay(checker)
            await _account(checker)
            await _invitation_mail(checker)
            await _moderation(checker)
            await _friends(checker)
            await _bots(checker)
            everything = {key for key in checker.templates if not key[1].startswith("/api/club")}
            return checker.seen, everything

    seen, everything = asyncio.run(scenario())
    assert everything - seen == set()  # every route was called


def test_validation_errors_are_declared_as_the_app_answers_them(tmp_path: Path) -> None:
    """A request that fails validation is answered ``{error: bad_request, message, detail}``
    (``errors.install``), and the description says so for every route, the club's included."""

    async def scenario() -> Json:
        async with running_app(tmp_path) as app:
            spec: Json = (await app.http.get("/api/openapi.json")).json()
            return spec

    spec = asyncio.run(scenario())
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            invalid = operation["responses"].get("422")
            if invalid is not None:
                ref = invalid["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("ErrorOut"), (method, path, ref)


INT64 = (float(-(2**63)), float(2**63 - 1))


def _unbounded_integers(node: Any, where: str, components: Json, seen: frozenset[str]) -> set[str]:
    """The integers under ``node`` (following references) that a request may set past 64 bits:
    neither an enumeration nor both bounds inside ``INT64``."""
    found: set[str] = set()
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            if name in seen:
                return found
            return _unbounded_integers(components[name], name, components, seen | {name})
        if node.get("type") == "integer" and "enum" not in node and "const" not in node:
            top = node.get("maximum", node.get("exclusiveMaximum"))
            low = node.get("minimum", node.get("exclusiveMinimum"))
            # The description gives 2**63 - 1 as a float (2**63): compared as floats.
            if top is None or low is None or float(top) > INT64[1] or float(low) < INT64[0]:
                found.add(where)
        for key, value in node.items():
            found |= _unbounded_integers(value, f"{where}/{key}", components, seen)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found |= _unbounded_integers(value, f"{where}[{index}]", components, seen)
    return found


def test_every_integer_a_request_gives_is_bounded_to_64_bits(tmp_path: Path) -> None:
    """Issue 19, M3: a number past 64 bits must be a 422 before any database sees it. Every
    integer of every route's path, query and body, as the description declares it, has both
    bounds within 64 bits (a report's ``seq`` and two path numbers had none: a 500 found by a
    black-box test)."""

    async def scenario() -> Json:
        async with running_app(tmp_path) as app:
            spec: Json = (await app.http.get("/api/openapi.json")).json()
            return spec

    spec = asyncio.run(scenario())
    components = spec["components"]["schemas"]
    unbounded: set[str] = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                where = f"{method} {path} {parameter['name']}"
                unbounded |= _unbounded_integers(
                    parameter.get("schema", {}), where, components, frozenset()
                )
            body = operation.get("requestBody", {})
            unbounded |= _unbounded_integers(body, f"{method} {path}", components, frozenset())
    assert unbounded == set()
