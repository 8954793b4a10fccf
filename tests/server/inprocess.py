"""The server's ASGI app driven in process: no uvicorn, no port, no subprocess.

``running_app`` runs the app's lifespan (store, hub, tournaments) inside the test's event loop
and gives an ``httpx.AsyncClient`` over ``httpx.ASGITransport``; bots play without delay and
search bots decide in threads. Use it for every HTTP test that needs no real process (a real
process is for SIGKILL, uvicorn's own behaviour and load: ``support.ServerProcess``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from burraco.server.app import create_app
from burraco.server.config import ServerConfig
from burraco.server.hub import Hub


@dataclass
class InProcess:
    app: FastAPI
    http: httpx.AsyncClient

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    async def guest(self) -> dict[str, str]:
        """A new guest's bearer header."""
        response = await self.http.post("/api/guest")
        assert response.status_code == 200, response.text
        self.http.cookies.clear()  # programs use the token, not the browser's cookie
        return {"Authorization": f"Bearer {response.json()['token']}"}

    async def until(
        self, check: Callable[[], Awaitable[bool]], *, timeout: float = 60, every: float = 0.02
    ) -> None:
        """Wait until ``check()`` is true (polling), failing after ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while not await check():
                await asyncio.sleep(every)

    async def table_status(self, table: str) -> str:
        response = await self.http.get(f"/api/tables/{table}")
        assert response.status_code == 200, response.text
        status: str = response.json()["status"]
        return status


@contextlib.asynccontextmanager
async def running_app(data_dir: Path, **settings: Any) -> AsyncIterator[InProcess]:
    config = ServerConfig(
        data_dir=data_dir,
        **{"bot_delay": 0.0, "bot_workers": 0, "login_attempts_per_minute": 6000.0} | settings,
    )
    app = create_app(config)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://127.0.0.1", timeout=30
        ) as http:
            yield InProcess(app, http)
