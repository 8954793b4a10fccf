"""The browser client: the static files of ``burraco/web`` served at ``/`` (mounted last, so
that every API route comes first), and the installable app's two files served with their own
content types: the web manifest, and the service worker at the root (its scope covers the app)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent.parent / "web"

# The worker is looked for again on every visit (a stale worker would keep an old shell).
NO_CACHE = {"Cache-Control": "no-cache"}


def mount(app: FastAPI) -> None:
    if not WEB.is_dir():
        return

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest() -> FileResponse:
        return FileResponse(
            WEB / "manifest.webmanifest", media_type="application/manifest+json", headers=NO_CACHE
        )

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        headers = {**NO_CACHE, "Service-Worker-Allowed": "/"}
        return FileResponse(WEB / "sw.js", media_type="text/javascript", headers=headers)

    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
