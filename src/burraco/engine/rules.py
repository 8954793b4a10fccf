"""Rulesets: frozen, keyword-only, validated parameter sets with named presets.

Logic reads these parameters, never the preset's name (DESIGN.md, habit 3). Every [ENG] choice of
RULES.md is a parameter here with its documented default. ``docs/rules.md`` lists them all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .cards import RANK_NAMES
from .errors import RulesError

UnplayedPozzettoPolicy = Literal["hand_cards", "penalty"]

ALL_SET_RANKS: Final = frozenset({1, *range(3, 14)})
"""Sets of any rank except the two (R26)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The parameters of one ruleset. Build with ``find_rules(name, **overrides)``."""

    name: str = "italian"
    """Name of the preset these rules were derived from (informational only)."""

    # -- table and deck (R1, R2, R8-R12, 3.4, 3.5) --
    players: int = 2
    jokers: int = 4
    hand_size: int = 11
    pozzetto_sizes: tuple[int, ...] = (11, 11)
    """Pozzetti for 2 and 4 players, in the order they are taken (R10, R12)."""
    three_player_pozzetto_sizes: tuple[int, ...] = (18, 11)
    """3 players before the switch: the solo takes the first, the pair the second (3.5)."""
    three_player_late_pozzetto_sizes: tuple[int, ...] = (11, 11, 11)
    """3 players after the switch: everyone plays for himself (3.5)."""
    three_player_switch_score: int | None = 1000
    """A cumulative total that switches a 3-player match to three pozzetti (None: never)."""
    three_player_late_target: int | None = None
    """Target score once a 3-player match has switched (W19 mentions 1505); None: target_score."""
    initial_discard: bool = True
    """Turn one card face up as the initial discard pile (R9; not in Burraco Reale, 3.2)."""

    # -- card values (R59) --
    joker_value: int = 30
    two_value: int = 20
    ace_value: int = 15
    high_value: int = 10
    """8, 9, 10, J, Q, K."""
    low_value: int = 5
    """3 to 7."""

    # -- melds (R21-R38) --
    set_ranks: frozenset[int] = ALL_SET_RANKS
    """Ranks that may form a set (R26); empty: no sets (Burraco Reale); {1, 3}: Internazionale."""
    max_natural_aces_per_run: int = 1
    """R31; 2 in Burraco Reale, where the 14-card A..K..A run exists."""

    # -- burraco (R40-R42, 3.2, 3.3) --
    burraco_min_length: int = 7
    bonus_clean: int = 200
    bonus_dirty: int = 100
    bonus_semiclean: int | None = None
    """Semi-clean burraco (semipulito / semipura, 3.3); None: no such type."""
    bonus_nobile: int | None = None
    """Clean A-low..K run (Burraco Reale, 3.2); None: no such type."""
    bonus_reale: int | None = None
    """Clean A..K..A run of 14 naturals (Burraco Reale, 3.2); None: no such type."""
    nobile_accepts_2_to_A: bool = False
    """C26: whether the 13-card run 2..A-high also counts as Nobile."""

    # -- pozzetto and closing (R43-R57) --
    closing_requires_clean: bool = False
    """R55 / 3.2 / 3.7: a clean burraco (not just any) is needed to close."""
    closing_bonus: int = 100
    no_pozzetto_penalty: int = 100
    closing_discard_may_be_wild: bool = False
    pozzetto_discard_may_be_wild: bool = True
    """R48: the discard that empties the hand for a pozzetto con scarto may be a wild."""
    unplayed_pozzetto_policy: UnplayedPozzettoPolicy = "hand_cards"
    """R50: ``hand_cards`` (FIBur) or ``penalty`` (Burraco Reale, seed 000)."""
    reveal_pozzetto_immediately: bool = False
    """R48 [ENG]: show a pozzetto taken con scarto to its owner at once, not at his next turn."""

    # -- turn (R14-R20, 3.7) --
    lock_identical_copy: bool = True
    """R17 [ENG]: the twin of a single picked-up card is locked too."""
    pickup_requires_meld: bool = False
    """3.7 (Internazionale): a pick-up must be followed by a meld action before the discard."""

    # -- end of the smazzata (R57, R58) --
    stock_end_threshold: int = 2
    stall_limit: int = 40
    """R58: consecutive turns with no draw and no meld that end the smazzata; 0 disables."""

    # -- match (R63, 3.6) --
    target_score: int | None = None
    """3.6: play smazzate until a line reaches this total; None: no target."""
    smazzate: int | None = None
    """R63: number of smazzate in a round; None: not fixed (free play, or a target score)."""

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived values --

    @property
    def deck_size(self) -> int:
        return 104 + self.jokers

    def card_value(self, card: int) -> int:
        """Points of a card (R59); a wild scores its own value."""
        if card == 52:
            return self.joker_value
        rank = card % 13 + 1
        if rank == 1:
            return self.ace_value
        if rank == 2:
            return self.two_value
        return self.high_value if rank >= 8 else self.low_value

    def replace(self, **changes: Any) -> Rules:
        """A copy with some parameters changed (validated)."""
        unknown = sorted(set(changes) - set(parameter_names()))
        if unknown:
            raise RulesError(f"unknown ruleset parameter(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)


def parameter_names() -> tuple[str, ...]:
    """Every parameter that ``[options]`` of a record or ``find_rules`` may set."""
    return tuple(f.name for f in dataclasses.fields(Rules) if f.init and f.name != "name")


MAX_POINTS: Final = 10_000
"""Bonuses and penalties: at most this many points each."""
MAX_TOTAL: Final = 100_000
"""Targets and switch scores: at most this many points (the longest real match is to 5005)."""
MAX_SMAZZATE: Final = 100
"""The most smazzate of any match: the bound of ``smazzate`` and the cap of a target-score match
(decision D14 in docs/rules.md): a target no line reaches (all values 0, or only penalties)
would otherwise be played for ever."""

RANGES: Final[Mapping[str, tuple[int, int]]] = {
    "players": (2, 4),
    "jokers": (0, 4),
    "hand_size": (1, 30),
    "three_player_switch_score": (-MAX_TOTAL, MAX_TOTAL),  # a total may be negative
    "three_player_late_target": (1, MAX_TOTAL),
    "joker_value": (0, 1000),
    "two_value": (0, 1000),
    "ace_value": (0, 1000),
    "high_value": (0, 1000),
    "low_value": (0, 1000),
    "max_natural_aces_per_run": (1, 2),
    "burraco_min_length": (3, 14),
    "bonus_clean": (0, MAX_POINTS),
    "bonus_dirty": (0, MAX_POINTS),
    "bonus_semiclean": (0, MAX_POINTS),
    "bonus_nobile": (0, MAX_POINTS),
    "bonus_reale": (0, MAX_POINTS),
    "closing_bonus": (0, MAX_POINTS),
    "no_pozzetto_penalty": (0, MAX_POINTS),
    "stock_end_threshold": (0, 50),
    "stall_limit": (0, 1000),
    "target_score": (1, MAX_TOTAL),
    "smazzate": (1, MAX_SMAZZATE),
}
"""The documented range of every integer parameter, bounds included (docs/rules.md). A meld
has at most 14 cards (the A..K..A run), so a longer burraco could never be made; the bounds on
points keep every score of a match far inside 64 bits, so records, the store and JSON agree."""
POZZETTO_SIZE_RANGE: Final = (4, 30)
"""Cards in one pozzetto (each entry of the ``*pozzetto_sizes`` parameters). At least 4: a
pozzetto taken in diretta must leave a legal discard (R53); one of 1 card could only be thrown
as a closing (no burraco yet: no legal action at all), and up to 3 could all be jokers locked as
twins of a joker just picked up (R17). Found by the server's edge-ruleset property test."""


def _check_types(rules: Rules, fail: Any) -> None:
    """Every parameter has its declared type: a ``None`` or a string where a number belongs is
    refused here, before any arithmetic meets it (issue 19, M3/M4)."""
    for field in dataclasses.fields(Rules):
        if not field.init or field.name == "name":
            continue
        value = getattr(rules, field.name)
        kind = str(field.type)
        if kind == "bool":
            if not isinstance(value, bool):
                fail(f"{field.name} must be true or false, not {value!r}")
        elif kind in ("int", "int | None"):
            if value is None and kind == "int | None":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                fail(f"{field.name} must be an integer, not {value!r}")
            low, high = RANGES[field.name]
            if not low <= value <= high:
                fail(f"{field.name} must be between {low} and {high}, not {value}")
        elif kind == "tuple[int, ...]":
            low, high = POZZETTO_SIZE_RANGE
            if not isinstance(value, tuple) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                fail(f"{field.name} must be a list of integers, not {value!r}")
            if any(not low <= v <= high for v in value):
                fail(f"every entry of {field.name} must be between {low} and {high}")
        elif kind == "frozenset[int]" and (
            not isinstance(value, frozenset) or not all(isinstance(v, int) for v in value)
        ):
            fail(f"{field.name} must be a set of ranks, not {value!r}")


def _validate(rules: Rules) -> None:
    def fail(message: str) -> None:
        raise RulesError(f"ruleset {rules.name!r}: {message}")

    _check_types(rules, fail)
    if rules.unplayed_pozzetto_policy not in ("hand_cards", "penalty"):
        fail("unplayed_pozzetto_policy must be 'hand_cards' or 'penalty'")
    if not rules.set_ranks <= ALL_SET_RANKS:
        fail("set_ranks may only hold ranks 1 (ace) and 3..13 (twos never form sets, R25)")
    layouts = [rules.pozzetto_sizes]
    if rules.players == 3:
        layouts = [rules.three_player_pozzetto_sizes, rules.three_player_late_pozzetto_sizes]
    for sizes in layouts:
        lines = 2 if rules.players in (2, 4) else 3
        if len(sizes) < 2 or len(sizes) > lines:
            fail(f"{rules.players} players need between 2 and {lines} pozzetti, not {len(sizes)}")
        dealt = rules.hand_size * rules.players + int(rules.initial_discard) + sum(sizes)
        if rules.deck_size - dealt < rules.stock_end_threshold + 1:
            fail(
                f"the deal uses {dealt} of {rules.deck_size} cards and leaves no playable stock"
                f" above the end threshold of {rules.stock_end_threshold}"
            )


# --------------------------------------------------------------------------------------- presets

PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    # RULES.md section 2: the Italian tournament rules of seed 002 (the default).
    "italian": {},
    # 3.1: the classic home rules of seed 001: the same play, a match to 2005.
    "classic": {"target_score": 2005},
    # 3.2: Burraco Reale of seed 000.
    "reale": {
        "players": 4,
        "jokers": 0,
        "two_value": 10,
        "initial_discard": False,
        "set_ranks": frozenset(),
        "max_natural_aces_per_run": 2,
        "bonus_nobile": 500,
        "bonus_reale": 1000,
        "closing_requires_clean": True,
        "unplayed_pozzetto_policy": "penalty",
    },
    # 3.3 and 3.8: pura / semipura / impura (FIBur pulito / semipulito / sporco).
    "italian-semipulito": {"bonus_semiclean": 150},
    # 3.7: Burraco Internazionale.
    "internazionale": {
        "set_ranks": frozenset({1, 3}),
        "closing_requires_clean": True,
        "pickup_requires_meld": True,
    },
}

ALIASES: Final[Mapping[str, str]] = {
    "default": "italian",
    "tournament": "italian",
    "semipulito": "italian-semipulito",
    "canasta": "italian-semipulito",
    "international": "internazionale",
}


def preset_names() -> tuple[str, ...]:
    return tuple(PRESETS)


def find_rules(name: str = "italian", **overrides: Any) -> Rules:
    """The preset called ``name`` (or an alias), with some parameters overridden."""
    canonical = ALIASES.get(name, name)
    if canonical not in PRESETS:
        known = ", ".join(PRESETS)
        raise RulesError(f"unknown ruleset preset {name!r} (known presets: {known})")
    values: dict[str, Any] = {"name": canonical, **PRESETS[canonical]}
    unknown = sorted(set(overrides) - set(parameter_names()))
    if unknown:
        raise RulesError(f"unknown ruleset parameter(s): {', '.join(unknown)}")
    values.update(overrides)
    return Rules(**values)


def coerce_option(name: str, value: Any) -> Any:
    """Turn a value read from TOML (``[options]``) into the parameter's Python type."""
    if name not in parameter_names():
        raise RulesError(f"unknown ruleset parameter {name!r}")
    if name == "set_ranks":
        if not isinstance(value, list):
            raise RulesError('set_ranks must be a list of ranks, e.g. ["A", "3"]')
        ranks: set[int] = set()
        for item in value:
            text = str(item).upper()
            if text not in RANK_NAMES[1:]:
                raise RulesError(f"set_ranks: {item!r} is not a rank")
            ranks.add(RANK_NAMES.index(text))
        return frozenset(ranks)
    if name.endswith("pozzetto_sizes"):
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise RulesError(f"{name} must be a list of integers")
        return tuple(value)
    default = _DEFAULTS[name]
    if isinstance(default, bool) or name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false")
        return value
    if name in _OPTIONAL_INT_FIELDS or isinstance(default, int):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"{name} must be an integer")
        return value
    if not isinstance(value, str):
        raise RulesError(f"{name} must be a string")
    return value


def option_to_toml(name: str, value: Any) -> Any:
    """Inverse of ``coerce_option``: a TOML-writable value for a parameter."""
    if name == "set_ranks":
        return [RANK_NAMES[r] for r in sorted(value)]
    if isinstance(value, tuple):
        return list(value)
    return value


_DEFAULT_RULES = Rules()
_DEFAULTS: Final = {name: getattr(_DEFAULT_RULES, name) for name in parameter_names()}
_BOOL_FIELDS: Final = {
    f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool) and f.init
}
_OPTIONAL_INT_FIELDS: Final = {
    f.name for f in dataclasses.fields(Rules) if f.type in ("int | None",) and f.init
}
