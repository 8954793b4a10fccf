"""Fixtures of the cluster tests.

``make_cluster(**options)`` gives the test a ``harness.Cluster`` (not started yet) on a fresh
PostgreSQL database of its own; ``proxy`` a ``harness.Proxy`` alone (HAProxy in front of the
test's own stand-ins). At the end of the test every process is stopped (SIGTERM, then SIGKILL
after the drain's bound), the cluster's Redis keys are deleted and its database dropped. When the
test fails, the end of each process's log and of HAProxy's is attached to its report; and a test
passes only if no server process logged a traceback.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.store import postgres

from .harness import Cluster, Proxy


class Logged(Protocol):
    def logs(self) -> list[tuple[str, str]]: ...


SHOWN = pytest.StashKey[list[Logged]]()
"""What the test started, whose logs its report shows when it fails."""


class MakeCluster(Protocol):
    def __call__(self, **options: Any) -> Cluster: ...


@pytest.fixture
def make_cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeCluster]:
    shown = request.node.stash.setdefault(SHOWN, [])
    made: list[Cluster] = []
    with postgres.temporary_database("burraco_cluster") as url:

        def make(**options: Any) -> Cluster:
            cluster = Cluster(tmp_path / f"cluster{len(made)}", url, **options)
            made.append(cluster)
            shown.append(cluster)
            return cluster

        try:
            yield make
        finally:
            for cluster in made:
                cluster.close()
            for cluster in made:
                if cluster.nodes:
                    asyncio.run(cluster.redis_flush())
    for cluster in made:
        for node in cluster.nodes:
            assert "Traceback" not in node.log(), f"{node.name} logged an error:\n{node.log()}"


@pytest.fixture
def proxy(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Proxy]:
    started = Proxy(tmp_path / "haproxy")
    request.node.stash.setdefault(SHOWN, []).append(started)
    try:
        yield started
    finally:
        started.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:
        for logged in item.stash.get(SHOWN, []):
            report.sections.extend(logged.logs())
    return report
