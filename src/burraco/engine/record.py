"""The game record, version 1 (spec/record-format.md): read, write and replay.

``read_record(text)`` raises RecordError for anything malformed (the CLI's exit 2);
``replay(record)`` plays every action through the engine and returns the scores, or stops at the
first illegal action or mismatched ``result`` (exit 1). ``write_record`` produces a file that
``read_record`` turns back into an equal Record.

Extensions (allowed by the spec: the project may add optional fields): a hand may carry
``timeout = SEAT``, meaning that after its actions that seat's line ran out of time (T14); the
hand then ends as ``timeout`` and the match ends with it.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, Final

from .actions import Action
from .cards import Card
from .deal import Deal, check_deck, check_explicit_deal
from .errors import IllegalActionError, NotationError, RecordError, RulesError
from .match import Match
from .rules import PRESETS, Rules, coerce_option, find_rules, option_to_toml
from .scoring import SmazzataScore
from .state import Smazzata

FORMAT: Final = "burraco-record/1"
_TOP_KEYS: Final = {"format", "rules", "players", "options", "meta", "hands"}
_HAND_KEYS: Final = {
    "first",
    "deck",
    "hands_dealt",
    "pozzetti",
    "discard",
    "stock",
    "actions",
    "result",
    "timeout",
}
_EXPLICIT: Final = ("hands_dealt", "pozzetti", "discard", "stock")


@dataclass(frozen=True)
class HandRecord:
    """One smazzata of a record: the deal (a deck order or an explicit deal) and its actions."""

    first: int
    actions: tuple[Action, ...]
    deck: tuple[Card, ...] | None = None
    deal: Deal | None = None
    result: tuple[int, ...] | None = None
    timeout: int | None = None


@dataclass(frozen=True)
class Record:
    rules: str
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    meta: Mapping[str, Any] = field(default_factory=dict)

    def ruleset(self) -> Rules:
        return find_rules(self.rules, players=len(self.players), **self.options)


# ---------------------------------------------------------------------------------------- reading


def read_record(text: str) -> Record:
    """Parse a record (TOML text). Raises RecordError saying what is wrong and where."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"invalid TOML: {error}") from None
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} at the top level")
    for key in ("format", "rules", "players"):
        if key not in data:
            raise RecordError(f"missing key {key!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}")
    rules_name = data["rules"]
    if not isinstance(rules_name, str) or rules_name not in PRESETS:
        known = ", ".join(PRESETS)
        raise RecordError(f"unknown ruleset preset {rules_name!r} (known: {known})", where="rules")
    players = data["players"]
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("players must be a list of 2, 3 or 4 names")
    options_raw = data.get("options", {})
    if not isinstance(options_raw, dict):
        raise RecordError("[options] must be a table")
    options: dict[str, Any] = {}
    for name, value in options_raw.items():
        try:
            options[name] = coerce_option(name, value)
        except RulesError as error:
            raise RecordError(f"[options]: {error}") from None
    if "players" in options:
        raise RecordError("[options]: the number of players comes from 'players'")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("[meta] must be a table")
    try:
        rules = find_rules(rules_name, players=len(players), **options)
    except RulesError as error:
        # The presets are valid, so a bad ruleset comes from [options].
        raise RecordError(str(error), where="[options]") from None
    hands_raw = data.get("hands", [])
    if not isinstance(hands_raw, list):
        raise RecordError("hands must be an array of tables ([[hands]])")
    hands = tuple(_read_hand(i + 1, h, rules) for i, h in enumerate(hands_raw))
    return Record(rules_name, tuple(players), hands, options, meta)


def _read_hand(number: int, raw: Any, rules: Rules) -> HandRecord:
    where = f"hand {number}"
    if not isinstance(raw, dict):
        raise RecordError("must be a table", where=where)
    unknown = sorted(set(raw) - _HAND_KEYS)
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}", where=where)
    first = raw.get("first")
    if isinstance(first, bool) or not isinstance(first, int):
        raise RecordError(
            "'first' (the seat that plays first) is missing or not a number", where=where
        )
    if not 0 <= first < rules.players:
        raise RecordError(
            f"first = {first} is not a seat of a {rules.players}-player table", where=where
        )
    given = [k for k in _EXPLICIT if k in raw]
    deck: tuple[Card, ...] | None = None
    deal: Deal | None = None
    if "deck" in raw:
        if given:
            raise RecordError(
                f"give either 'deck' or an explicit deal, not both ({given[0]})", where=where
            )
        deck = tuple(_cards(raw["deck"], f"{where}, deck"))
        try:
            check_deck(deck, rules)
        except RecordError as error:
            raise RecordError(error.message, where=f"{where}, deck") from None
    else:
        missing = [k for k in _EXPLICIT if k not in raw]
        if missing:
            raise RecordError(
                f"missing 'deck' (or the explicit deal's {', '.join(repr(m) for m in missing)})",
                where=where,
            )
        hands_dealt = _card_lists(raw["hands_dealt"], f"{where}, hands_dealt", "seat", 0)
        pozzetti = _card_lists(raw["pozzetti"], f"{where}, pozzetti", "pozzetto", 1)
        deal = Deal(
            hands=hands_dealt,
            pozzetti=pozzetti,
            discard=tuple(_cards(raw["discard"], f"{where}, discard")),
            stock=tuple(_cards(raw["stock"], f"{where}, stock")),
        )
        # The layout of a 3-player deal depends on the phase of the match (3.5), known only while
        # replaying: accept either layout here; the hand is checked again when it is dealt.
        try:
            _check_layout(deal, rules)
        except RecordError as error:
            raise RecordError(error.message, where=where) from None
    actions_raw = raw.get("actions", [])
    if not isinstance(actions_raw, list):
        raise RecordError("'actions' must be an array of strings", where=where)
    actions = []
    for i, text in enumerate(actions_raw, start=1):
        if not isinstance(text, str):
            raise RecordError(f"action {i} is not a string", where=where)
        try:
            actions.append(Action.parse(text))
        except NotationError as error:
            # The where names the action already; do not quote it a second time.
            message = str(error).removeprefix(f'"{text}": ')
            raise RecordError(message, where=f"{where}, action {i} {json.dumps(text)}") from None
    result = raw.get("result")
    if result is not None:
        sides = 3 if rules.players == 3 else 2
        if (
            not isinstance(result, list)
            or len(result) != sides
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in result)
        ):
            raise RecordError(f"'result' must be a list of {sides} integers", where=where)
        result = tuple(result)
    timeout = raw.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, int)
        or not 0 <= timeout < rules.players
    ):
        raise RecordError("'timeout' must be the seat whose time ran out", where=where)
    return HandRecord(first, tuple(actions), deck, deal, result, timeout)


def _cards(value: Any, where: str) -> list[Card]:
    if isinstance(value, str):
        words = value.split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        words = [w for v in value for w in v.split()]
    else:
        raise RecordError("expected cards as a string or a list of strings", where=where)
    out = []
    for word in words:
        try:
            out.append(Card.parse(word))
        except NotationError as error:
            raise RecordError(str(error), where=where) from None
    return out


def _card_lists(value: Any, where: str, item: str, start: int) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise RecordError("expected a list of card lists", where=where)
    return tuple(tuple(_cards(v, f"{where}, {item} {i}")) for i, v in enumerate(value, start=start))


def _check_layout(deal: Deal, rules: Rules) -> None:
    try:
        check_explicit_deal(deal, rules)
    except RecordError as early:
        if rules.players != 3:
            raise
        try:  # a 3-player deal after the switch to three pozzetti (3.5)
            check_explicit_deal(deal, rules, late=True)
        except RecordError:
            raise early from None


# ---------------------------------------------------------------------------------------- writing

_BARE_KEY: Final = re.compile(r"^[A-Za-z0-9_-]+$")


def write_record(record: Record) -> str:
    """The record as TOML text, in the layout of the spec."""
    lines = [
        f"format = {_value(FORMAT)}",
        f"rules = {_value(record.rules)}",
        f"players = {_value(list(record.players))}",
    ]
    if record.options:
        lines += ["", "[options]"]
        for k, v in record.options.items():
            if v is None:
                raise RecordError(
                    f"[options]: {k} cannot be unset in a record (TOML has no null value)"
                )
            lines.append(f"{_key(k)} = {_value(option_to_toml(k, v))}")
    if record.meta:
        lines += ["", "[meta]"]
        lines += [f"{_key(k)} = {_value(v)}" for k, v in record.meta.items()]
    for hand in record.hands:
        lines += ["", "[[hands]]", f"first = {hand.first}"]
        if hand.deck is not None:
            lines.append('deck = """')
            for i in range(0, len(hand.deck), 18):
                lines.append(" ".join(str(c) for c in hand.deck[i : i + 18]))
            lines.append('"""')
        elif hand.deal is not None:
            # Lists of cards, as the spec says ("one list of cards per seat").
            deal = hand.deal
            lines.append("hands_dealt = [")
            lines += [f"  {_cardlist(h)}," for h in deal.hands]
            lines.append("]")
            lines.append("pozzetti = [")
            lines += [f"  {_cardlist(p)}," for p in deal.pozzetti]
            lines.append("]")
            lines.append(f"discard = {_cardlist(deal.discard)}")
            lines.append("stock = [")
            for i in range(0, len(deal.stock), 18):
                lines.append(f"  {_cardlist(deal.stock[i : i + 18])[1:-1]},")
            lines.append("]")
        lines.append("actions = [")
        lines += [f"  {_value(str(a))}," for a in hand.actions]
        lines.append("]")
        if hand.result is not None:
            lines.append(f"result = {_value(list(hand.result))}")
        if hand.timeout is not None:
            lines.append(f"timeout = {hand.timeout}")
    return "\n".join(lines) + "\n"


def _cardlist(cards: Sequence[Card]) -> str:
    return "[" + ", ".join(f'"{c}"' for c in cards) + "]"


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string, except that TOML also forbids a raw DEL.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    raise RecordError(f"cannot write {type(value).__name__} values in a record")


# --------------------------------------------------------------------------------------- replaying


@dataclass(frozen=True)
class HandReplay:
    number: int
    ended: str
    """``closing``, ``stock``, ``stall``, ``timeout`` or ``unfinished``."""
    closed_by: int | None
    score: SmazzataScore | None
    lines: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class ReplayError:
    """Why a replay stopped: an illegal action (or a result that does not match)."""

    hand: int
    action: int | None
    action_text: str | None
    reason: str

    def __str__(self) -> str:
        if self.action is not None:
            return f'hand {self.hand}, action {self.action} "{self.action_text}": {self.reason}'
        return f"hand {self.hand}: {self.reason}"


@dataclass(frozen=True)
class Replay:
    record: Record
    hands: tuple[HandReplay, ...]
    totals: tuple[int, ...]
    winner: int | None
    target: int | None
    error: ReplayError | None = None
    states: tuple[Smazzata, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The JSON object of ``burraco replay --json`` (spec/record-format.md)."""
        hands = []
        for h in self.hands:
            entry: dict[str, Any] = {"ended": h.ended, "closed_by": h.closed_by}
            if h.score is not None:
                entry["lines"] = [line.as_json() for line in h.score.lines]
            hands.append(entry)
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.record.rules,
            "players": list(self.record.players),
            "hands": hands,
            "totals": list(self.totals),
        }
        if self.target is not None:
            out["winner"] = self.winner
        return out


def replay(record: Record, *, keep_states: bool = False) -> Replay:
    """Play the record through the engine; stop at the first illegal action or wrong result."""
    rules = record.ruleset()
    match = Match(rules, first=record.hands[0].first if record.hands else 0)
    done: list[HandReplay] = []
    states: list[Smazzata] = []
    totals_override: list[int] | None = None
    error: ReplayError | None = None
    unfinished: int | None = None
    for number, hand in enumerate(record.hands, start=1):
        # A smazzata that cannot be played at all is reported at its first action (spec).
        blocked: str | None = None
        if unfinished is not None:
            blocked = f"hand {unfinished} has not ended (R56-R58), so no smazzata can follow it"
        elif totals_override is not None:
            blocked = "the match ended by a timeout (T14)"
        elif match.is_over:
            if match.decided:
                blocked = f"the match was already decided after hand {number - 1} (3.6)"
            elif rules.smazzate is not None:
                blocked = f"the round was already over after hand {number - 1} (R63)"
            else:
                blocked = (
                    f"the match was already over after hand {number - 1}: a target-score match"
                    f" lasts at most {match.cap} smazzate (D14)"
                )
        if blocked is not None:
            first_text = str(hand.actions[0]) if hand.actions else None
            error = ReplayError(
                number, 1 if hand.actions else None, first_text, f"illegal: {blocked}"
            )
            break
        try:
            state = match.deal(deck=hand.deck, deal=hand.deal, first=hand.first)
        except RecordError as error_:
            raise RecordError(error_.message, where=f"hand {number}") from None
        if keep_states:
            states.append(state)
        for index, action in enumerate(hand.actions, start=1):
            try:
                state.apply(action)
            except IllegalActionError as illegal:
                error = ReplayError(number, index, str(action), f"illegal: {illegal.explanation}")
                break
        if error is not None:
            break
        if hand.timeout is not None:
            done.append(HandReplay(number, "timeout", None, None, tuple(state.lines())))
            totals_override = list(match.totals)
            continue
        if not state.is_over:
            if hand.result is not None:
                error = ReplayError(
                    number,
                    None,
                    None,
                    f"result {list(hand.result)} is given, but the smazzata is unfinished"
                    " (its actions stop before its end)",
                )
                break
            done.append(HandReplay(number, "unfinished", None, None, tuple(state.lines())))
            unfinished = number
            continue
        score = state.score()
        if hand.result is not None and tuple(hand.result) != score.result:
            error = ReplayError(
                number,
                None,
                None,
                f"result {list(hand.result)} does not match the replayed score"
                f" {list(score.result)}",
            )
            break
        done.append(HandReplay(number, score.ended, score.closed_by, score, tuple(state.lines())))
        match.add(score)
    winner = match.winner if match.target is not None else None
    return Replay(
        record,
        tuple(done),
        tuple(match.totals),
        winner,
        match.target,
        error,
        tuple(states),
    )
