"""Build a position directly (tests, puzzles, teaching): hands, melds and piles as text.

Every card of the deck stays accounted for: cards not placed anywhere fill the untaken pozzetti,
then the stock (unless its size is fixed), and whatever is still left is set aside
(``Smazzata.removed``), so card conservation holds in constructed positions too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import CARDS, Card, deck_counts, parse_cards
from .deal import Deal, pozzetto_layout
from .errors import NotationError
from .melds import Meld, MeldError, check_open
from .rules import Rules
from .state import Phase, Smazzata


def build_position(
    rules: Rules,
    *,
    hands: Sequence[str],
    melds: Mapping[int, Sequence[str]] | None = None,
    pile: str = "",
    stock: str | None = None,
    stock_size: int | None = None,
    taken: Mapping[int, int] | None = None,
    unplayed: Mapping[int, str] | None = None,
    current: int = 0,
    phase: Phase = Phase.ACQUIRE,
    acquired: str | None = None,
    lock: str | None = None,
    first: int = 0,
    late: bool = False,
) -> Smazzata:
    """A position of ``rules.players`` seats.

    ``hands``: per seat, the cards held. ``melds``: per line id, the melds on the table in the
    order they were opened (each a list of cards that ``check_open`` accepts). ``pile``: the
    discard pile, bottom to top. ``stock``: its cards, top first (or ``stock_size`` to fill it
    with unplaced cards). ``taken``: line id -> the seat that took the line's pozzetto; ``unplayed``
    seat -> the cards of a pozzetto it took con scarto and has not played yet (they must also be in
    its hand). ``phase`` PLAY needs ``acquired`` (``"draw"`` or ``"pickup"``); ``lock`` names the
    card picked up alone from the pile (R17).
    """
    if len(hands) != rules.players:
        raise ValueError(f"{len(hands)} hands for {rules.players} players")
    remaining = deck_counts(rules.jokers)

    def use(cards: Sequence[Card], what: str) -> None:
        for c in cards:
            remaining[c] -= 1
            if remaining[c] < 0:
                raise ValueError(f"{what}: more copies of {CARDS[c]} than the deck holds")

    hand_cards = [parse_cards(h) for h in hands]
    for seat, cards in enumerate(hand_cards):
        use(cards, f"hand of seat {seat}")
    pile_cards = parse_cards(pile)
    use(pile_cards, "pile")
    stock_cards = parse_cards(stock) if stock is not None else []
    use(stock_cards, "stock")
    meld_lists: dict[int, list[tuple[int, Meld]]] = {}
    seq = 0
    for line, texts in (melds or {}).items():
        for text in texts:
            cards = parse_cards(text)
            use(cards, f"meld {text!r}")
            result = check_open(cards, rules)
            if isinstance(result, MeldError):
                raise NotationError(f"meld {text!r} is not valid: {result.reason} ({result.rule})")
            seq += 1
            meld_lists.setdefault(line, []).append((seq, result))

    pool = [CARDS[c] for c in range(len(remaining)) for _ in range(remaining[c])]
    state = Smazzata._from_deal(
        rules,
        Deal(hands=tuple(tuple(h) for h in hand_cards), pozzetti=(), discard=(), stock=()),
        first,
        late,
    )
    taken = dict(taken or {})
    layout = pozzetto_layout(rules, late=late)
    untaken = list(range(len(taken), len(layout)))
    pozzetti = []
    for index in untaken:
        size = layout[index]
        pozzetti.append(tuple(pool[:size]))
        pool = pool[size:]
    if stock is None:
        size = len(pool) if stock_size is None else stock_size
        stock_cards = pool[:size]
        pool = pool[size:]
    state.pozzetti = tuple(pozzetti)
    state.pozzetto_number = tuple(i + 1 for i in untaken)
    state.stock = list(reversed(stock_cards))
    state.pile = pile_cards
    state.removed = tuple(pool)
    for line, lst in meld_lists.items():
        state.opened[line] = tuple(number for number, _ in lst)
        state.melds[line] = tuple(meld for _, meld in lst)
    state.set_mask = tuple(
        sum(1 << (rank - 1) for rank in {m.rank for m in line if m.is_set}) for line in state.melds
    )
    for line, seat in taken.items():
        state.taken = tuple(t or i == line for i, t in enumerate(state.taken))
        if state.solo_mode:
            state._form_pair(seat)
    state.seq = seq
    unplayed_cards = list(state.unplayed)
    for seat, text in (unplayed or {}).items():
        unplayed_cards[seat] = tuple(parse_cards(text))
    state.unplayed = tuple(unplayed_cards)
    state.current = current
    state.phase = phase
    if phase == Phase.PLAY:
        if acquired not in ("draw", "pickup"):
            raise ValueError("a PLAY position needs acquired='draw' or 'pickup'")
        state.acquired = 0 if acquired == "draw" else 1
    if lock is not None:
        card = Card.parse(lock)
        state.lock = card
        state.lock_in_hand = state.hands[current][card] > 0
    return state
