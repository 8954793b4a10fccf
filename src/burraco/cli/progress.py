"""A small progress bar for long commands (written to standard error, only on a terminal)."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO


class Progress:
    """``with Progress(total, "games") as bar: ... bar.advance()``; redraws at most 10 times a
    second and prints nothing when standard error is not a terminal (unless ``force``)."""

    def __init__(
        self, total: int, unit: str, *, stream: TextIO | None = None, force: bool = False
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = force or self.stream.isatty()
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0

    def __enter__(self) -> Progress:
        self._draw()
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self._last >= 0.1 or self.done >= self.total:
            self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        self._last = time.perf_counter()
        elapsed = self._last - self.start
        frac = self.done / self.total if self.total else 1.0
        width = 30
        filled = int(width * frac)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "█" * filled + "░" * (width - filled)
        self.stream.write(
            f"\r{bar} {self.done}/{self.total} {self.unit}  {rate:,.0f}/s  eta {eta:5.1f}s "
        )
        self.stream.flush()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
