"""The README's examples run: its "Using the engine" block is a doctest that fails if it breaks."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def example(title: str) -> tuple[str, int]:
    """The first ```pycon block of the README's ``## title`` section, and its first line."""
    text = README.read_text(encoding="utf-8")
    start = text.find(f"\n## {title}\n")
    assert start >= 0, f"README.md has no section {title!r}"
    block = re.compile(r"^```pycon\n(.*?)^```$", re.M | re.S).search(text, start)
    assert block is not None, f"the section {title!r} has no pycon block"
    return block.group(1), text.count("\n", 0, block.start(1))


def test_the_engine_example_runs() -> None:
    code, line = example("Using the engine")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, {}, "README.md: Using the engine", str(README), line)
    assert len(test.examples) >= 8, "the example is a doctest (>>> lines)"
    messages: list[str] = []
    result = doctest.DocTestRunner().run(test, out=messages.append)
    assert result.failed == 0, "".join(messages)
