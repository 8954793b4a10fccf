"""The optional parts of the install (pyproject's extras) and the sentence that asks for one.

``pip install burraco`` is the engine, the bots, the tournament logic and the offline commands,
on the standard library alone. The server, the club manager and ``burraco db`` need the
``server`` extra, a PostgreSQL database the ``postgres`` extra, the PNG charts the ``charts``
extra. A command that needs a missing one stops before it starts, with one sentence naming it,
instead of a traceback from deep inside an import. This module imports nothing but the standard
library, and looks the packages up without importing them.
"""

from __future__ import annotations

import importlib.util

EXTRAS: dict[str, tuple[tuple[str, str], ...]] = {
    # (distribution in pyproject's extra, the top-level module it installs)
    "server": (
        ("fastapi", "fastapi"),
        ("uvicorn", "uvicorn"),
        ("sqlalchemy", "sqlalchemy"),
        ("aiosqlite", "aiosqlite"),
        ("alembic", "alembic"),
        ("argon2-cffi", "argon2"),
        ("orjson", "orjson"),
        ("confusable-homoglyphs", "confusable_homoglyphs"),
        ("openskill", "openskill"),
        ("aiosmtplib", "aiosmtplib"),
        ("redis", "redis"),
        ("websockets", "websockets"),
    ),
    "charts": (("matplotlib", "matplotlib"),),
    "postgres": (("asyncpg", "asyncpg"),),
}

# Installed by the server extra's packages and imported by the server itself.
_ALSO_FROM = {"starlette": "server", "pydantic": "server"}


class MissingExtra(Exception):
    """A command needs an extra that is not installed; the message is the whole sentence."""


def installed(module: str) -> bool:
    """Whether the top-level ``module`` can be imported (looked up, not imported)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a finder that refuses the name says the same as a missing package
        return False


def require(extra: str, needed_by: str, hint: str = "") -> None:
    """Raise MissingExtra unless every package of ``extra`` is installed."""
    if not all(installed(module) for _, module in EXTRAS[extra]):
        raise MissingExtra(sentence(extra, needed_by, hint))


def sentence(extra: str, needed_by: str, hint: str = "") -> str:
    return f"{needed_by} needs the {extra} extra: pip install 'burraco[{extra}]'{hint}"


def extra_providing(module: str | None) -> str | None:
    """The extra that installs ``module`` (a dotted name), or None for any other module."""
    top = (module or "").partition(".")[0]
    for extra, packages in EXTRAS.items():
        if any(top == name for _, name in packages):
            return extra
    return _ALSO_FROM.get(top)


def is_postgres(url: str | None) -> bool:
    return url is not None and url.startswith(("postgresql", "postgres:"))
