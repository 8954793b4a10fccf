"""The club manager's one error: a code, a message in words, and the HTTP status it maps to."""

from __future__ import annotations

from typing import ClassVar


class ClubError(Exception):
    """Bad input or a forbidden change: nothing was changed (the transaction was rolled back).

    Codes: ``not_found`` (404), ``not_authenticated`` (401), ``forbidden`` (403), ``bad_input``
    (422: an unknown player, a result that does not add up, a date outside the season...),
    ``conflict`` (409: already done, or not possible at this point of the evening), ``late``
    (409: a check-in after the window without an officer's override)."""

    STATUS: ClassVar[dict[str, int]] = {
        "not_found": 404,
        "not_authenticated": 401,
        "forbidden": 403,
        "bad_input": 422,
        "conflict": 409,
        "late": 409,
        "mail_failed": 502,
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)


def bad(message: str) -> ClubError:
    return ClubError("bad_input", message)


def conflict(message: str) -> ClubError:
    return ClubError("conflict", message)


def not_found(message: str) -> ClubError:
    return ClubError("not_found", message)
