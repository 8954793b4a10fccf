"""A client connected to another process, as the table that owns it sees it.

The process holding the client's socket (its *front*) forwards the client's table messages to
the table's owner; the owner makes one ``RemoteConnection`` per (front, connection) and gives it
to its table exactly as a local connection. The table's code is unchanged: it decides what each
seat may see and ``send`` s the encoded message; here that message goes to the front over the
bus, which hands it to the real socket. So a watcher on another process still receives only
what its seat may see, decided once, by the owner (lila-ws splits its socket front from its game
server the same way)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burraco.store import UserInfo

from ..connection import Connection

if TYPE_CHECKING:
    from .bus import Bus


class RemoteConnection(Connection):
    def __init__(
        self, bus: Bus, front: str, conn_id: int, user: UserInfo, *, joins_per_minute: float
    ) -> None:
        super().__init__(user, joins_per_minute=joins_per_minute)
        self.bus = bus
        self.front = front
        self.remote_id = conn_id
        """The connection's id on its front."""

    def send(self, text: str) -> None:
        if self.closed:
            return
        self.bus.send(self.front, {"k": "out", "c": self.remote_id, "t": text})

    def close(self, code: int | None = None) -> None:
        """The owner ends the connection (a logout, the table gone elsewhere): the front
        closes the client's socket, which reconnects if it should."""
        if self.closed:
            return
        self.closed = True
        self.bus.send(self.front, {"k": "close", "c": self.remote_id, "code": code})

    def __repr__(self) -> str:
        return f"<RemoteConnection {self.front}/{self.remote_id} {self.user.name}>"
