"""An import-linter contract: the listed packages import only the standard library.

Registered in pyproject.toml (``contract_types``). import-linter has no built-in way to say
"nothing third-party", so this contract walks the import graph (built with external packages
included) and reports every import of a module that is neither inside the allowed packages nor in
``sys.stdlib_module_names``.
"""

from __future__ import annotations

import sys

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class StdlibOnlyContract(Contract):
    type_name = "stdlib_only"

    source_modules = fields.ListField(subfield=fields.StringField())
    allowed_modules = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        allowed = [str(m) for m in self.allowed_modules]  # type: ignore[attr-defined]
        violations: list[tuple[str, str]] = []
        for source in self.source_modules:  # type: ignore[attr-defined]
            modules = {str(source)} | graph.find_descendants(str(source))
            for module in sorted(modules):
                for imported in sorted(graph.find_modules_directly_imported_by(module)):
                    top = imported.split(".")[0]
                    inside = any(imported == a or imported.startswith(a + ".") for a in allowed)
                    if not inside and top not in sys.stdlib_module_names:
                        violations.append((module, imported))
        return ContractCheck(kept=not violations, metadata={"violations": violations})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module, imported in check.metadata["violations"]:
            output.print_error(f"{module} imports {imported}, which is not the standard library")
            output.new_line()
