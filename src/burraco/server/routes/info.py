"""What the server says about itself: versions and choices (``/api/info``), operating figures
(``/api/server/stats``)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

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
    stats: dict[str, Any] = {
        "tables": len(hub.tables),
        "connections": len(hub.connections),
        "gc": collector.stats.as_json(),
    }
    if hub.cluster is not None:
        stats["node"] = hub.cluster.node
        stats["taken_over"] = hub.cluster.taken_over
        stats["remote_watchers"] = len(hub.cluster.remote)
    return stats


async def health(hub: HubDep) -> JSONResponse:
    """For the proxy's health check (deploy/haproxy.cfg): 200 while this process takes work,
    503 while it starts or drains (docs/cluster.md)."""
    cluster = hub.cluster
    node = None if cluster is None else cluster.name
    if cluster is not None and not cluster.ready:
        return JSONResponse({"status": "draining", "node": node}, status_code=503)
    return JSONResponse({"status": "ok", "node": node})


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
        "/healthz",
        health,
        methods=["GET"],
        tags=["server"],
        response_model=None,
        responses=answers(None, 503),
    )
    app.add_api_route(
        "/api/server/stats",
        server_stats,
        methods=["GET"],
        tags=["server"],
        response_model=None,
        responses=answers(StatsOut),
    )
