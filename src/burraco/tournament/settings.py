"""How an online tournament is played: a frozen, keyword-only, validated value.

In the style of the engine's ``Rules``: every default is written once, here; ``__post_init__``
refuses a bad value with a :class:`TournamentSettingsError` naming the field; ``to_json`` /
``from_json`` is the JSON stored with the tournament (every field, by name). The table the
server plays on (rules, clocks) is checked by the server itself (``TableConfig``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, Final

from burraco.engine.errors import RulesError
from burraco.engine.vp import VPTable, vp_table

from .danish import RematchPolicy
from .entrants import EntrantKind
from .knockout import BracketMode

MAX_ENTRANTS: Final = 256
"""The most entrants an online tournament takes."""
DEFAULT_DANISH_ROUNDS: Final = 3
MAX_ROUNDS: Final = 20
MAX_SMAZZATE: Final = 20


class TournamentSystem(StrEnum):
    """The pairing systems of an online tournament (T18-T25)."""

    DANISH = "danish"
    ROUND_ROBIN = "round_robin"
    MITCHELL = "mitchell"
    KNOCKOUT = "knockout"


class AbsentPolicy(StrEnum):
    """What happens to a seat whose player is away."""

    BOT = "bot"
    """A bot plays it."""
    FORFEIT = "forfeit"
    """The line forfeits: T14's technical score."""


SYSTEMS: Final = tuple(s.value for s in TournamentSystem)
KINDS: Final = tuple(k.value for k in EntrantKind)


class TournamentSettingsError(ValueError):
    """A tournament setting that cannot be played; ``field`` names it (the server answers
    ``bad_tournament``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """How a tournament is played (stored as JSON with the tournament)."""

    kind: str = EntrantKind.INDIVIDUAL.value
    """``individual`` (1 v 1 at 2-player tables), ``pairs`` (fixed pairs at 4-player tables)
    or ``individual_four`` (single players at 4-player tables with a new partner each round,
    Danish only)."""
    system: str = TournamentSystem.DANISH.value
    """``danish``, ``round_robin``, ``mitchell`` or ``knockout``."""
    rounds: int | None = None
    """Danish: the number of rounds (default 3). Mitchell: at most the number of tables
    (default: all). Round robin and knockout: as many as the system needs."""
    rules: str = "italian"
    options: dict[str, Any] | None = None
    smazzate: int = 3
    """Smazzate per round (T3)."""
    round_seconds: float | None = None
    """The chess clock of each round (T5): each line gets half."""
    hand_seconds: float | None = None
    vp_table: str = "auto"
    """``auto`` (VP-2/3/4 by smazzate per round, else VP-3), ``VP-2``, ``VP-3`` or ``VP-4``."""
    rematch_policy: str = RematchPolicy.NOT_PREVIOUS_ROUND.value
    bracket: str = BracketMode.REDRAW_EACH_ROUND.value
    absent: str = AbsentPolicy.BOT.value
    """A seat whose player is away: ``bot`` (a bot plays it) or ``forfeit`` (T14's score)."""
    absent_seconds: float | None = None
    """How long a player may be away before that happens (None: the server's grace)."""
    between_smazzate: float = 4.0
    same_cards: bool = False
    """*Carte uguali* (docs/tournaments.md, "Same cards"): every table of a round plays the
    same deals in the same seats, committed before the round and revealed after it; each line
    is compared with the lines that held the same cards (``burraco.tournament.samecards``).
    A VP system only (not knockout)."""
    min_players: int = 4
    """T1: a scheduled tournament with fewer players is cancelled."""
    elimination: dict[str, int] | None = None
    """T21, Danish only: after round ``r`` (a key, as text in JSON), the entrants below that
    many VP are out: they sit out the following rounds and keep their VP in the ranking."""

    def __post_init__(self) -> None:
        def check(ok: bool, field: str, message: str) -> None:
            if not ok:
                raise TournamentSettingsError(field, message)

        check(self.kind in KINDS, "kind", f"kind is one of {', '.join(KINDS)}")
        check(self.system in SYSTEMS, "system", f"system is one of {', '.join(SYSTEMS)}")
        check(
            self.kind != EntrantKind.INDIVIDUAL_FOUR or self.system == TournamentSystem.DANISH,
            "kind",
            "single players at 4-player tables play the Danish system",
        )
        check(
            self.rounds is None or 1 <= self.rounds <= MAX_ROUNDS,
            "rounds",
            f"rounds must be between 1 and {MAX_ROUNDS}",
        )
        check(
            1 <= self.smazzate <= MAX_SMAZZATE,
            "smazzate",
            f"smazzate must be between 1 and {MAX_SMAZZATE}",
        )
        check(
            self.rematch_policy in {p.value for p in RematchPolicy},
            "rematch_policy",
            "rematch_policy is allowed, not_previous_round or never",
        )
        check(
            self.bracket in {b.value for b in BracketMode},
            "bracket",
            "bracket is redraw_each_round or fixed_bracket",
        )
        check(self.absent in {a.value for a in AbsentPolicy}, "absent", "absent is bot or forfeit")
        check(
            self.absent_seconds is None or 1 <= self.absent_seconds <= 600,
            "absent_seconds",
            "absent_seconds must be between 1 and 600",
        )
        check(
            4 <= self.min_players <= MAX_ENTRANTS,
            "min_players",
            f"min_players must be between 4 and {MAX_ENTRANTS}",
        )
        check(
            isinstance(self.same_cards, bool),
            "same_cards",
            "same_cards is true or false",
        )
        check(
            not (self.same_cards and self.system == TournamentSystem.KNOCKOUT),
            "same_cards",
            "a same-cards tournament is scored in VP: Danish, round robin or Mitchell",
        )
        if self.elimination:
            self._check_elimination()
        try:
            self.table()
        except RulesError as error:
            raise TournamentSettingsError("vp_table", str(error)) from None

    def _check_elimination(self) -> None:
        def bad(message: str) -> TournamentSettingsError:
            return TournamentSettingsError("elimination", message)

        if self.system != TournamentSystem.DANISH:
            raise bad("T21: partial elimination is for the Danish system")
        if not isinstance(self.elimination, dict) or len(self.elimination) > MAX_ROUNDS:
            raise bad('T21: elimination maps rounds to VP thresholds, e.g. {"1": 7}')
        rounds = self.danish_rounds
        for key, vp in self.elimination.items():
            try:
                after = int(key)
            except (TypeError, ValueError):
                raise bad(f"T21: {key!r} is not a round number") from None
            if not 1 <= after < rounds:
                raise bad(f"T21: elimination after round {after}: rounds 1 to {rounds - 1}")
            if isinstance(vp, bool) or not isinstance(vp, int) or not 0 <= vp <= 20 * after:
                raise bad(f"T21: after round {after} the threshold is 0 to {20 * after} VP")

    # ------------------------------------------------------------------ typed views

    @property
    def entrant_kind(self) -> EntrantKind:
        return EntrantKind(self.kind)

    @property
    def pairing_system(self) -> TournamentSystem:
        return TournamentSystem(self.system)

    @property
    def rematch(self) -> RematchPolicy:
        return RematchPolicy(self.rematch_policy)

    @property
    def bracket_mode(self) -> BracketMode:
        return BracketMode(self.bracket)

    @property
    def seats(self) -> int:
        return self.entrant_kind.seats

    @property
    def danish_rounds(self) -> int:
        """T18: the rounds of a Danish tournament (``rounds``, 3 by default)."""
        return self.rounds or DEFAULT_DANISH_ROUNDS

    @property
    def min_entrants_to_pair(self) -> int:
        """Entrants one table needs (after T21 fewer than this means the ranking is final)."""
        return 4 if self.entrant_kind is EntrantKind.INDIVIDUAL_FOUR else 2

    def thresholds(self) -> dict[int, int]:
        """T21's thresholds by round number."""
        return {int(r): int(vp) for r, vp in (self.elimination or {}).items()}

    def table(self) -> VPTable:
        """The VP table (T16): ``auto`` is VP-2/3/4 by smazzate per round, else VP-3."""
        if self.vp_table.lower() == "auto":
            return vp_table(f"VP-{self.smazzate}" if self.smazzate in (2, 3, 4) else "VP-3")
        return vp_table(self.vp_table)

    # ------------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """Every field by name: the JSON stored with the tournament (``same_cards`` only when
        set, so that other tournaments are stored as they always were)."""
        out = asdict(self)
        if not self.same_cards:
            del out["same_cards"]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSettings:
        """The settings stored by ``to_json`` (unknown keys are ignored, missing ones take
        their default)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


PRESETS: Final[Mapping[str, TournamentSettings]] = {
    "danish": TournamentSettings(),
    "same_cards": TournamentSettings(same_cards=True),
    "same_cards_pairs": TournamentSettings(same_cards=True, kind=EntrantKind.PAIRS.value),
    "knockout": TournamentSettings(system=TournamentSystem.KNOCKOUT.value),
}
"""Named starting points for an organiser (``preset(name)``, then ``dataclasses.replace``)."""


def preset(name: str) -> TournamentSettings:
    """The named settings (``danish``, ``same_cards``, ``same_cards_pairs``, ``knockout``)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise TournamentSettingsError(
            "preset", f"unknown preset {name!r} (known: {', '.join(PRESETS)})"
        ) from None
