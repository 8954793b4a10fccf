"""The refusals of the tournament requests."""

from __future__ import annotations

from burraco.errors import ServiceError


class TournamentError(ServiceError):
    """A request about a tournament that is refused (an HTTP error ``{error, message}``; the
    status of each code is in ``server/errors.py``)."""
