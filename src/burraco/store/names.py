"""What a name looks like: the key under which two names that a reader cannot tell apart are
one name (issue 19, M9).

Names are already refused when they mix scripts or use look-alike letters of another script
(``server/auth.py``); what is left are the look-alikes inside the letters a name may use. They
come from Unicode's confusables (UTS #39, as the ``confusable-homoglyphs`` data lists them for
ASCII): ``I``, ``1`` and ``|`` look like ``l``; ``0`` like ``O`` (and like ``o`` among small
letters); ``rn`` like ``m``; and a few Latin letters like ASCII ones (dotless ``ı`` like
``i``, ``æ`` like ``ae``, ...). The
skeleton replaces them by one letter each, so ``GiuIia12345`` (capital i) and ``Giulia12345``
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
