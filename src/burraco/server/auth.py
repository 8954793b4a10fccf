"""Accounts: argon2id password hashes (computed off the event loop), sessions, guests."""

from __future__ import annotations

import asyncio
import re
import secrets
import unicodedata
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from burraco.errors import ServiceError
from burraco.store import NameTaken, Store, UserInfo

SESSION_COOKIE: Final = "burraco_session"
NAME_PATTERN: Final = re.compile(r"[\w.\-]{3,24}")
_hasher = PasswordHasher()  # argon2id with the library's recommended parameters


class AuthError(ServiceError):
    """A refused registration, login or session (its HTTP status: ``server/errors.py``)."""


def normalize_name(name: str) -> str:
    """A name in its canonical form: Unicode NFKC (full-width or ligature spellings are the
    plain letters) without surrounding spaces. Names compare by this form, folded to lower case.
    """
    return unicodedata.normalize("NFKC", name).strip()


def name_key(name: str) -> str:
    """What makes two names the same name (and the key of the per-name login limit)."""
    return normalize_name(name).casefold()


def check_name(name: str) -> str:
    name = normalize_name(name)
    if not NAME_PATTERN.fullmatch(name):
        raise AuthError(
            "bad_name", "a name has 3 to 24 letters, digits, dots, dashes or underscores"
        )
    return name


def check_password(password: str) -> None:
    if not 8 <= len(password) <= 128:
        raise AuthError("bad_password", "a password has 8 to 128 characters")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(stored: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


async def register(store: Store, name: str, password: str) -> UserInfo:
    name = check_name(name)
    check_password(password)
    if name.casefold().startswith("ospite-") or name.casefold().startswith("guest-"):
        raise AuthError("bad_name", "names starting with Ospite- or Guest- are for guests")
    try:
        return await store.create_user(name, await hash_password(password))
    except NameTaken:
        raise AuthError("name_taken", f"the name {name!r} is taken") from None


async def login(store: Store, name: str, password: str) -> UserInfo:
    user = await store.user_by_name(normalize_name(name))
    if user is None or user.password_hash is None:
        # Spend the same time as a real check, so that names cannot be probed by timing.
        await verify_password(_DUMMY_HASH, password)
        raise AuthError("bad_login", "wrong name or password")
    if not await verify_password(user.password_hash, password):
        raise AuthError("bad_login", "wrong name or password")
    return user


async def guest(store: Store) -> UserInfo:
    for _ in range(20):
        name = f"Ospite-{secrets.randbelow(100_000):05d}"
        try:
            return await store.create_user(name, None, guest=True)
        except NameTaken:
            continue
    raise AuthError("busy", "could not find a free guest name, try again")


_DUMMY_HASH: Final = _hasher.hash("not a real password")
