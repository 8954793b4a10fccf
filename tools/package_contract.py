"""An import-linter contract: every package of the project is in the import graph, as listed.

Registered in pyproject.toml (``contract_types``). The other contracts only see what the graph
holds, and grimp leaves out a folder without ``__init__.py`` inside a package: such a folder's
modules would be checked by no contract at all (``burraco.server`` and ``burraco.club`` were,
until they had one), and an optional layer would hide that it is missing. This contract fails
when a folder under the root holds Python files but no ``__init__.py`` (unless ignored), or
when the root's subpackages in the graph are not exactly the listed ones: a new package must be
added here, and so to the layers contract next to it in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class EveryPackageContract(Contract):
    type_name = "every_package"

    root = fields.StringField()
    packages = fields.ListField(subfield=fields.StringField())
    ignore_directories = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        # The fields are parsed values at run time (import-linter's own contracts do the same).
        root = str(self.root)
        listed = {str(p) for p in self.packages}  # type: ignore[attr-defined]
        ignored = {str(d) for d in getattr(self, "ignore_directories", None) or ()}
        in_graph = {m for m in graph.find_children(root) if graph.find_children(m)}
        problems = [f"{p} is listed but not in the graph" for p in sorted(listed - in_graph)]
        problems += [f"{p} is in the graph but not listed" for p in sorted(in_graph - listed)]
        problems += [
            f"{root}/{folder} holds Python files but no __init__.py: no contract sees them"
            for folder in _folders_without_init(root)
            if folder not in ignored
        ]
        return ContractCheck(kept=not problems, metadata={"problems": problems})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for problem in check.metadata["problems"]:
            output.print_error(problem)
            output.new_line()


def _folders_without_init(root: str) -> list[str]:
    spec = importlib.util.find_spec(root)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"{root} is not an importable package")
    top = Path(next(iter(spec.submodule_search_locations)))
    folders = {path.parent for path in top.rglob("*.py")}
    return sorted(
        folder.relative_to(top).as_posix()
        for folder in folders
        if not (folder / "__init__.py").exists()
    )
