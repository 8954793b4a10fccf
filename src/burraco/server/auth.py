"""Accounts: argon2id password hashes (computed off the event loop), sessions, guests."""

from __future__ import annotations

import asyncio
import re
import secrets
import unicodedata
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from burraco.errors import ErrorCode, ServiceError
from burraco.store import NameTaken, Store, UserInfo
from burraco.store.names import has_hidden_marks, reads_as_latin, scripts_of

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
            ErrorCode.BAD_NAME, "a name has 3 to 24 letters, digits, dots, dashes or underscores"
        )
    problem = look_alike_problem(name)
    if problem is not None:
        raise AuthError(ErrorCode.BAD_NAME, problem)
    return name


_GUEST_TAIL: Final = re.compile(r"[-_.\s]*\d")
_GUEST_LOOK: Final = str.maketrans({"0": "o", "1": "i", "l": "i", "|": "i", "ı": "i", "5": "s"})
"""Letters and digits that pass for those of "ospite" and "guest" (``Osp1te-1``, ``Gue5t-1``),
applied after folding the case."""


def _plain_latin(char: str) -> bool:
    """A letter of the Latin alphabets people write names in: ASCII, Latin-1 and Latin
    Extended-A (à è é ì ò ù, ç, ñ, ł, š ...); not IPA letters or small capitals (``ɢ``)."""
    code = ord(char)
    return char.isascii() or (0xC0 <= code <= 0x17F and code not in (0xD7, 0xF7))


def look_alike_problem(name: str) -> str | None:
    """Why ``name`` could pass for another name, or None (issue 19, M9). The policy follows
    Unicode TR39's restriction levels: a name is written in one script; a Latin name uses the
    Latin letters of names only; no combining or invisible marks (NFKC has already composed
    every accented letter that exists as one); a name in another script may not be made only
    of letters that look Latin (``Сара``, all Cyrillic, reads as ``Capa``); digits are ASCII;
    and nothing may look like a guest's name (``Ospite_123``, ``0spite-1``). Scripts and
    look-alike letters come from the ``confusable_homoglyphs`` package (Unicode's data)."""
    if has_hidden_marks(name):
        return "a name has no combining or invisible marks: write an accented letter as one"
    if any(c.isdigit() and not c.isascii() for c in name):
        return "the digits of a name are 0 to 9"
    letters = [c for c in name if c.isalpha()]
    scripts = scripts_of(name)
    if len(scripts) > 1:
        return f"a name is written in one alphabet (this one mixes {' and '.join(scripts)})"
    if scripts == ["LATIN"]:
        odd = [c for c in letters if not _plain_latin(c)]
        if odd:
            return f"{odd[0]!r} is not a letter of the Latin alphabet that names are written in"
    elif reads_as_latin(name):
        return "this name could be read as a name in Latin letters; write it in one alphabet"
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    for word in ("ospite", "guest"):
        head, tail = plain[: len(word)], plain[len(word) :]
        if head.casefold().translate(_GUEST_LOOK) == word and _GUEST_TAIL.match(tail):
            return "names like Ospite-123 or Guest-123 are for guests"
    return None


def check_password(password: str) -> None:
    if not 8 <= len(password) <= 128:
        raise AuthError(ErrorCode.BAD_PASSWORD, "a password has 8 to 128 characters")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(stored: str, password: str) -> bool:
    def verify() -> bool:
        try:
            return _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)


def check_new_name(name: str) -> str:
    """A name a new account (a person's or a bot's) may take, in its canonical form."""
    name = check_name(name)
    if name.casefold().startswith("ospite-") or name.casefold().startswith("guest-"):
        raise AuthError(ErrorCode.BAD_NAME, "names starting with Ospite- or Guest- are for guests")
    return name


def name_taken(name: str) -> AuthError:
    """The refusal of a name another account holds, or one that reads like it (the store's
    unique skeleton, ``burraco.store.names``)."""
    return AuthError(
        ErrorCode.NAME_TAKEN,
        f"the name {name!r} is taken, or reads like a name that is (I, l and 1, O, o and 0,"
        " rn and m look alike)",
    )


async def register(store: Store, name: str, password: str) -> UserInfo:
    name = check_new_name(name)
    check_password(password)
    try:
        return await store.create_user(name, await hash_password(password))
    except NameTaken:
        raise name_taken(name) from None


async def login(store: Store, name: str, password: str) -> UserInfo:
    user = await store.user_by_name(normalize_name(name))
    if user is None or user.password_hash is None:
        # Spend the same time as a real check, so that names cannot be probed by timing.
        await verify_password(_DUMMY_HASH, password)
        raise AuthError(ErrorCode.BAD_LOGIN, "wrong name or password")
    if not await verify_password(user.password_hash, password):
        raise AuthError(ErrorCode.BAD_LOGIN, "wrong name or password")
    return user


async def guest(store: Store) -> UserInfo:
    for _ in range(20):
        name = f"Ospite-{secrets.randbelow(100_000):05d}"
        try:
            return await store.create_user(name, None, guest=True)
        except NameTaken:
            continue
    raise AuthError(ErrorCode.BUSY, "could not find a free guest name, try again")


_DUMMY_HASH: Final = _hasher.hash("not a real password")
