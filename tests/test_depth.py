"""The suite's own settings: the depth (tests/depth.py) and the run's order (tests/conftest.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from tests import conftest
from tests.depth import examples, read_depth


def test_the_depth_is_quick_unless_asked() -> None:
    assert read_depth({}) == "quick"
    assert read_depth({"BURRACO_TEST_DEPTH": ""}) == "quick"
    assert read_depth({"BURRACO_TEST_DEPTH": " Deep "}) == "deep"
    assert read_depth({"BURRACO_TEST_DEPTH": "soak"}) == "soak"
    with pytest.raises(RuntimeError, match="BURRACO_TEST_DEPTH='deeper'"):
        read_depth({"BURRACO_TEST_DEPTH": "deeper"})


def test_examples_never_exceed_the_deep_number() -> None:
    for deep in (1, 10, 30, 60, 100, 300):
        assert 1 <= examples(deep) <= deep


def items(spec: dict[str, int]) -> list[pytest.Item]:
    made = [
        SimpleNamespace(nodeid=f"{name}::test_{i}") for name, n in spec.items() for i in range(n)
    ]
    return cast(list[pytest.Item], made)


def files(order: list[pytest.Item]) -> list[str]:
    return [item.nodeid.split("::")[0] for item in order]


def test_the_slow_files_start_each_workers_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest, "SLOW", {"slow1": 100.0, "slow2": 90.0, "slow3": 20.0})
    collected = items({"a": 6, "slow3": 2, "b": 4, "slow1": 1, "slow2": 3, "c": 4})
    alone = conftest.ordered(list(collected), workers=1)
    assert files(alone)[:6] == ["slow1", "slow2", "slow2", "slow2", "slow3", "slow3"]
    assert sorted(i.nodeid for i in alone) == sorted(i.nodeid for i in collected)

    two = conftest.ordered(list(collected), workers=2)
    assert sorted(i.nodeid for i in two) == sorted(i.nodeid for i in collected)
    assert conftest._shares(len(two), 2) == [10, 10]
    # The longest goes to the first share, the next to the other, the third to the lighter one
    # (90 s against 100 s): the second share begins with slow2 then slow3.
    assert files(two)[:2] == ["slow1", "a"]
    assert files(two)[10:15] == ["slow2"] * 3 + ["slow3"] * 2
    # A file's tests stay together and in their order; the rest keep the collection's order.
    assert [i.nodeid for i in two if i.nodeid.startswith("a::")] == [
        f"a::test_{i}" for i in range(6)
    ]
    rest = [f for f in files(two) if not f.startswith("slow")]
    assert rest == ["a"] * 6 + ["b"] * 4 + ["c"] * 4
    assert conftest.ordered(list(collected), workers=2) == two, "the same for every worker"
