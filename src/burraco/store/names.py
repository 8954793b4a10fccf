"""What a name looks like (issue 19, M9): the checks that refuse a name (an account's, a
club's) that could pass for another, and the key under which two names a reader cannot tell
apart are one name.

A name that hides marks, mixes scripts or is written in letters of another script that look
Latin is refused (``has_hidden_marks``, ``scripts_of``, ``reads_as_latin``; the policy for
accounts is ``server/auth.py``'s, for clubs ``club/clubs.py``'s). What is left are the
look-alikes inside the letters a name may use. They come from Unicode's confusables (UTS #39,
as the ``confusable-homoglyphs`` data lists them for ASCII): ``I``, ``1`` and ``|`` look like
``l``; ``0`` like ``O`` (and like ``o`` among small letters); ``rn`` like ``m``; and a few Latin
letters like ASCII ones (dotless ``ı`` like ``i``, ``æ`` like ``ae``, ...). The skeleton
replaces them by one letter each, so ``GiuIia12345`` (capital i) and ``Giulia12345``
have the same skeleton, and so have ``Arnold`` and ``Amold``. As in UTS #39 the skeleton keeps
the case (``Ilaria`` reads as ``llaria``, not as ``Llaria``); names differing only in case are
one name already (``users.name_key``). It is stored with the account (``users.name_skeleton``,
unique), so a second name reading like a taken one is taken."""

from __future__ import annotations

import unicodedata
from typing import Final

_LOOK_ALIKES: Final = str.maketrans(
    {
        "I": "l",
        "1": "l",
        "|": "l",
        "0": "o",  # a zero reads as an O in capitals and as an o among small letters
        "O": "o",
        # The Latin-1 and Latin Extended-A letters a name may use whose prototype in Unicode's
        # confusables is ASCII (the black-box re-test took "Gıulia" next to "Giulia").
        "ı": "i",
        "ſ": "f",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "Ĳ": "lJ",
        "ĳ": "ij",
    }
)


def skeleton(name: str) -> str:
    """The key of everything that reads as ``name``."""
    text = unicodedata.normalize("NFKC", name).strip()
    return text.translate(_LOOK_ALIKES).replace("rn", "m")


INVISIBLE: Final = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u2060\ufeff"
)
"""Characters that show nothing (or nearly) and are not spaces: a name with one is another
string that reads the same."""


def has_hidden_marks(text: str) -> bool:
    """Whether ``text`` holds a mark that changes it without showing: a combining mark that
    NFKC left uncomposed, a format character, an invisible letter."""
    return any(unicodedata.category(c) in ("Mn", "Me", "Cf") or c in INVISIBLE for c in text)


def scripts_of(text: str) -> list[str]:
    """The scripts of ``text``'s letters (Unicode's data, from ``confusable-homoglyphs``)."""
    from confusable_homoglyphs import categories  # type: ignore[import-untyped]

    return sorted({categories.alias(c) for c in text if c.isalpha()})


def reads_as_latin(text: str) -> bool:
    """Whether ``text``, written in another script, is made only of letters that look Latin
    (``Сара``, all Cyrillic, reads as ``Capa``)."""
    from confusable_homoglyphs import confusables

    letters = {c for c in text if c.isalpha()}
    if not letters or scripts_of(text) == ["LATIN"]:
        return False
    found = confusables.is_confusable(text, preferred_aliases=["latin"], greedy=True) or []
    return letters <= {entry["character"] for entry in found}


def club_name_key(name: str) -> str:
    """What makes two club names one (a club's name is free text with spaces)."""
    return skeleton(name).casefold()
