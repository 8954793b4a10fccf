"""RULES.md 4.3: the chess clock (T5-T13) and its cases T-E1..T-E3."""

from __future__ import annotations

import pytest

from burraco.engine.clock import RoundClock, TimeControl
from burraco.engine.errors import RulesError

TWO = (0, 1)
FOUR = (0, 1, 0, 1)


def test_T_E1_each_line_gets_half_the_round_and_clocks_start_stopped() -> None:
    """T-E1: 3-smazzata round of 36 min -> each line's clock = 18:00; stopped (T5, T7)."""
    clock = RoundClock.start_round(TimeControl(round_seconds=36 * 60), TWO)
    assert clock.banks == [18 * 60, 18 * 60]
    assert clock.running is None
    assert clock.remaining(0, now=1000.0) == 18 * 60  # nothing runs before the first turn
    assert clock.next_expiry() is None


def test_T5_four_players_share_a_bank_per_line_or_get_one_each() -> None:
    """T5: 4 players: one clock per line shared by partners, or round_time/4 each (scope)."""
    line = RoundClock.start_round(TimeControl(round_seconds=2400), FOUR)
    assert line.banks == [1200, 1200]
    line.start_turn(0, now=0.0)
    line.stop(now=100.0)
    assert line.remaining(2, now=500.0) == pytest.approx(1200 + 2 - 100)  # partner's bank too
    player = RoundClock.start_round(TimeControl(round_seconds=2400, scope="player"), FOUR)
    assert player.banks == [600, 600, 600, 600]


def test_T6_T8_T10_only_the_player_on_turn_spends_time() -> None:
    """T6, T8, T10: a clock runs from the turn's start to the server receiving the discard."""
    clock = RoundClock.start_round(TimeControl(round_seconds=600, increment=0), TWO)
    clock.start_turn(0, now=10.0)
    assert clock.remaining(0, now=25.0) == pytest.approx(285)
    assert clock.remaining(1, now=25.0) == 300
    clock.stop(now=40.0)
    clock.start_turn(1, now=40.0)
    assert clock.remaining(0, now=100.0) == pytest.approx(270)
    assert clock.remaining(1, now=100.0) == pytest.approx(240)


def test_T9_increment_of_two_seconds_each_turn() -> None:
    """T9: each turn start credits 2 s to the line's bank."""
    clock = RoundClock.start_round(TimeControl(round_seconds=600), TWO)
    clock.start_turn(0, now=0.0)
    assert clock.remaining(0, now=0.0) == 302
    clock.start_turn(1, now=5.0)  # start_turn stops the previous turn
    assert clock.remaining(0, now=5.0) == pytest.approx(297)
    assert clock.remaining(1, now=5.0) == 302


def test_T_E2_no_increment_after_120_seconds_credited_in_the_round() -> None:
    """T-E2: after 60 increments (120 s) the 61st turn start credits nothing (T9)."""
    clock = RoundClock.start_round(TimeControl(round_seconds=3600), TWO)
    now = 0.0
    for _ in range(60):
        clock.start_turn(0, now)
        clock.stop(now)
    assert clock.credited[0] == 120
    assert clock.banks[0] == 1800 + 120
    clock.start_turn(0, now)
    assert clock.banks[0] == 1800 + 120
    assert clock.credited[0] == 120


def test_T_E3_pozzetto_in_diretta_resets_the_turn_timer_not_the_bank() -> None:
    """T-E3: 60 s turn timer; pozzetto in diretta at second 50 -> timer back to 60 s (T12)."""
    clock = RoundClock.start_round(
        TimeControl(round_seconds=1200, hand_seconds=60, increment=0), TWO
    )
    clock.start_turn(0, now=100.0)
    assert clock.turn_remaining(now=150.0) == pytest.approx(10)
    clock.reset_turn_timer(now=150.0)
    assert clock.turn_remaining(now=150.0) == pytest.approx(60)
    assert clock.remaining(0, now=150.0) == pytest.approx(550)  # the line clock kept running
    expiry = clock.next_expiry()
    assert expiry is not None
    assert expiry[0] == pytest.approx(210.0)
    assert expiry[1] == "turn"


def test_T11_T13_turn_timer_expiry_and_consecutive_auto_plays() -> None:
    """T11, T13: the turn timer expires first; three automatic plays in a row = time out."""
    clock = RoundClock.start_round(
        TimeControl(round_seconds=1200, hand_seconds=30, increment=0), TWO
    )
    clock.start_turn(0, now=0.0)
    assert clock.expired(now=29.0) is None
    assert clock.expired(now=30.0) == "turn"
    assert not clock.note_auto_play(0)
    assert not clock.note_auto_play(0)
    clock.note_own_play(0)
    assert not clock.note_auto_play(0)
    assert not clock.note_auto_play(0)
    assert clock.note_auto_play(0)


def test_T14_bank_runs_out_before_the_turn_timer() -> None:
    """T14: when the bank is shorter than the turn timer, the bank expires."""
    clock = RoundClock.start_round(TimeControl(round_seconds=40, hand_seconds=60, increment=0), TWO)
    clock.start_turn(1, now=0.0)
    assert clock.next_expiry() == (20.0, "bank")
    assert clock.expired(now=20.0) == "bank"


def test_T7_pause_between_smazzate_and_restore_after_restart() -> None:
    """T7: clocks stopped between smazzate; a snapshot restores banks after a restart."""
    clock = RoundClock.start_round(TimeControl(round_seconds=600), TWO)
    clock.start_turn(0, now=0.0)
    clock.pause(now=30.0)
    assert clock.remaining(0, now=10_000.0) == pytest.approx(272)
    saved = clock.snapshot()
    fresh = RoundClock.start_round(TimeControl(round_seconds=600), TWO)
    fresh.restore(saved)
    fresh.grace(20)
    assert fresh.remaining(0, now=0.0) == pytest.approx(292)
    assert fresh.credited == [2.0, 0.0]


def test_time_control_is_validated() -> None:
    with pytest.raises(RulesError):
        TimeControl(round_seconds=0)
    with pytest.raises(RulesError):
        TimeControl(round_seconds=60, hand_seconds=-1)


def test_lag_compensation_is_not_charged_and_never_runs_ahead_of_now() -> None:
    """A bounded lag allowance (4.3, lichess style) is not charged to the player's bank."""
    clock = RoundClock.start_round(TimeControl(round_seconds=600, increment=0), TWO)
    clock.start_turn(0, now=0.0)
    clock.compensate(0.4, now=10.0)
    clock.stop(now=10.0)
    assert clock.remaining(0, now=10.0) == pytest.approx(300 - 9.6)
    clock.start_turn(1, now=10.0)
    clock.compensate(5.0, now=10.2)  # more than the turn lasted: charged nothing, not credited
    clock.stop(now=10.2)
    assert clock.remaining(1, now=10.2) == pytest.approx(300)
