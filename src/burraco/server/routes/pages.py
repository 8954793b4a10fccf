"""The browser client: the static files of ``burraco/web`` served at ``/`` (mounted last, so
that every API route comes first)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent.parent / "web"


def mount(app: FastAPI) -> None:
    if WEB.is_dir():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
