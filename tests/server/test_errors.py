"""One vocabulary of refusals (burraco.errors) and one mapping to the wire (server/errors.py)."""

from __future__ import annotations

import pytest

from burraco.club.errors import ClubError
from burraco.engine.errors import IllegalActionError
from burraco.errors import ErrorCode, ServiceError
from burraco.server import errors
from burraco.server.auth import AuthError
from burraco.server.protocol import ProtocolError
from burraco.server.table import TableError
from burraco.server.tournaments import TournamentError


def test_every_code_has_one_http_status() -> None:
    assert set(errors.HTTP_STATUS) == set(ErrorCode)
    assert all(400 <= status < 600 for status in errors.HTTP_STATUS.values())


def test_close_codes_are_application_codes_of_their_status() -> None:
    for code, close in errors.CLOSE_CODE.items():
        assert close == 4000 + errors.http_status(code)


@pytest.mark.parametrize("kind", [ClubError, AuthError, ProtocolError, TableError, TournamentError])
def test_each_area_refuses_with_the_shared_base(kind: type[ServiceError]) -> None:
    error = kind("forbidden", "not yours")
    assert isinstance(error, ServiceError) and error.code is ErrorCode.FORBIDDEN
    response = errors.http_response(error)
    assert response.status_code == 403
    assert response.body == b'{"error":"forbidden","message":"not yours"}'


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no_such_code"):
        ServiceError("no_such_code", "?")


def test_websocket_error_message() -> None:
    error = ProtocolError(ErrorCode.ILLEGAL_ACTION, "no", ref="r", rule="R17")
    assert errors.ws_message(error, table="t1") == {
        "type": "error",
        "code": "illegal_action",
        "message": "no",
        "ref": "r",
        "rule": "R17",
        "table": "t1",
    }


def test_websocket_error_message_with_the_refusal_as_data() -> None:
    """An illegal action's ``detail`` (issue 15): the engine's code, rule id and parameters."""
    illegal = IllegalActionError(
        "0 discard QS", "the line cannot close without a burraco on the table", "R55",
        code="close_needs_burraco", params={"card": "QS"},
    )  # fmt: skip
    error = ProtocolError(
        ErrorCode.ILLEGAL_ACTION, illegal.explanation, rule="R55",
        detail=illegal.code, params=illegal.params,
    )  # fmt: skip
    assert errors.ws_message(error)["detail"] == {
        "code": "close_needs_burraco",
        "rule": "R55",
        "params": {"card": "QS"},
    }
