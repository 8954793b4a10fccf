"""What the server says about itself: versions and choices (``/api/info``), operating figures
(``/api/server/stats``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from burraco import __version__
from burraco.bots import levels_by_strength
from burraco.engine import preset_names

from ..collector import Collector
from ..protocol import PROTOCOL_VERSION
from .deps import HubDep
from .models import InfoOut, StatsOut, answers


async def server_info() -> dict[str, Any]:
    return {
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "presets": list(preset_names()),
        "bots": levels_by_strength(),  # weakest first: the lobby lists them in this order
    }


async def server_stats(request: Request, hub: HubDep) -> dict[str, Any]:
    """Operating figures of this server process (for operators and the load benchmark)."""
    collector: Collector = request.app.state.collector
    return {
        "tables": len(hub.tables),
        "connections": len(hub.connections),
        "gc": collector.stats.as_json(),
    }


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/info",
        server_info,
        methods=["GET"],
        tags=["lobby"],
        response_model=None,
        responses=answers(InfoOut),
    )
    app.add_api_route(
        "/api/server/stats",
        server_stats,
        methods=["GET"],
        tags=["server"],
        response_model=None,
        responses=answers(StatsOut),
    )
