"""The engine's errors.

Two kinds must never be confused (DESIGN.md, habit 2): input that cannot be read at all
(``NotationError``, ``RecordError``) and input that reads fine but breaks a rule here
(``IllegalActionError``, which always cites the rule id of RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, TypeAlias

Param: TypeAlias = str | int | bool
"""A refusal's parameter: a card in notation (``"QC"``), a rank, a seat, a count, a flag."""

NO_PARAMS: Final[Mapping[str, Param]] = MappingProxyType({})


class BurracoError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(BurracoError, ValueError):
    """Text that is not a card, an action, or a value of the expected form."""


class RulesError(BurracoError, ValueError):
    """A ruleset whose parameters are unknown or inconsistent."""


class IllegalActionError(BurracoError):
    """An action that is well formed but not allowed in the current state.

    ``action`` is the action's notation, ``reason`` one sentence without a final period, and
    ``rule`` the RULES.md id (``"R55"``) that forbids it. ``code`` (snake_case, stable: clients
    word the refusal from it in their own language, docs/protocol.md) and ``params`` (cards in
    notation, ranks, numbers) say the same as ``reason`` in a form a program can read.
    """

    def __init__(
        self,
        action: str,
        reason: str,
        rule: str,
        *,
        code: str = "illegal",
        params: Mapping[str, Param] | None = None,
    ) -> None:
        self.action = action
        self.reason = reason
        self.rule = rule
        self.code = code
        self.params: Mapping[str, Param] = MappingProxyType(dict(params or {}))
        super().__init__(f'illegal action "{action}": {reason} ({rule})')

    @property
    def explanation(self) -> str:
        """The reason with its rule id, e.g. ``the closing discard cannot be a wild card (R55)``."""
        return f"{self.reason} ({self.rule})"


class RecordError(BurracoError, ValueError):
    """A game record that cannot be read: bad TOML, a missing or unknown key, a bad deck, ..."""

    def __init__(self, message: str, *, where: str = "") -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)
