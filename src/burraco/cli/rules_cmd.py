"""``burraco rules``: list the presets, or show every parameter of one."""

from __future__ import annotations

import argparse

from burraco.engine import find_rules, parameter_names, preset_names
from burraco.engine.rules import option_to_toml


def run(args: argparse.Namespace) -> int:
    if args.preset is None:
        for name in preset_names():
            print(name)
        return 0
    rules = find_rules(args.preset)
    default = find_rules("italian")
    for name in parameter_names():
        value = getattr(rules, name)
        mark = "" if value == getattr(default, name) else "   (differs from italian)"
        print(f"{name} = {option_to_toml(name, value)!r}{mark}")
    return 0
