"""HTTP requests run in the process that runs their table (docs/cluster.md).

A request about a table another live process runs (``/api/tables/{id}/...``), or one that
creates a table the cluster places elsewhere, is sent whole over the bus to that process, run
there through the same application, and its answer sent back as it came. The client cannot tell:
cookies, status, body and headers are the owner's. A forwarded request is marked in its ASGI
scope (never by a header a client could send), so it is never forwarded again; if the table
moved meanwhile it is answered ``table_moved`` and forwarded once more to the new owner.
"""

from __future__ import annotations

import base64
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from burraco.errors import ErrorCode

from ..errors import http_body, http_status
from ..protocol import encode


class ForwardToOwner:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("burraco.forwarded"):
            await self.app(scope, receive, send)
            return
        hub = getattr(scope["app"].state, "hub", None)
        cluster = None if hub is None else hub.cluster
        if cluster is None:
            await self.app(scope, receive, send)
            return
        target = await cluster.target_of(scope["method"], scope["path"])
        if target is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        answer = await cluster.forward_http(target, scope, body)
        if _moved(answer):  # it moved while on its way: once more, to wherever it is now
            target = await cluster.target_of(scope["method"], scope["path"])
            if target is None:
                await self.app(scope, _replay(body), send)
                return
            answer = await cluster.forward_http(target, scope, body)
        if answer is None:
            code = ErrorCode.TABLE_MOVED
            data = encode(http_body(code, "the server process running it did not answer")).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": http_status(code),
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": data})
            return
        await send(
            {
                "type": "http.response.start",
                "status": int(answer["s"]),
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["h"]],
            }
        )
        await send({"type": "http.response.body", "body": base64.b64decode(answer["b"])})


def _moved(answer: dict[str, Any] | None) -> bool:
    if answer is None or int(answer["s"]) != http_status(ErrorCode.TABLE_MOVED):
        return False
    return f'"error":"{ErrorCode.TABLE_MOVED}"'.encode() in base64.b64decode(answer["b"]).replace(
        b" ", b""
    )


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive
