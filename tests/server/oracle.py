"""The leak check: what each seat could know at each event, rebuilt from the match's record with
the engine, against every message the server sent to every connection.

The ``Oracle`` replays the downloaded record (deck order and actions of each smazzata) along the
event stream of a spectator who followed the table from before the first deal, so it knows the
engine's state after every event number. ``check_client`` then goes through everything one
client received and asserts, message by message:

- the event stream of each connection has no gap and no duplicate (after a snapshot, or after a
  ``join`` with ``last_seq``, up to ``synced``), and every event is the table's event of that
  number (public events are identical for everyone);
- ``view`` is exactly the engine's view of the connection's seat at that point (spectators: the
  public view, no hand), ``legal`` exactly its legal actions (only when it is to act);
- in ``action.events``, a drawn card is named only to the drawer, and pozzetto cards only to their
  taker (a pozzetto taken con scarto not even to him, R48); everything else is public;
- any card written anywhere in a message (whatever the field) is a card the seat could see just
  before or just after the event (own hand and draw, the discard pile, the melds, cards known to
  be in other hands, the cards of the action itself); the deck is shown only in
  ``smazzata_end.reveal``, after the smazzata, and it must be the committed deck.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from burraco.engine import Smazzata
from burraco.engine.cards import CARDS, Card
from burraco.engine.events import Drew, Event, PozzettoTaken
from burraco.engine.record import Record, read_record
from burraco.engine.views import SPECTATOR

from .harness import Server
from .support import Message, Played, Session, TableClient

CARD_TOKEN = re.compile(
    r"(?<![0-9A-Za-z])(?:(?:10|[2-9AJQK])[CDHS]|JK)(?![0-9A-Za-z])",
)
"""A card in the record notation (``10H``, ``QS``, ``JK``) inside any text."""

NOT_CARDS = frozenset({"table", "id", "name", "text", "commitment", "salt", "message"})
"""Fields whose text is not about cards (ids, names, chat, hashes): not scanned."""

PRIVATE_KINDS = frozenset({"dealt", "action", "resumed"})
"""Events that each seat receives in its own form (view, legal, events)."""

WIRE_NAMES = {
    "Drew": "drew",
    "PickedUp": "picked_up",
    "Opened": "opened",
    "Attached": "attached",
    "Discarded": "discarded",
    "PozzettoTaken": "pozzetto",
    "LineFormed": "line_formed",
    "TurnStarted": "turn",
    "SmazzataEnded": "ended",
}


def deck_text(deck: Sequence[Card]) -> str:
    return " ".join(str(c) for c in deck)


class Oracle:
    """The engine's state after every event of a table, from its record and a full event
    stream (``timeline``: what a spectator received, starting with its snapshot from before the
    first deal)."""

    def __init__(self, record_text: str, timeline: Sequence[Message]) -> None:
        self.record: Record = read_record(record_text)
        self.rules = self.record.ruleset()
        timeline = [m for m in timeline if m["type"] in ("snapshot", "event")]
        assert timeline and timeline[0]["type"] == "snapshot", "the timeline starts with a join"
        start = timeline[0]
        assert start["view"] is None, "the spectator must join before the first deal"
        self.first_seq: int = start["seq"]
        self.events: dict[int, Message] = {}
        self.states: dict[int, Smazzata | None] = {self.first_seq: None}
        self.engine_events: dict[int, list[Event]] = {}
        self.commitments: dict[int, str | None] = {self.first_seq: None}
        fairness = {f["hand"]: f for f in self.record.meta.get("fairness", [])}
        state: Smazzata | None = None
        commitment: str | None = None
        actions: Sequence[Any] = ()
        index = 0
        number = 0
        expected = self.first_seq + 1
        for message in timeline[1:]:
            if message["type"] != "event":
                continue
            seq = message["seq"]
            assert seq == expected, f"the timeline jumps from {expected - 1} to {seq}"
            expected += 1
            kind = message["kind"]
            if kind == "dealt":
                assert state is None or state.is_over
                assert index == len(actions), "a smazzata was dealt before the last one ended"
                number = message["number"]
                hand = self.record.hands[number - 1]
                assert hand.deck is not None and message["first"] == hand.first
                state = Smazzata.new(self.rules, deck=hand.deck, first=hand.first)
                actions, index = hand.actions, 0
                commitment = message["commitment"]
                salt = fairness[number]["salt"]
                assert fairness[number]["commitment"] == commitment
                digest = hashlib.sha256(f"{deck_text(hand.deck)} {salt}".encode()).hexdigest()
                assert digest == commitment, "the deck does not match the commitment"
            elif kind == "action":
                assert state is not None and index < len(actions), "an action nobody recorded"
                action = actions[index]
                index += 1
                assert str(action) == message["action"] and action.seat == message["seat"]
                state = state.copy()
                self.engine_events[seq] = state.apply(action)
            elif kind == "smazzata_end":
                assert state is not None and state.is_over and index == len(actions)
                hand = self.record.hands[number - 1]
                assert hand.deck is not None
                reveal = message["reveal"]
                assert reveal["deck"] == deck_text(hand.deck)
                assert reveal["commitment"] == commitment
                assert reveal["salt"] == fairness[number]["salt"]
                assert list(hand.result or ()) == message["score"]["result"]
                # The cards left in each hand are the engine's, seat by seat.
                left = [[str(c) for c in state.hand(s)] for s in range(self.rules.players)]
                assert message["hands"] == left, (
                    "smazzata_end: the hands left are not the cards held"
                )
            elif kind == "match_end":
                assert index == len(actions), "the record has actions the table never announced"
                assert number == len(self.record.hands), "the record has more smazzate"
            self.events[seq] = message
            self.states[seq] = state
            self.commitments[seq] = commitment
        self.last_seq = expected - 1

    def check_client(self, client: TableClient) -> int:
        """Check everything ``client`` received; returns how many messages were checked."""
        return self.check_sessions(client.sessions)

    def check_sessions(self, sessions: Sequence[Session]) -> int:
        checked = 0
        for session in sessions:
            following = None if session.last_seq is None else session.last_seq + 1
            for seat, message in session.received:
                kind = message["type"]
                if kind == "snapshot":
                    following = message["seq"] + 1
                    self.check_snapshot(seat, message)
                elif kind == "event":
                    assert following is not None, f"an event before the join's answer: {message}"
                    assert message["seq"] == following, (
                        f"event {message['seq']} arrived where {following} was due"
                    )
                    following += 1
                    self.check_event(seat, message)
                elif kind == "synced":
                    assert following is not None and message["seq"] == following - 1
                    state = self.states[message["seq"]]
                    if "view" in message:
                        self.check_view(seat, state, message, f"synced {message['seq']}")
                    self.scan(message, self.visible(state, seat), f"synced to seat {seat}")
                elif kind == "error":
                    assert message["code"] in ("stale",), message
                else:
                    assert kind in ("welcome", "ack", "pong"), message
                    self.scan(message, set(), f"{kind} to seat {seat}")
                checked += 1
        return checked

    # -- one message --

    def check_snapshot(self, seat: int | None, message: Message) -> None:
        seq = message["seq"]
        assert seq in self.states, f"a snapshot at {seq}, outside the table's history"
        state = self.states[seq]
        assert message["you"] == seat
        self.check_view(seat, state, message, f"snapshot {seq}")
        assert message["commitment"] == (self.commitments[seq] if state is not None else None)
        self.scan(message, self.visible(state, seat), f"snapshot {seq} to seat {seat}")

    def check_event(self, seat: int | None, message: Message) -> None:
        seq = message["seq"]
        where = f"event {seq} ({message['kind']}) to seat {seat}"
        reference = self.events.get(seq)
        assert reference is not None, f"{where}: not an event of the table"
        assert message["kind"] == reference["kind"], where
        state, before = self.states[seq], self.states.get(seq - 1)
        if message["kind"] not in PRIVATE_KINDS:
            assert message == reference, f"{where}: a public event differs between seats"
            shown = dict(message)
            if message["kind"] == "smazzata_end":
                # The deck is revealed once the smazzata is over (fair deals); the oracle has
                # checked that it is the committed deck.
                shown["reveal"] = {k: v for k, v in message["reveal"].items() if k != "deck"}
                # So are the cards left in the hands (as the revealed deck tells; checked above).
                shown.pop("hands")
            self.scan(shown, self.visible(before, seat) | self.visible(state, seat), where)
            return
        live = ("view", "legal", "clock")
        if "view" not in message:
            # A resent event (after a join with last_seq) is the stored one, without the live
            # view, legal actions and clock: ``synced`` brings those.
            assert not any(key in message for key in live), where
        else:
            self.check_view(seat, state, message, where)
        assert set(message) - set(live) == set(reference) - set(live), f"{where}: fields differ"
        for key, value in message.items():
            if key not in ("view", "legal", "events"):
                assert reference[key] == value, f"{where}: {key} differs from the spectator's"
        visible = self.visible(before, seat) | self.visible(state, seat)
        if message["kind"] == "action":
            visible |= set(CARD_TOKEN.findall(message["action"]))
            self.check_engine_events(seat, seq, message["events"], reference["events"], where)
        self.scan(message, visible, where)

    def check_view(
        self, seat: int | None, state: Smazzata | None, message: Message, where: str
    ) -> None:
        if state is None:
            assert message["view"] is None and message["legal"] is None, where
            return
        expected = state.view(SPECTATOR if seat is None else seat).to_json()
        assert message["view"] == expected, f"{where}: the view is not the seat's own view"
        if seat is None:
            assert message["view"]["hand"] == [] and message["view"]["drawn"] is None
        legal = None
        if seat is not None and not state.is_over and state.current == seat:
            legal = [str(a) for a in state.legal_actions()]
        assert message["legal"] == legal, f"{where}: legal is not the seat's legal actions"

    def check_engine_events(
        self,
        seat: int | None,
        seq: int,
        shown: list[dict[str, Any]],
        public: list[dict[str, Any]],
        where: str,
    ) -> None:
        events = self.engine_events[seq]
        assert len(shown) == len(events) == len(public), f"{where}: engine events differ"
        for event, wire, spectator in zip(events, shown, public, strict=True):
            assert wire["e"] == WIRE_NAMES[type(event).__name__], where
            if isinstance(event, Drew):
                assert event.card is not None
                expected = str(event.card) if seat == event.seat else None
                assert wire["card"] == expected, f"{where}: the drawn card to seat {seat}"
                assert wire == spectator | {"card": expected}, where
            elif isinstance(event, PozzettoTaken):
                assert event.cards is not None
                revealed = event.direct or self.rules.reveal_pozzetto_immediately
                cards = [str(c) for c in event.cards] if seat == event.seat and revealed else None
                assert wire["cards"] == cards, f"{where}: the pozzetto's cards to seat {seat}"
                assert wire == spectator | {"cards": cards}, where
            else:
                assert wire == spectator, f"{where}: a public engine event differs"

    # -- cards --

    def visible(self, state: Smazzata | None, seat: int | None) -> set[str]:
        """The cards ``seat`` can see in ``state``: its hand and draw and the public cards."""
        if state is None:
            return set()
        view = state.view(SPECTATOR if seat is None else seat)
        cards: list[Card] = [*view.hand_cards(), *view.pile, *view.removed]
        for line in view.melds:
            for meld in line:
                cards.extend(meld.cards())
        for other in range(view.players):
            cards.extend(view.known_cards(other))
        if view.drawn >= 0:
            cards.append(CARDS[view.drawn])
        return {str(c) for c in cards}

    def scan(self, message: Any, visible: set[str], where: str) -> None:
        for card in cards_in(message):
            assert card in visible, f"{where}: card {card} is not in the seat's sight"


def cards_in(value: Any) -> Iterator[str]:
    """Every card written anywhere in a JSON value (not in ids, names, chat or hashes). A wild's
    stand-in written in a meld's notation, ``JK(QH)``, is not a card and is left out."""
    if isinstance(value, str):
        yield from CARD_TOKEN.findall(re.sub(r"\([^)]*\)", "", value))
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_CARDS:
                yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


# ------------------------------------------------------------------------------ a finished match


def replay_with_cli(record_text: str, folder: Path) -> dict[str, Any]:
    """``burraco replay --json`` on the record, as a person would run it: exit 0, its result."""
    path = folder / "record.toml"
    path.write_text(record_text, encoding="utf-8")
    script = Path(sys.executable).with_name("burraco")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "burraco.cli.main"]
    done = subprocess.run(
        [*command, "replay", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"burraco replay: exit {done.returncode}: {done.stderr}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def check_match(server: Server, played: Played, folder: Path) -> Oracle:
    """The checks every finished match gets: its record replays with ``burraco replay`` to the
    totals announced in ``match_end``, and nothing anyone received leaks a card."""
    table, spectator, clients = played.table, played.spectator, played.clients
    match_end = spectator.match_end
    assert match_end is not None, "the match did not end"
    for client in clients:
        assert client.match_end == match_end, f"{client.user.name} saw another end"
    with server.client(timeout=30) as http:
        answer = http.get(f"/api/tables/{table}/record")
    assert answer.status_code == 200, answer.text
    result = replay_with_cli(answer.text, folder)
    assert result["totals"] == match_end["totals"]
    if match_end["ended"] == "complete" and "winner" in result:
        assert result["winner"] == match_end["winner"]
    oracle = Oracle(answer.text, [m for s in spectator.sessions for _, m in s.received])
    assert oracle.last_seq == match_end["seq"]
    for client in [spectator, *clients]:
        assert oracle.check_client(client) > 0
    return oracle


def check_clocks(
    oracle: Oracle,
    *,
    round_seconds: float,
    hand_seconds: float | None,
    increment: float = 2.0,
    increment_cap: float = 120.0,
) -> int:
    """The chess clocks as the events show them (RULES.md T5-T12): a bank per line (partners
    show the same one) of ``round_seconds / lines``; between two events only the bank of the
    line on turn runs (the one whose turn ended and the one whose turn began, at a change), and
    all banks together lose no more than the server time between the two events; every other
    bank stays exactly as it was, so nothing runs between smazzate; each turn start credits
    ``increment``, up to ``increment_cap`` per line; the turn timer restarts with each turn.
    Returns how many clocks were checked."""
    players = oracle.rules.players
    owner = [seat % 2 for seat in range(players)] if players == 4 else list(range(players))
    lines = max(owner) + 1
    credited = [0.0] * lines
    previous: dict[str, Any] | None = None
    eps = 0.0025
    checked = 0
    for seq in sorted(oracle.events):
        clock = oracle.events[seq].get("clock")
        if clock is None:
            continue
        state = oracle.states[seq]
        assert state is not None
        where = f"the clock of event {seq}"
        running = clock["running"]
        assert running == (None if state.is_over else state.current), where
        banks = clock["banks"]
        for seat in range(players):
            assert banks[seat] == banks[owner.index(owner[seat])], f"{where}: partners differ"
        if previous is None:
            base = [round_seconds / lines] * lines
            elapsed = 1.0  # the deal's own time, before the event went out
        else:
            base = [0.0] * lines
            for seat, bank in enumerate(previous["banks"]):
                base[owner[seat]] = bank
            elapsed = clock["server_time"] - previous["server_time"]
            assert elapsed >= 0, where
        before = None if previous is None else previous["running"]
        moving = {owner[s] for s in (running, before) if s is not None}
        if running is not None and (previous is None or previous["running"] != running):
            line = owner[running]
            credit = min(increment, max(increment_cap - credited[line], 0.0))
            credited[line] += credit
            base[line] += credit
            if hand_seconds is not None:
                assert hand_seconds - 1 <= clock["turn_left"] <= hand_seconds, where
        now = [banks[owner.index(line)] for line in range(lines)]
        for line in range(lines):
            if line in moving:
                assert base[line] - elapsed - eps <= now[line] <= base[line] + eps, (
                    f"{where}: line {line} has {now[line]}, expected {base[line]:.3f}"
                    f" less at most {elapsed:.3f} s"
                )
            else:
                assert abs(now[line] - base[line]) <= eps, (
                    f"{where}: line {line} is not on turn, yet its bank went from"
                    f" {base[line]:.3f} to {now[line]}"
                )
        assert sum(base) - sum(now) <= elapsed + eps, f"{where}: two clocks ran at once"
        if running is None or hand_seconds is None:
            assert clock["turn_left"] is None, where
        previous = clock
        checked += 1
    return checked
