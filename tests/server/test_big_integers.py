"""No integer a client can send reaches a database driver unchecked (issue 19, M3): an id or
number past 64 bits in any path or query of the OpenAPI description, or in a club body, is a
404 or 422 in the documented ``{error, message}`` shape, never a 500."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from .inprocess import running_app

HUGE = 99999999999999999999
"""Past 64 bits (the finding's own number)."""


def _int_params(operation: dict[str, Any]) -> list[dict[str, Any]]:
    params = []
    for param in operation.get("parameters", []):
        schema = param.get("schema", {})
        kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", [])}
        if "integer" in kinds:
            params.append(param)
    return params


def test_huge_integers_in_paths_and_queries_are_refused(tmp_path: Path) -> None:
    async def scenario() -> list[tuple[str, str, int, Any]]:
        async with running_app(tmp_path) as app:
            registered = await app.http.post(
                "/api/register", json={"name": "ada_lovelace", "password": "a good password"}
            )
            assert registered.status_code == 201
            app.http.cookies.clear()
            headers = {"Authorization": f"Bearer {registered.json()['token']}"}
            spec = (await app.http.get("/api/openapi.json")).json()
            answers = []
            for path, item in spec["paths"].items():
                for method, operation in item.items():
                    for param in _int_params(operation):
                        url = path
                        query: dict[str, Any] = {}
                        for other in operation.get("parameters", []):
                            value: int | str = HUGE if other is param else 1
                            if other.get("schema", {}).get("type") == "string":
                                value = "abc"
                            if other["in"] == "path":
                                url = url.replace("{" + other["name"] + "}", str(value))
                            elif other is param:
                                query[other["name"]] = value
                        url = re.sub(r"\{[^}]+\}", "1", url)
                        response = await app.http.request(
                            method.upper(), url, params=query, headers=headers, json={}
                        )
                        answers.append((method, url, response.status_code, response.json()))
            return answers

    answers = asyncio.run(scenario())
    assert len(answers) >= 30, "every route with an integer parameter was tried"
    for method, url, status, body in answers:
        assert status in (404, 422), (method, url, status, body)
        assert set(body) >= {"error", "message"}, (method, url, body)


def test_huge_integers_in_club_bodies_are_refused(tmp_path: Path) -> None:
    async def scenario() -> list[tuple[int, Any]]:
        async with running_app(tmp_path) as app:
            registered = await app.http.post(
                "/api/register", json={"name": "ada_lovelace", "password": "a good password"}
            )
            app.http.cookies.clear()
            headers = {"Authorization": f"Bearer {registered.json()['token']}"}
            bodies = [
                ("post", "/api/club/seasons/1/payments", {"member": HUGE, "amount_cents": 100}),
                ("post", "/api/club/seasons/1/payments", {"member": 1, "amount_cents": HUGE}),
                ("post", "/api/club/evenings/1/checkins", {"member": HUGE}),
                ("post", "/api/club/seasons/1/charges", {"member": 1, "amount_cents": -HUGE}),
            ]
            out = []
            for method, url, body in bodies:
                response = await app.http.request(method.upper(), url, json=body, headers=headers)
                out.append((response.status_code, response.json()))
            return out

    for status, body in asyncio.run(scenario()):
        # Refused at the edge, before any lookup could reach the database with it.
        assert status == 422 and body["error"] == "bad_request", body
        assert set(body) >= {"error", "message"}, body
