"""The club manager's refusals: service errors with the club's codes (burraco.errors)."""

from __future__ import annotations

from burraco.errors import ErrorCode, ServiceError


class ClubError(ServiceError):
    """Bad input or a forbidden change: nothing was changed (the transaction was rolled back).

    Codes: ``not_found`` (404), ``not_authenticated`` (401), ``forbidden`` (403), ``bad_input``
    (422: an unknown player, a result that does not add up, a date outside the season...),
    ``conflict`` (409: already done, or not possible at this point of the evening), ``late``
    (409: a check-in after the window without an officer's override), ``mail_failed`` (502).
    The statuses are decided with every other code's in ``burraco.server.errors``."""


def bad(message: str) -> ClubError:
    return ClubError(ErrorCode.BAD_INPUT, message)


def conflict(message: str) -> ClubError:
    return ClubError(ErrorCode.CONFLICT, message)


def not_found(message: str) -> ClubError:
    return ClubError(ErrorCode.NOT_FOUND, message)
