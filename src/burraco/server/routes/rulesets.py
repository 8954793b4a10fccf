"""The rulesets' parameters (``/api/rulesets``): what the browser's rules page shows for each
preset (card values, bonuses, sizes) comes from the engine's own ``Rules``, never from a copy."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from burraco.engine import find_rules, preset_names
from burraco.engine.rules import parameter_names

from .models import RulesetsOut, answers


def _json(value: Any) -> Any:
    """A parameter as JSON: sets become sorted lists, tuples lists."""
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


async def rulesets() -> dict[str, Any]:
    presets = []
    for name in preset_names():
        rules = find_rules(name)
        parameters = {key: _json(getattr(rules, key)) for key in parameter_names()}
        presets.append({"name": name, "parameters": parameters})
    return {"presets": presets}


def install(app: FastAPI) -> None:
    """Add this area's routes to ``app`` (directly: see the package's doc)."""
    app.add_api_route(
        "/api/rulesets",
        rulesets,
        methods=["GET"],
        tags=["lobby"],
        response_model=None,
        responses=answers(RulesetsOut),
    )
