"""The club manager's refusals: service errors with the club's codes (burraco.errors)."""

from __future__ import annotations

from typing import Any

from burraco.errors import ErrorCode, ServiceError


class ClubError(ServiceError):
    """Bad input or a forbidden change: nothing was changed (the transaction was rolled back).

    Codes: ``not_found`` (404), ``not_authenticated`` (401), ``forbidden`` (403), ``bad_input``
    (422: an unknown player, a result that does not add up, a date outside the season...),
    ``conflict`` (409: already done, or not possible at this point of the evening), ``late``
    (409: a check-in after the window without an officer's override), ``mail_failed`` (502).
    The statuses are decided with every other code's in ``burraco.server.errors``.

    The refusals a person can meet from the club's page forms also carry a ``detail`` code with
    its params (``date_outside_season`` with ``{date, start, end}``...): the page says them in its
    language (``club.detail.*`` in the catalogs); ``message`` stays English for programs."""


def bad(message: str, detail: str | None = None, **params: Any) -> ClubError:
    return ClubError(ErrorCode.BAD_INPUT, message, detail=detail, params=params)


def conflict(message: str, detail: str | None = None, **params: Any) -> ClubError:
    return ClubError(ErrorCode.CONFLICT, message, detail=detail, params=params)


def not_found(message: str, detail: str | None = None, **params: Any) -> ClubError:
    return ClubError(ErrorCode.NOT_FOUND, message, detail=detail, params=params)
