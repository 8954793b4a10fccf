"""The installable app's files (issue 15, Comfort): the web manifest and the service worker are
served with their content types, the worker from the root so that its scope covers the app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Server
from .inprocess import app_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with app_server(tmp_path, bot_delay=0.0) as running:
        yield running


def test_the_manifest_is_served_as_a_web_manifest(server: Server) -> None:
    with server.client() as client:
        answer = client.get("/manifest.webmanifest")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = json.loads(answer.text)
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert any(icon["src"] == "/img/icon.svg" for icon in manifest["icons"])
        assert client.get("/img/icon.svg").status_code == 200
        assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").text


def test_the_service_worker_is_served_at_the_root_and_never_caches_the_api(server: Server) -> None:
    with server.client() as client:
        answer = client.get("/sw.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["service-worker-allowed"] == "/"
        assert answer.headers["cache-control"] == "no-cache"
        # Play and the API need the network: the worker leaves /api and /ws alone.
        assert 'startsWith("/api")' in answer.text and 'startsWith("/ws")' in answer.text
        # The security headers still apply to these two routes.
        assert answer.headers["x-content-type-options"] == "nosniff"
