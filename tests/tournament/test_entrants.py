"""T1 (registration: the table-size multiple, the minimum) and T2 (kinds of entrant)."""

from __future__ import annotations

import pytest

from burraco.tournament import EntrantKind, admit, entrant_ids

from .helpers import ids


def test_T2_kinds_of_entrant() -> None:
    assert (EntrantKind.INDIVIDUAL.seats, EntrantKind.INDIVIDUAL.entrants_per_table) == (2, 2)
    assert (EntrantKind.PAIRS.seats, EntrantKind.PAIRS.players_per_entrant) == (4, 2)
    assert EntrantKind.PAIRS.entrants_per_table == 2
    assert EntrantKind.INDIVIDUAL_FOUR.entrants_per_table == 4
    assert EntrantKind.INDIVIDUAL_FOUR.entrants_per_line == 2


def test_T1_individuals_are_cut_to_a_multiple_of_two() -> None:
    regs = ids("A B C D E F G")
    got = admit(regs, EntrantKind.INDIVIDUAL)
    assert got.admitted == ids("A B C D E F")
    assert got.excluded == ids("G")  # the latest registrant is told and refunded
    assert not got.cancelled


def test_T1_individuals_at_four_player_tables_are_cut_to_a_multiple_of_four() -> None:
    regs = ids("A B C D E F G H I J K")
    got = admit(regs, EntrantKind.INDIVIDUAL_FOUR)
    assert got.admitted == regs[:8] and got.excluded == ids("I J K")


def test_T1_pairs_are_cut_to_an_even_number_of_pairs() -> None:
    pairs = ids("AB CD EF")  # 6 players: a multiple of 4 needs 4
    got = admit(pairs, EntrantKind.PAIRS)
    assert got.admitted == ids("AB CD") and got.excluded == ids("EF")


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        (EntrantKind.INDIVIDUAL, "A B C"),
        (EntrantKind.PAIRS, "AB"),
        (EntrantKind.INDIVIDUAL_FOUR, "A B C"),
    ],
)
def test_T1_below_four_players_the_tournament_is_cancelled(kind: EntrantKind, names: str) -> None:
    regs = ids(names)
    got = admit(regs, kind)
    assert got.cancelled and got.admitted == () and got.excluded == regs


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        entrant_ids(["A", "A"])
