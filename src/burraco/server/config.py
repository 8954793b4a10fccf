"""Server settings (command-line options of ``burraco serve`` end up here)."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

MESSAGES_PER_SECOND: Final = 20.0
"""A person's WebSocket messages a second, per socket (``ServerConfig.messages_per_second``)."""
MESSAGE_BURST_SECONDS: Final = 3.0
"""A person's socket may send this many seconds' worth of messages at once."""
BOT_MESSAGES_PER_SECOND: Final = 10.0
"""A bot account's WebSocket messages a second, over all its sockets together
(``ServerConfig.bot_messages_per_second``): the limit ``burraco bot-connect`` paces itself
under (server/botclient.py)."""
BOT_BURST_SECONDS: Final = 4.0
"""A bot account may send this many seconds' worth of messages at once (bursts of 40)."""


def default_data_dir() -> Path:
    return Path(os.environ.get("BURRACO_DATA", "data"))


@dataclass(frozen=True, kw_only=True)
class ServerConfig:
    database_url: str | None = None
    """SQLAlchemy URL; None: an embedded SQLite database in ``data_dir``."""
    data_dir: Path = field(default_factory=default_data_dir)
    secure_cookies: bool = False
    """Send the session cookie with ``Secure`` (behind HTTPS)."""
    disconnect_grace: float = 60.0
    """Seconds a player may be away before a bot plays his seat."""
    presence_quiet_seconds: float = 2.0
    """A seated player's departure is told to the table once it has lasted this long (a reload
    is not news; join/leave toggling is bounded); the away deadline runs from the departure."""
    seed_reveal_seconds: float = 1.5
    """How long a deal waits for the seeds of the connected players who committed to one
    (docs/protocol.md, "Fair deals"); a seed revealed later is left out of the deck."""
    substitute_bot: str = "heuristic"
    """The bot level that plays for an absent player."""
    bot_delay: float = 0.8
    """Seconds a bot waits before playing, so that people can follow."""
    restart_grace: float = 20.0
    """Seconds added to every clock when a table resumes after a restart (as lichess does)."""
    lag_allowance: float = 0.5
    """Seconds of network lag credited back per move, at most (T9 compensation is separate)."""
    chats_per_minute_per_account: float = 20.0
    """Chat lines one account may send, over all its sockets and tables (bursts of 5, or of
    three seconds' worth when that is more)."""
    chats_per_minute_per_table: float = 60.0
    """Chat lines one table takes from everybody (bursts of 10, or three seconds' worth)."""
    joins_per_minute: float = 60.0
    """Joins (each answered with a snapshot or a resend) per connection (bursts of 10, or
    three seconds' worth)."""
    joins_per_minute_per_account: float = 120.0
    """Joins per account over all its sockets (bursts of 30): 16 sockets must not draw 16
    connections' worth of snapshots (issue 19, M5)."""
    invitations_per_minute_per_account: float = 10.0
    """Invitations and challenges one account may send, to anybody (bursts of 5): each reaches
    the invitee's every open page (issue 19: 200 in 4 s reached one player's socket)."""
    messages_per_second: float = MESSAGES_PER_SECOND
    """Per connection, sustained; bursts of ``MESSAGE_BURST_SECONDS``' worth."""
    login_attempts_per_minute: float = 10.0
    process_id: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    bot_workers: int = 2
    allowed_origin_hosts: tuple[str, ...] = ()
    """Host names (with the port if not the default) that pages may open cookie-authenticated
    WebSockets from besides the request's own ``Host``: a proxy that rewrites ``Host`` lists the
    public name here. ``X-Forwarded-Host`` is never trusted."""
    send_deadline_seconds: float = 30.0
    """A message the client has not taken in this long (its socket's buffers full: a client
    that does not read) drops the connection, and its seat counts as away (issue 19, M7)."""
    max_sockets_per_user: int = 16
    """WebSockets one account may hold open at once (tabs, devices); more are closed with 4429."""
    max_open_tables_per_user: int = 10
    """Tables one account may have created that still wait for players (HTTP 429 beyond)."""
    max_live_tables_per_user: int = 20
    """Tables one account may have created that wait or are in play (HTTP 429 beyond)."""
    max_bot_tables_per_user: int = 3
    """Tables one account may have created, waiting or in play, where only bots sit."""
    max_tournament_bots: int = 16
    """Bots an organiser may enter in one tournament (a Sit&Go of bots is bounded by it)."""
    max_organiser_bots: int = 32
    """Bots an organiser may have entered over all his tournaments not finished (so that many
    Sit&Gos of bots do not add up to hundreds of bot tables)."""
    max_tournaments_per_user: int = 10
    """Tournaments one account may organise that are still registering or being played."""
    bot_accounts_per_owner: int = 3
    """Bot accounts one person may register (docs/accounts.md, "Bot accounts")."""
    bot_messages_per_second: float = BOT_MESSAGES_PER_SECOND
    """A bot account's WebSocket messages, over all its sockets, sustained (bursts of
    ``BOT_BURST_SECONDS``' worth); beyond that ``rate_limited``. A person's limit is per socket
    instead."""
    bot_max_sockets: int = 4
    """WebSockets one bot account may hold open at once."""
    bot_max_tables: int = 4
    """Tables not finished one bot account may sit at at once (``too_many_tables`` beyond)."""
    bot_silence_seconds: float = 60.0
    """At a table without a turn timer, a bot account whose socket is open but which has not
    played for this long at its turn is away from then, as if it had left (the away deadline,
    then its substitute or its line's forfeit: issue 27, H1); 0: never. The connector plays
    within its program's limit (1 s by default) or sends T13's default at once."""
    unjoined_table_seconds: float = 300.0
    """A started table that none of its seated people has ever joined (opened) is ended after
    this long, with no winner; 0: never."""
    deserted_match_seconds: float = 900.0
    """A casual lobby match that none of its seated people has been at for this long ends with
    no winner (nobody plays it for them: ``table/timers.py``); 0: never."""
    abandoned_table_seconds: float = 1800.0
    """An open table with no person seated and nobody watching at two checks this far apart is
    cancelled; 0: never."""
    finished_table_seconds: float = 600.0
    """Seconds a finished table nobody watches stays in memory (it is loaded again on demand);
    0: kept until the server stops."""
    gc_young_seconds: float = 0.1
    """Seconds between two young collections, each followed by a freeze of the survivors
    (``collector.py``); 0: CPython's automatic collections only, after a freeze at start-up."""
    gc_sweep_check_seconds: float = 300.0
    """Seconds between two counts of the frozen objects, which decide a full sweep."""
    """Worker processes for the search bots (cheap bots run in threads)."""
    review_workers: int = 1
    """Worker processes for the bot's reviews (``reviews.py``); 0: a thread (tests)."""
    review_queue: int = 20
    """Reviews waiting in this process's queue at most; more are refused (503)."""
    review_seconds: float = 0.4
    """A review's budget per decision (``burraco.bots.review``: spent as playouts; its
    ``DEFAULT_SECONDS``, as ``burraco review``)."""
    reviews_per_day: int = 10
    """Reviews one account may ask in 24 hours (one already done is answered, not counted)."""
    reviews_pending_per_user: int = 1
    """Reviews one account may have queued or running at once."""
    smtp_host: str | None = None
    """The SMTP server account mails go through (verification, password reset, standings);
    None: no mail, and the features that need it say so."""
    smtp_port: int = 25
    smtp_starttls: bool = False
    smtp_username: str | None = None
    smtp_password: str | None = None
    mail_from: str = "Burraco <burraco@localhost>"
    public_url: str | None = None
    """The address people reach the site at, for the links in mails (None: the request's)."""
    redis_url: str | None = None
    """Redis of a cluster of server processes (docs/cluster.md); None: this process alone."""
    node_name: str | None = None
    """This process's name in its cluster (``--node``; default: the host name and port)."""
    cluster_name: str = "burraco"
    """Prefix of the cluster's Redis keys and channels (clusters sharing one Redis)."""
    node_address: str | None = None
    """Where this process listens (shown to operators)."""
    lease_seconds: float = 4.0
    """A process silent this long is dead: the others take its tables over."""
    test_seed: int | None = None
    """FOR TESTS ONLY: deal from ``random.Random(test_seed)`` instead of the CSPRNG
    (``fairness.predictable_source``, one per server); predictable deals, never for a real
    server."""

    def database(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'burraco.db').resolve()}"
