"""Outside bots: any program that speaks the line-based JSON protocol of docs/bot-protocol.md.

``ExternalBot`` runs the program as a child process (``shlex.split`` of the command, no shell),
sends it ``hello`` before its first question, a ``decide`` per decision, ``result`` after each
smazzata (when the caller passes it on with ``notify_result``) and ``bye`` at ``close``. It never
waits past the time limit: pipes are non-blocking and every wait goes through ``selectors``.

Whatever the program does, ``choose`` returns a legal action. A move the program loses (it answered
late, answered nonsense or an illegal action, or is no longer running) is played by the documented
default, RULES.md T13 automatic play (``auto_play_choice``), and counted in ``faults`` by kind. A
program that crashed (or broke the protocol beyond repair) is not restarted: every later decision
of that ``ExternalBot`` is the default, counted as ``crashed``.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Final

from burraco.engine import Action, NotationError, Rules, SmazzataScore
from burraco.engine.autoplay import auto_play_choice
from burraco.engine.rules import option_to_toml, parameter_names
from burraco.engine.views import SeatView

PROTOCOL_VERSION: Final = 1
FAULT_KINDS: Final = ("late", "nonsense", "illegal", "crashed")
"""The kinds counted in ``ExternalBot.faults`` (decisions lost to each cause)."""
MAX_LINE: Final = 1 << 20
"""Longest line (bytes) accepted from a program; a longer one is a protocol breach."""
STDERR_TAIL: Final = 20
"""Lines of the program's stderr kept for reports."""


class BotCrashed(Exception):
    """The program is gone (exited, closed its pipes) or was stopped for breaking the protocol."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``hello`` tells the program; a new ``hello`` is sent whenever it changes."""

    rules: Rules
    players: int
    seat: int


def rules_json(rules: Rules) -> dict[str, Any]:
    """Every parameter of ``rules`` as JSON values (the names and values of docs/rules.md)."""
    return {name: option_to_toml(name, getattr(rules, name)) for name in parameter_names()}


def score_json(score: SmazzataScore) -> dict[str, Any]:
    """A smazzata's score sheet as the ``result`` message carries it."""
    lines = []
    for line in score.lines:
        entry: dict[str, Any] = dict(line.as_json())
        entry["burrachi"] = list(line.burrachi)
        lines.append(entry)
    return {
        "ended": score.ended,
        "closed_by": score.closed_by,
        "lines": lines,
        "result": list(score.result),
    }


class ExternalBot:
    """A bot played by an outside program over the protocol of docs/bot-protocol.md.

    ``time_limit`` (seconds) applies to every ``decide``; ``startup_limit`` to the start of the
    program and its answer to ``hello``. ``stderr_path``: a file that receives the program's
    standard error (else only its last lines are kept, in ``stderr_tail``).
    """

    def __init__(
        self,
        command: str,
        *,
        seed: int | None = None,
        time_limit: float = 1.0,
        name: str | None = None,
        startup_limit: float = 10.0,
        close_grace: float = 0.5,
        stderr_path: str | None = None,
    ) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("an outside bot needs a command line")
        if time_limit <= 0:
            raise ValueError("the time limit must be positive")
        self.command = command
        self.seed = seed
        self.time_limit = time_limit
        self.startup_limit = startup_limit
        self.close_grace = close_grace
        self.stderr_path = stderr_path
        self.name = name if name is not None else f"cmd:{os.path.basename(self.argv[-1])}"
        self.program_name: str | None = None
        """The name the program gave in its answer to ``hello``."""
        self.faults: Counter[str] = Counter()
        """Decisions lost to the T13 default, by kind: late, nonsense, illegal, crashed."""
        self.crashes = 0
        """How many times the program was found dead or was stopped for a protocol breach."""
        self.crash_reason: str | None = None
        self.decisions = 0
        self.times: list[float] = []
        """Seconds from each ``decide`` to its answer (the limit for a lost move; 0 when dead)."""
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self.process: subprocess.Popen[bytes] | None = None
        self._setup: Setup | None = None
        self._next_id = 0
        self._buffer = bytearray()
        self._err_buffer = bytearray()
        self._selector: selectors.BaseSelector | None = None
        self._stderr_file: IO[bytes] | None = None
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], ExternalBot] | None = None
        self._out_open = False
        self._dead = False
        self._closed = False

    # ------------------------------------------------------------------------------ Bot

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The program's answer if it is on time and legal, else the T13 default."""
        if not legal:
            raise ValueError("there is no legal action to choose from")
        self.decisions += 1
        fault, action, elapsed = self._ask(view, legal)
        self.times.append(elapsed)
        if action is not None:
            return action
        self.faults[fault] += 1
        return auto_play_choice(view, legal)

    def notify_result(self, score: SmazzataScore | Mapping[str, Any]) -> None:
        """Send ``result`` (a score sheet) to the program; no answer is expected."""
        if self._dead or self._closed or self.process is None:
            return
        payload = score_json(score) if isinstance(score, SmazzataScore) else dict(score)
        try:
            self._send({"type": "result", **payload}, time.monotonic() + max(self.time_limit, 0.5))
        except BotCrashed as crash:
            self._crash(str(crash))

    def close(self) -> None:
        """Send ``bye``, give the program ``close_grace`` seconds to exit, then kill it."""
        if self._closed:
            return
        self._closed = True
        process = self.process
        if process is None:
            return
        if process.poll() is None and not self._dead:
            with contextlib.suppress(BotCrashed):
                self._send({"type": "bye"}, time.monotonic() + self.close_grace)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        deadline = time.monotonic() + self.close_grace
        while process.poll() is None and (left := deadline - time.monotonic()) > 0:
            self._pump(min(0.02, left))
            self._buffer.clear()  # nothing more is asked: what it still says is dropped
        self._stop()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """Whether the program is running and still trusted with decisions."""
        return self.process is not None and not self._dead and self.process.poll() is None

    def report(self) -> dict[str, Any]:
        """Counts for the arena's report."""
        return {
            "name": self.name,
            "program_name": self.program_name,
            "decisions": self.decisions,
            "faults": {kind: self.faults[kind] for kind in FAULT_KINDS},
            "crashes": self.crashes,
            "crash_reason": self.crash_reason,
            "mean_time": sum(self.times) / len(self.times) if self.times else 0.0,
            "max_time": max(self.times, default=0.0),
        }

    # ------------------------------------------------------------------------------ asking

    def _ask(self, view: SeatView, legal: Sequence[Action]) -> tuple[str, Action | None, float]:
        """(fault kind, the program's action or None, seconds taken)."""
        if self._closed:
            raise RuntimeError("the bot was closed")
        if self._dead:
            return "crashed", None, 0.0
        try:
            setup = Setup(view.rules, view.players, view.seat)
            if self.process is None or setup != self._setup:
                self._hello(setup)
            request = self._new_id()
            message = {
                "type": "decide",
                "id": request,
                "time_ms": round(self.time_limit * 1000),
                "view": view.to_json(),
                "legal": [str(a) for a in legal],
            }
            self._pump(0.0)
            start = time.monotonic()
            deadline = start + self.time_limit
            self._send(message, deadline)
            answer = self._answer(request, deadline)
            elapsed = time.monotonic() - start
        except BotCrashed as crash:
            self._crash(str(crash))
            return "crashed", None, 0.0
        if answer is None:
            return "late", None, self.time_limit
        text = answer.get("action")
        if not isinstance(text, str):
            return "nonsense", None, elapsed
        try:
            action = Action.parse(text)
        except NotationError:
            return "nonsense", None, elapsed
        if action not in legal:
            return "illegal", None, elapsed
        return "", action, elapsed

    def _hello(self, setup: Setup) -> None:
        if self.process is None:
            self._start()
        deadline = time.monotonic() + self.startup_limit
        request = self._new_id()
        self._send(
            {
                "type": "hello",
                "id": request,
                "protocol": PROTOCOL_VERSION,
                "rules": {"name": setup.rules.name, "parameters": rules_json(setup.rules)},
                "players": setup.players,
                "seat": setup.seat,
                "seed": self.seed,
                "time_ms": round(self.time_limit * 1000),
            },
            deadline,
        )
        answer = self._answer(request, deadline)
        if answer is None:
            raise BotCrashed(f"no answer to hello within {self.startup_limit} s")
        if answer.get("ready") is not True:
            raise BotCrashed(f"the answer to hello is not ready: {json.dumps(answer)[:200]}")
        name = answer.get("name")
        if isinstance(name, str):
            self.program_name = name
        self._setup = setup

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _answer(self, request: int, deadline: float) -> dict[str, Any] | None:
        """The first answer to ``request`` before ``deadline`` (None: none in time). Answers to
        earlier questions (late ones) are skipped; any other line is returned as nonsense ({})."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                return {}
            if not isinstance(message, dict):
                return {}
            answered = message.get("id")
            if isinstance(answered, int) and not isinstance(answered, bool):
                if answered < request:
                    continue  # a late answer to an earlier question: discarded
                if answered == request:
                    return message
            return {}

    # ------------------------------------------------------------------------------ process

    def _start(self) -> None:
        if self.stderr_path is not None:
            self._stderr_file = open(self.stderr_path, "ab")  # noqa: SIM115 (closed in _stop)
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise BotCrashed(f"cannot start {self.command!r}: {error}") from None
        assert self.process.stdin and self.process.stdout and self.process.stderr
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            os.set_blocking(pipe.fileno(), False)
        self._finalizer = weakref.finalize(self, _abandoned, self.process)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ, "out")
        self._selector.register(self.process.stderr, selectors.EVENT_READ, "err")
        self._out_open = True

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        """Write one line; a program that does not take it before ``deadline`` is stopped (a
        half-written line cannot be taken back)."""
        process = self.process
        if process is None or process.stdin is None or process.stdin.closed:
            raise BotCrashed("the program is not running")
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        fd = process.stdin.fileno()
        writable: selectors.BaseSelector | None = None
        try:
            while True:
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    pass
                except OSError as error:  # BrokenPipeError: the program has exited
                    raise BotCrashed(f"cannot write to the program: {error}") from None
                if not data:
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BotCrashed("the program does not read its input")
                if writable is None:
                    writable = selectors.DefaultSelector()
                    writable.register(fd, selectors.EVENT_WRITE)
                writable.select(min(left, 0.05))
                self._pump(0.0)  # a program blocked on writing may be waiting for us to read
        finally:
            if writable is not None:
                writable.close()

    def _read_line(self, deadline: float) -> str | None:
        """The next line from the program's stdout, or None at ``deadline``."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                raw = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                return raw.decode("utf-8", errors="replace").strip()
            if len(self._buffer) > MAX_LINE:
                raise BotCrashed(f"a line longer than {MAX_LINE} bytes")
            if not self._out_open:
                raise BotCrashed(self._exit_text())
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._pump(left)

    def _pump(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for output from the program and take what came."""
        selector = self._selector
        if selector is None or not selector.get_map():
            time.sleep(timeout)
            return
        for key, _ in selector.select(timeout):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                selector.unregister(key.fileobj)
                if key.data == "out":
                    self._out_open = False
            elif key.data == "out":
                self._buffer += chunk
            else:
                self._stderr(chunk)

    def _stderr(self, chunk: bytes) -> None:
        if self._stderr_file is not None:
            self._stderr_file.write(chunk)
            self._stderr_file.flush()
        self._err_buffer += chunk
        *lines, rest = self._err_buffer.split(b"\n")
        self.stderr_tail.extend(line.decode("utf-8", errors="replace") for line in lines)
        self._err_buffer = bytearray(rest[-MAX_LINE:])

    def _exit_text(self) -> str:
        process = self.process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=0.2)
        if code is None:
            return "the program closed its output"
        return f"the program exited with status {code}"

    def _crash(self, reason: str) -> None:
        if self._dead:
            return
        self._dead = True
        self.crashes += 1
        self.crash_reason = reason
        self._stop()

    def _stop(self) -> None:
        """Kill the program (and what it started) if it still runs; reap it; close the pipes."""
        process = self.process
        if process is not None:
            _reap(process)
            if self._selector is not None:
                self._pump(0.0)  # its last words on stderr
                self._selector.close()
                self._selector = None
            _close_pipes(process)
        if self._finalizer is not None:
            self._finalizer.detach()
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None


def _reap(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: its children too
        except (OSError, AttributeError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5.0)


def _close_pipes(process: subprocess.Popen[bytes]) -> None:
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _abandoned(process: subprocess.Popen[bytes]) -> None:
    """An ExternalBot was dropped without ``close``: do not leave its program running."""
    _reap(process)
    _close_pipes(process)
