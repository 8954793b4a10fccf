"""How deep the suite's randomised and long tests go: one setting, ``BURRACO_TEST_DEPTH``.

* ``quick`` (the default; ``make test``): every preset, player count, invariant and route is
  still exercised, with fewer seeds, examples and kills each.
* ``deep`` (``make test-deep``): the numbers the suite had before it had a depth.
* ``soak`` (``make soak``): ``deep``, and the long failure scenarios (tests/cluster) at their
  long form, which reports its figures for bench/README.md.

A test reads its numbers with ``by_depth(quick=..., deep=...)`` (and ``soak=...`` where the long
form differs from ``deep``). Hypothesis tests without ``max_examples`` of their own follow the
profile tests/conftest.py loads for the depth; a test's own ``@settings(max_examples=N)``
overrides any profile, so those read the depth too.
"""

from __future__ import annotations

import os
from typing import Final, Literal, TypeVar, cast

T = TypeVar("T")

Depth = Literal["quick", "deep", "soak"]
DEPTHS: Final = ("quick", "deep", "soak")
VARIABLE: Final = "BURRACO_TEST_DEPTH"


def read_depth(environ: dict[str, str] | os._Environ[str] = os.environ) -> Depth:
    """The depth the environment asks for; an unknown name is an error, not a silent default."""
    value = environ.get(VARIABLE, "").strip().lower() or "quick"
    if value not in DEPTHS:
        raise RuntimeError(f"{VARIABLE}={value!r}: expected one of {', '.join(DEPTHS)}")
    return cast(Depth, value)


DEPTH: Final[Depth] = read_depth()


def by_depth(*, quick: T, deep: T, soak: T | None = None) -> T:
    """The value for this run's depth (``soak`` falls back to ``deep``)."""
    if DEPTH == "quick":
        return quick
    if DEPTH == "soak" and soak is not None:
        return soak
    return deep


QUICK_SHARE: Final = 4
"""At the quick depth a Hypothesis test runs a quarter of its deep examples..."""
QUICK_MIN: Final = 10
"""... and at least this many."""


def examples(deep: int, *, quick: int | None = None) -> int:
    """``max_examples`` for a Hypothesis test whose deep number is ``deep``: by default a quarter
    of it at the quick depth (at least ``QUICK_MIN``), or ``quick`` when the test says."""
    if quick is None:
        quick = min(deep, max(QUICK_MIN, deep // QUICK_SHARE))
    return by_depth(quick=quick, deep=deep)
