"""The pure rules engine: standard library only, no I/O, no global random state."""

from .actions import ATTACH, DISCARD, DRAW, OPEN, PICKUP, Action, Verb
from .cards import CARDS, JOKER, Card, format_cards, parse_cards
from .deal import Deal, deal_from_deck, shuffled_deck
from .errors import BurracoError, IllegalActionError, NotationError, RecordError, RulesError
from .melds import Meld
from .rules import PRESETS, Rules, find_rules, parameter_names, preset_names
from .scoring import LineScore, SmazzataScore
from .state import Phase, Smazzata

__all__ = [
    "ATTACH",
    "CARDS",
    "DISCARD",
    "DRAW",
    "JOKER",
    "OPEN",
    "PICKUP",
    "PRESETS",
    "Action",
    "BurracoError",
    "Card",
    "Deal",
    "IllegalActionError",
    "LineScore",
    "Meld",
    "NotationError",
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "Smazzata",
    "SmazzataScore",
    "Verb",
    "deal_from_deck",
    "find_rules",
    "format_cards",
    "parameter_names",
    "parse_cards",
    "preset_names",
    "shuffled_deck",
]
