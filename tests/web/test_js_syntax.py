"""Every browser module parses (``node --check``, as an ES module): one syntax error stops the
whole page, and this says which file and line in a second instead of a browser test's timeout.
Node.js is already needed here (npm installs axe-core for these tests)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "burraco" / "web"
MODULES = sorted([*(WEB / "js").glob("*.js"), WEB / "sw.js"])


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_the_module_parses(module: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node is missing (apt-get install -y nodejs npm)"
    copy = tmp_path / f"{module.stem}.mjs"  # .mjs: checked as an ES module
    copy.write_text(module.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run(
        [node, "--check", str(copy)], check=False, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, f"{module.name}: {done.stderr}"
