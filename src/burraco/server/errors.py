"""What a refusal becomes on the wire: the one place where codes meet numbers.

A :class:`~burraco.errors.ServiceError` raised anywhere below a route answers HTTP with its
code's status and the body ``{error, message, detail?}`` (``detail``: ``{code, params}``, the
precise cause a page renders in its language); on the WebSocket it is an ``error`` message
(``{type: "error", code, message, ref?, rule?, table?}``); a connection refused as a whole is
closed with its code's close code. docs/protocol.md lists the codes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from burraco.engine.errors import RulesError
from burraco.errors import ErrorCode, ServiceError
from burraco.tournament import TournamentSettingsError

C = ErrorCode

_CONFLICT: Final = 409
HTTP_STATUS: Final[Mapping[ErrorCode, int]] = MappingProxyType(
    {
        C.BAD_JSON: 400,
        C.BAD_MESSAGE: 400,
        C.BAD_REQUEST: 422,
        C.UNKNOWN_TYPE: 400,
        C.TOO_LARGE: 413,
        C.TOO_SLOW: 408,
        C.HEADERS_TOO_LARGE: 431,
        C.RATE_LIMITED: 429,
        C.NOT_AUTHENTICATED: 401,
        C.BAD_LOGIN: 401,
        C.BAD_NAME: 400,
        C.BAD_PASSWORD: 400,
        C.NAME_TAKEN: 409,
        C.BUSY: 503,
        C.FORBIDDEN: 403,
        C.NO_SUCH_TABLE: 404,
        C.NO_SUCH_SEAT: _CONFLICT,
        C.SEAT_TAKEN: _CONFLICT,
        C.ALREADY_SEATED: _CONFLICT,
        C.NOT_OPEN: _CONFLICT,
        C.NOT_FINISHED: _CONFLICT,
        C.NO_BOT: _CONFLICT,
        C.NO_SUCH_BOT: 422,
        C.TOO_MANY_TABLES: 429,
        C.TOO_MANY_BOTS: 429,
        C.TOO_MANY_SOCKETS: 429,
        C.NOT_JOINED: _CONFLICT,
        C.NOT_SEATED: _CONFLICT,
        C.NOT_YOUR_SEAT: 403,
        C.NOT_PLAYING: _CONFLICT,
        C.BAD_ACTION: 422,
        C.ILLEGAL_ACTION: 422,
        C.STALE: _CONFLICT,
        C.CHAT_INVALID: 422,
        C.BAD_RULES: 422,
        C.NO_RECORD: 404,
        C.BAD_RECORD: 422,
        C.NO_SUCH_TOURNAMENT: 404,
        C.BAD_TOURNAMENT: 422,
        C.PARTNER_NEEDED: 422,
        C.NO_SUCH_PARTNER: 422,
        C.NO_PAIRS: 422,
        C.NO_INVITATION: _CONFLICT,
        C.ALREADY_REGISTERED: _CONFLICT,
        C.NOT_REGISTERED: _CONFLICT,
        C.NOT_REGISTERING: _CONFLICT,
        C.REGISTRATION_CLOSED: _CONFLICT,
        C.FULL: _CONFLICT,
        C.UNAVAILABLE: 503,
        C.NOT_FOUND: 404,
        C.BAD_INPUT: 422,
        C.CONFLICT: _CONFLICT,
        C.LATE: _CONFLICT,
        C.MAIL_FAILED: 502,
        C.NO_SUCH_PLAYER: 404,
        C.GUEST_NOT_RATED: 403,
        C.BAD_TOKEN: 400,
        C.MAIL_UNAVAILABLE: 503,
        C.BAD_EMAIL: 400,
        C.MUTED: 403,
        C.SUSPENDED: 403,
        C.SAME_CARDS_HIDDEN: 403,
        C.NOT_A_PLAYER: 403,
        C.NO_REVIEW: 404,
        C.TOO_MANY_REVIEWS: 429,
        C.REVIEW_QUEUE_FULL: 503,
        C.TABLE_MOVED: 503,
        C.RECONNECT: 503,
        C.NO_SUCH_ROUTE: 404,
        C.METHOD_NOT_ALLOWED: 405,
        C.SERVER_ERROR: 500,
    }
)
"""The HTTP status of every code (a test checks that no code is missing)."""

CLOSE_CODE: Final[Mapping[ErrorCode, int]] = MappingProxyType(
    {
        # 4000 + the HTTP status, as is usual for application close codes (RFC 6455 7.4.2).
        C.NOT_AUTHENTICATED: 4401,
        C.TOO_MANY_SOCKETS: 4429,
        C.RECONNECT: 4503,
    }
)
"""WebSocket close codes of the refusals that end a connection (docs/protocol.md)."""

_STARLETTE_CODES: Final[Mapping[int, ErrorCode]] = MappingProxyType(
    {404: C.NO_SUCH_ROUTE, 405: C.METHOD_NOT_ALLOWED, 413: C.TOO_LARGE, 429: C.RATE_LIMITED}
)


def http_status(code: ErrorCode) -> int:
    return HTTP_STATUS[code]


def http_body(code: ErrorCode | str, message: str) -> dict[str, Any]:
    return {"error": str(code), "message": message}


def service_body(error: ServiceError) -> dict[str, Any]:
    """A refusal's HTTP body: ``{error, message}`` and ``detail: {code, params}`` if it has one."""
    body = http_body(error.code, error.message)
    detail = error.detail_body()
    if detail is not None:
        body["detail"] = detail
    return body


def http_response(error: ServiceError) -> JSONResponse:
    return JSONResponse(service_body(error), http_status(error.code))


def refusal(code: ErrorCode, message: str) -> JSONResponse:
    """An HTTP refusal answered directly by a route (no exception raised)."""
    return JSONResponse(http_body(code, message), http_status(code))


def ws_message(error: ServiceError, *, table: str | None = None) -> dict[str, Any]:
    """The WebSocket ``error`` message of a refusal."""
    out: dict[str, Any] = {"type": "error", "code": str(error.code), "message": error.message}
    if error.ref is not None:
        out["ref"] = error.ref
    if error.rule is not None:
        out["rule"] = error.rule
    detail = error.detail_body()
    if detail is not None:
        # An illegal action's detail names its rule too: {code, rule, params}.
        out["detail"] = detail | ({"rule": error.rule} if error.rule is not None else {})
    if table is not None:
        out["table"] = table
    return out


def close_code(code: ErrorCode) -> int:
    return CLOSE_CODE[code]


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinity written as text: Python's JSON reader takes
    ``NaN`` and ``Infinity`` in a body, and a refusal that quotes them back must still be JSON
    (issue 19: such a body was a 500)."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


MAX_SCHEMA_PROBLEMS = 20
"""The schema problems a ``bad_request`` refusal lists at most."""
MAX_QUOTED = 200
"""Characters of a name, message or limit a refusal quotes at most."""


def _quoted(value: Any) -> Any:
    """A scalar as a refusal may quote it (bounded); anything else as short text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)[:MAX_QUOTED]


def schema_problems(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """A ``bad_request``'s ``detail``: where each problem is and what it is (``type``, ``loc``,
    ``msg`` and the limits of ``ctx``), never the client's value itself. Quoted back, a value
    nested hundreds deep made the refusal itself fail (a 500 and a 65 KB traceback for a 1 KB
    body, issue 27 M5), and a long one made the answer as long as the request."""
    problems: list[dict[str, Any]] = []
    for problem in errors[:MAX_SCHEMA_PROBLEMS]:
        where = tuple(problem.get("loc", ()))
        out: dict[str, Any] = {
            "type": _quoted(problem.get("type", "invalid")),
            "loc": [part if isinstance(part, int) else _quoted(part) for part in where[:20]],
            "msg": _quoted(problem.get("msg", "invalid")),
        }
        context = problem.get("ctx")
        if isinstance(context, dict):
            out["ctx"] = {str(k)[:MAX_QUOTED]: _quoted(v) for k, v in list(context.items())[:10]}
        problems.append(out)
    return problems


def install(app: FastAPI) -> None:
    """Answer every refusal of the app in the documented shape."""

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, error: ServiceError) -> JSONResponse:
        return http_response(error)

    @app.exception_handler(RulesError)
    async def rules_error(_request: Request, error: RulesError) -> JSONResponse:
        return refusal(C.BAD_RULES, str(error))

    @app.exception_handler(TournamentSettingsError)
    async def tournament_settings_error(
        _request: Request, error: TournamentSettingsError
    ) -> JSONResponse:
        return refusal(C.BAD_TOURNAMENT, error.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = _finite(jsonable_encoder(schema_problems(error.errors())))
        first = errors[0] if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        body = http_body(C.BAD_REQUEST, message) | {"detail": errors}
        return JSONResponse(body, http_status(C.BAD_REQUEST))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Starlette's own refusals (an unknown path, a wrong method, a body it cannot read)
        # in the documented shape too, not as ``{"detail": ...}``.
        code = _STARLETTE_CODES.get(error.status_code, C.BAD_REQUEST)
        body = http_body(code, str(error.detail))
        return JSONResponse(body, error.status_code, headers=error.headers)

    del service_error, rules_error, tournament_settings_error, validation_error, http_error
