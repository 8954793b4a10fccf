"""The arena (``burraco arena``, docs/arena.md): its statistics on hand-computed inputs, the
duplicate seating, resuming, faulty bots, and small real runs whose files are checked and whose
records replay."""

from __future__ import annotations

import csv
import json
import math
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from burraco.bots import BOT_LEVELS, RandomBot
from burraco.bots.arena import (
    RESULTS_FILE,
    Entrant,
    GameResult,
    Settings,
    SettingsMismatch,
    Table,
    deal_of,
    make_tables,
    parse_entrant,
    plan,
    play_game,
    read_results,
    run_arena,
    seat_layouts,
    split_bot_list,
)
from burraco.bots.arena_report import summarize, text_report
from burraco.bots.ratings import (
    bootstrap_ratings,
    bradley_terry,
    elo_scale,
    mean_ci,
    quantile,
    t_cdf,
    t_quantile,
    vp_rounds,
    win_matrix,
)
from burraco.cli.main import main
from burraco.engine import DISCARD, Action, find_rules
from burraco.engine.record import read_record, replay
from burraco.engine.views import SeatView
from burraco.engine.vp import VP3, VP4

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def settings_for(
    specs: Sequence[str], *, players: int = 2, deals: int = 2, seed: int = 7, rules: str = "italian"
) -> Settings:
    ruleset = find_rules(rules, players=players)
    entrants = [parse_entrant(s) for s in specs]
    return Settings(ruleset, seed, deals, tuple(make_tables(entrants, players)))


# ------------------------------------------------------------------------------ statistics


@pytest.mark.parametrize(
    ("p", "df", "expected"),
    [
        (0.975, 1, 12.706205),
        (0.975, 2, 4.302653),
        (0.975, 4, 2.776445),
        (0.975, 10, 2.228139),
        (0.975, 30, 2.042272),
        (0.95, 5, 2.015048),
        (0.995, 3, 5.840909),
    ],
)
def test_t_quantile_matches_the_tables(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=1e-6)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, abs=1e-6)
    assert t_cdf(expected, df) == pytest.approx(p, abs=1e-7)


def test_t_quantile_tends_to_the_normal() -> None:
    assert t_quantile(0.975, 1_000_000) == pytest.approx(1.959964, abs=1e-4)
    assert t_cdf(0.0, 3) == 0.5


def test_mean_ci_of_a_known_sample() -> None:
    # mean 3, s = sqrt(2.5), s/sqrt(5) = 0.707107, t(0.975, 4) = 2.776445: half-width 1.963243.
    ci = mean_ci([1, 2, 3, 4, 5])
    assert ci.mean == 3
    assert ci.sd == pytest.approx(math.sqrt(2.5))
    assert ci.low == pytest.approx(1.036757, abs=1e-6)
    assert ci.high == pytest.approx(4.963243, abs=1e-6)
    assert ci.n == 5
    ci90 = mean_ci([1, 2, 3, 4, 5], level=0.90)  # t(0.95, 4) = 2.131847
    assert ci90.half_width == pytest.approx(2.131847 * math.sqrt(0.5), abs=1e-6)


def test_mean_ci_of_tiny_samples() -> None:
    assert math.isnan(mean_ci([]).mean)
    one = mean_ci([10.0])
    assert one.mean == 10.0 and math.isnan(one.low) and math.isnan(one.high)
    same = mean_ci([4.0, 4.0, 4.0])
    assert (same.low, same.high) == (4.0, 4.0)


def test_quantile_interpolates() -> None:
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.25) == 1.75
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.0) == 1.0
    assert quantile([1.0, 2.0, 3.0, 4.0], 1.0) == 4.0
    assert quantile([5.0], 0.975) == 5.0


def test_bradley_terry_two_players() -> None:
    # 3 wins out of 4: p_A / p_B = 3, i.e. 400 log10(3) = 190.85 Elo points.
    p = bradley_terry([[0, 3], [1, 0]])
    assert p[0] / p[1] == pytest.approx(3.0)
    assert elo_scale(p, anchor=1) == pytest.approx([400 * math.log10(3), 0.0])
    # Ties count half: 2 wins, 2 ties, 0 losses -> 3 : 1 again.
    p = bradley_terry([[0, 3], [1, 0]])
    tied = bradley_terry([[0, 2 + 1], [0 + 1, 0]])
    assert tied == pytest.approx(p)


def test_bradley_terry_recovers_exact_strengths() -> None:
    # Strengths 1 : 2 : 4 and wins exactly as expected (n_ij p_i / (p_i + p_j)): the maximum
    # likelihood estimate is 1 : 2 : 4 itself.
    wins = [
        [0, 1, 1],  # A: 1 of 3 against B, 1 of 5 against C
        [2, 0, 2],  # B: 2 of 3 against A, 2 of 6 against C
        [4, 4, 0],  # C: 4 of 5 against A, 4 of 6 against B
    ]
    p = bradley_terry(wins)
    assert p[1] / p[0] == pytest.approx(2.0)
    assert p[2] / p[0] == pytest.approx(4.0)
    assert math.prod(p) == pytest.approx(1.0)  # geometric mean 1
    step = 400 * math.log10(2)
    assert elo_scale(p, anchor=0) == pytest.approx([0.0, step, 2 * step], abs=1e-6)
    assert elo_scale(p) == pytest.approx([-step, 0.0, step], abs=1e-6)


def test_bradley_terry_needs_a_prior_for_a_clean_sweep() -> None:
    with pytest.raises(ValueError, match="virtual_ties"):
        bradley_terry([[0, 10], [0, 0]])
    # One virtual tied game: 10.5 wins against 0.5, a ratio of 21.
    p = bradley_terry([[0, 10], [0, 0]], virtual_ties=1.0)
    assert p[0] / p[1] == pytest.approx(21.0)


def test_bootstrap_is_seeded_and_anchored() -> None:
    units = [[(0, 1, 1.0)]] * 30 + [[(1, 0, 1.0)]] * 10
    one = bootstrap_ratings([units], 2, samples=200, rng=random.Random(5), anchor=1)
    two = bootstrap_ratings([units], 2, samples=200, rng=random.Random(5), anchor=1)
    assert one == two
    assert one.ratings[1] == 0 and one.low[1] == 0 and one.high[1] == 0
    # Point estimate with one virtual tie per pair (0.5 games): 30.25 : 10.25.
    assert one.ratings[0] == pytest.approx(400 * math.log10(30.25 / 10.25))
    assert one.low[0] < one.ratings[0] < one.high[0]
    # A sample with no variation has a zero-width interval.
    even = [[(0, 1, 1.0)], [(1, 0, 1.0)]]
    flat = bootstrap_ratings(
        [[u for _ in range(5) for u in even]], 2, samples=50, rng=random.Random(1)
    )
    assert flat.ratings == pytest.approx([0.0, 0.0])
    assert win_matrix(even, 2) == [[0.0, 1.0], [1.0, 0.0]]


def test_vp_rounds_rules_example_v1() -> None:
    # RULES.md 6.8 V1: totals A 555, B 70 -> MP +485, VP-3 14-6; VP-4 12-8.
    deals: list[tuple[float, float] | None] = [(420, 40), (170, -230), (-35, 260)]
    (only,) = vp_rounds(deals)
    assert only.totals == (555, 70)
    assert only.mp == (485, -485)
    assert only.vp == (14, 6)
    assert vp_rounds(deals, table=VP4)[0].vp == (12, 8)


def test_vp_rounds_grouping() -> None:
    deals: list[tuple[float, float] | None] = [
        (100, 0),
        (0, 0),
        (0, 50),  # round 1: MP +50 -> 10-10
        (0, 600),
        (0, 0),
        (0, 0),  # round 2: MP -600 -> 5-15
        (10, 0),
        None,
        (0, 0),  # round 3: a deal missing -> left out
        (5, 0),  # incomplete round at the end -> left out
    ]
    rounds = vp_rounds(deals)
    assert [r.mp[0] for r in rounds] == [50, -600]
    assert [r.vp for r in rounds] == [(10, 10), (5, 15)]
    assert vp_rounds(deals, size=2, table=VP3)[0].mp == (100, -100)


def test_summarize_known_results() -> None:
    # Two players, A = greedy, B = random; (A's score, B's score) in play 0 (A at seat 0) and
    # play 1 (A at seat 1) of each deal. Deal 6 lacks its second play: left out.
    scores = [
        ((300, 100), (200, 250)),  # MP +200, -50: deal mean +75
        ((0, 0), (400, 0)),  # 0 (tied), +400: +200
        ((100, 160), (50, 50)),  # -60, 0 (tied): -30
        ((500, 0), (120, 20)),  # +500, +100: +300
        ((0, 90), (10, 0)),  # -90, +10: -40
        ((250, 250), (0, 700)),  # 0 (tied), -700: -350
        ((80, 0), None),
    ]
    settings = settings_for(["greedy", "random"], deals=7)
    results = []
    for deal, plays in enumerate(scores):
        for play, pair in enumerate(plays):
            if pair is None:
                continue
            layout = (0, 1) if play == 0 else (1, 0)
            seat_scores = pair if play == 0 else (pair[1], pair[0])
            results.append(
                GameResult(
                    specs=("greedy", "random"),
                    labels=("greedy", "random"),
                    deal=deal,
                    play=play,
                    layout=layout,
                    first=0,
                    scores=seat_scores,
                    result=seat_scores,
                    ended="closing",
                    turns=20,
                    decisions=tuple(10 if bot == 0 else 40 for bot in layout),
                    seconds=tuple(2.0 if bot == 0 else 0.1 for bot in layout),
                    faults=(0, 0),
                )
            )
    summary = summarize(settings, results, bootstrap=10)
    assert summary.incomplete == 1
    (p,) = summary.pairings
    assert (p.a, p.b, p.deals, p.smazzate) == ("greedy", "random", 6, 12)
    assert (p.side_a.won, p.side_b.won, p.tied) == (5, 4, 3)
    assert p.score_a == pytest.approx(100 * 6.5 / 12)
    assert p.unit_mp == [75, 200, -30, 300, -40, -350]
    assert p.mp.mean == pytest.approx(155 / 6)
    # s of the six deal means, and t(0.975, 5) = 2.570582
    units = [75, 200, -30, 300, -40, -350]
    sd = math.sqrt(sum((u - 155 / 6) ** 2 for u in units) / 5)
    assert p.mp.low == pytest.approx(155 / 6 - 2.570582 * sd / math.sqrt(6), abs=1e-4)
    assert p.mp.high == pytest.approx(155 / 6 + 2.570582 * sd / math.sqrt(6), abs=1e-4)
    # Rounds of deals 0-2 and 3-5 per layout. Play 0: A 400 - B 260 = +140 (VP 11-9), then
    # 750 - 340 = +410 (14-6); play 1: 650 - 300 = +350 (13-7), then 130 - 720 = -590 (5-15).
    assert (p.rounds, p.side_a.rounds_won, p.side_b.rounds_won, p.rounds_tied) == (4, 3, 1, 0)
    assert (p.side_a.vp_total, p.side_b.vp_total) == (43, 37)
    assert p.vp_a == pytest.approx(10.75)
    # Speed, complete deals only: A 12 x 10 decisions in 12 x 2 s, B 12 x 40 in 12 x 0.1 s.
    assert (p.side_a.decisions, p.side_b.decisions) == (120, 480)
    assert p.side_a.decisions_per_second == pytest.approx(5.0)
    assert p.side_b.decisions_per_second == pytest.approx(400.0)
    report = text_report(summary)
    assert "54.2" in report and "+25.8" in report


# ------------------------------------------------------------------------------ tables, seats


def test_entrants_and_bot_lists() -> None:
    assert parse_entrant("greedy") == Entrant("greedy", "greedy")
    assert parse_entrant("fast=search:seconds=0.1") == Entrant("fast", "search:seconds=0.1")
    assert parse_entrant("search:seconds=0.1") == Entrant(
        "search:seconds=0.1", "search:seconds=0.1"
    )
    assert parse_entrant("cmd:python bot.py --x=1").spec == "cmd:python bot.py --x=1"
    assert split_bot_list("random, greedy,search:seconds=0.5,rollouts=8,x=search:seconds=1") == [
        "random",
        "greedy",
        "search:seconds=0.5,rollouts=8",
        "x=search:seconds=1",
    ]
    assert split_bot_list("x=greedy,random,y=random") == ["x=greedy", "random", "y=random"]


def test_round_robin_and_pairings() -> None:
    bots = [parse_entrant(s) for s in ("a=random", "b=greedy", "c=random")]
    assert [t.label for t in make_tables(bots, 2)] == ["a vs b", "a vs c", "b vs c"]
    assert [t.label for t in make_tables(bots, 3)] == ["a vs b vs c"]
    assert [t.label for t in make_tables(bots, 4, [["c", "a"]])] == ["c vs a"]
    with pytest.raises(ValueError, match="no bot labelled"):
        make_tables(bots, 2, [["a", "z"]])
    with pytest.raises(ValueError, match="labelled 'random'"):
        make_tables([parse_entrant("random"), parse_entrant("random")], 2)
    with pytest.raises(ValueError, match="cannot seat"):
        make_tables(bots, 2, [["a", "b", "c"]])


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (2, 4), (3, 3), (2, 3)])
def test_every_bot_meets_every_seat_equally(bots: int, players: int) -> None:
    layouts = seat_layouts(bots, players)
    for seat in range(players):
        at_seat = Counter(layout[seat] for layout in layouts)
        assert len(set(at_seat.values())) == 1 and len(at_seat) == bots
    if players == 4:  # partners of the same bot form a line, then the lines swap
        assert layouts == ((0, 1, 0, 1), (1, 0, 1, 0))


class SpyBot(RandomBot):
    """Plays at random and notes the hand of its first decision (its dealt hand)."""

    seen: ClassVar[list[tuple[str, int, int, tuple[int, ...], int]]] = []

    def __init__(self, seed: int | None = None, *, tag: str = "", deal: int = -1) -> None:
        super().__init__(seed, name=f"spy-{tag}")
        self.tag = tag
        self.first_view = True

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self.first_view:
            self.first_view = False
            SpyBot.seen.append((self.tag, view.seat, view.first, view.hand, view.stock_size))
        return super().choose(view, legal)


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    SpyBot.seen = []
    monkeypatch.setitem(BOT_LEVELS, "spy", SpyBot)
    yield SpyBot.seen


@pytest.mark.parametrize("players", [2, 4])
def test_the_same_deck_reaches_each_bot_once_per_seat(
    spies: list[Any], players: int, tmp_path: Path
) -> None:
    settings = settings_for(["spy:tag=a", "spy:tag=b"], players=players, deals=3)
    for deal in range(3):
        hands: dict[tuple[str, int], tuple[int, ...]] = {}
        for task in plan(settings):
            if task.deal != deal:
                continue
            before = len(spies)
            result = play_game(task)
            assert result.error is None
            for tag, seat, first, hand, _ in spies[before:]:
                assert (tag, seat) not in hands  # each bot once per seat
                hands[(tag, seat)] = hand
                assert first == deal_of(settings.rules, settings.seed, deal)[1]
        assert len(hands) == 2 * players
        for seat in range(players):
            assert hands[("a", seat)] == hands[("b", seat)]  # the same cards at the same seat
    # The deck of a deal is the same whatever the table and the run.
    assert deal_of(settings.rules, 7, 1) == deal_of(settings.rules, 7, 1)
    assert deal_of(settings.rules, 7, 1) != deal_of(settings.rules, 7, 2)


def test_records_of_a_duplicate_pair_swap_the_players(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy"], deals=1)
    run_arena(settings, tmp_path, records=True)
    files = sorted((tmp_path / "records" / "random-vs-greedy").glob("*.toml"))
    assert [f.name for f in files] == ["deal-00001-play-1.toml", "deal-00001-play-2.toml"]
    one, two = (read_record(f.read_text(encoding="utf-8")) for f in files)
    assert one.players == ("random", "greedy") and two.players == ("greedy", "random")
    assert one.hands[0].deck == two.hands[0].deck
    assert one.hands[0].first == two.hands[0].first
    for record in (one, two):
        assert replay(record).error is None


# ------------------------------------------------------------------------------ resuming


def test_resume_skips_finished_games(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy"], deals=2)
    first, outcome = run_arena(settings, tmp_path)
    assert (outcome.played, outcome.skipped) == (4, 0)
    again, outcome = run_arena(settings, tmp_path)
    assert (outcome.played, outcome.skipped) == (0, 4)
    assert [r.to_json() for r in again] == [r.to_json() for r in first]
    more = settings_for(["random", "greedy"], deals=3)
    played: list[GameResult] = []
    results, outcome = run_arena(more, tmp_path, on_result=played.append)
    assert (outcome.played, outcome.skipped) == (2, 4)
    assert {r.deal for r in played} == {2}
    assert len(results) == 6 and len(read_results(tmp_path / RESULTS_FILE)) == 6


def test_resume_after_a_line_cut_short(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy"], deals=2)
    run_arena(settings, tmp_path)
    path = tmp_path / RESULTS_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40], encoding="utf-8")
    results, outcome = run_arena(settings, tmp_path)
    assert (outcome.played, outcome.skipped) == (2, 2)
    assert len(results) == 4
    assert len(read_results(path)) == 4


def test_the_same_game_gives_the_same_result(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy"], deals=1)
    a = [play_game(t).to_json() for t in plan(settings)]
    b = [play_game(t).to_json() for t in plan(settings)]
    for x, y in zip(a, b, strict=True):
        x.pop("seconds"), y.pop("seconds")
        assert x == y


def test_resume_refuses_other_settings(tmp_path: Path) -> None:
    run_arena(settings_for(["random", "greedy"], deals=1, seed=7), tmp_path)
    with pytest.raises(SettingsMismatch, match=r"seed 8 here, 7 there"):
        run_arena(settings_for(["random", "greedy"], deals=1, seed=8), tmp_path)
    with pytest.raises(SettingsMismatch, match=r"players 4 here, 2 there"):
        run_arena(settings_for(["random", "greedy"], deals=1, players=4), tmp_path)
    with pytest.raises(SettingsMismatch, match=r"rules \"classic\" here"):
        run_arena(settings_for(["random", "greedy"], deals=1, rules="classic"), tmp_path)
    # Other bots are fine: results are stored per table.
    _, outcome = run_arena(settings_for(["random", "x=random"], deals=1), tmp_path)
    assert outcome.played == 2


def test_cli_refuses_other_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "out")
    args = ["arena", "--bots", "random,greedy", "-n", "1", "-j", "1", "--out", out, "--quiet"]
    assert main([*args, "--no-chart"]) == 0
    assert main([*args, "--seed", "5"]) == 2
    err = capsys.readouterr().err
    assert "other settings" in err and "seed 5 here, 1 there" in err


# ------------------------------------------------------------------------------ faulty bots


class FaultyBot:
    """Raises on every third decision, answers an illegal action on every third, else random."""

    def __init__(self, seed: int | None = None, *, close_fails: bool = False) -> None:
        self.name = "faulty"
        self.rng = random.Random(seed)
        self.calls = 0
        self.close_fails = close_fails

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        self.calls += 1
        if self.calls % 3 == 1:
            raise RuntimeError("boom")
        if self.calls % 3 == 2:
            return Action(view.seat, DISCARD, ())  # never legal
        return self.rng.choice(list(legal))

    def close(self) -> None:
        if self.close_fails:
            raise OSError("cannot close")


class ReportingBot(RandomBot):
    """Like an outside bot: plays legally itself and reports the moves it lost in ``faults``."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, name="reporting")
        self.faults: Counter[str] = Counter(late=2, crashed=1)
        self.crash_reason = "exited with status 1"
        self.results: list[object] = []

    def notify_result(self, score: object) -> None:
        self.results.append(score)


def test_faulty_bots_are_replaced_by_auto_play_and_counted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(BOT_LEVELS, "faulty", FaultyBot)
    monkeypatch.setitem(BOT_LEVELS, "reporting", ReportingBot)
    settings = settings_for(
        ["faulty", "random", "reporting", "shy=faulty:close_fails=true"], deals=1
    )
    results, outcome = run_arena(settings, tmp_path, records=True)
    assert outcome.played == 12 and not outcome.failed
    for result in results:
        for seat, label in enumerate(result.labels[i] for i in result.layout):
            if label == "faulty":
                # one call in three raises, one in three is illegal
                assert result.faults[seat] == result.decisions[seat] - result.decisions[seat] // 3
            elif label == "shy":
                expected = result.decisions[seat] - result.decisions[seat] // 3 + 1
                assert result.faults[seat] == expected
            elif label == "reporting":
                assert result.faults[seat] == 3
            else:
                assert result.faults[seat] == 0
    notes = " ".join(n for r in results for n in r.notes)
    assert "raised RuntimeError: boom" in notes and "not a legal action" in notes
    assert "lost crashed 1, late 2 (exited with status 1)" in notes
    assert "close() raised OSError: cannot close" in notes
    summary = summarize(settings, results, bootstrap=20)
    by_label = {b.label: b for b in summary.bots}
    assert by_label["random"].faults == 0
    assert by_label["faulty"].faults == sum(
        r.faults[s] for r in results for s, i in enumerate(r.layout) if r.labels[i] == "faulty"
    )
    assert by_label["faulty"].fault_games == 6
    report = text_report(summary)
    assert "Faults" in report and "faulty:" in report
    for path in (tmp_path / "records").rglob("*.toml"):
        assert replay(read_record(path.read_text(encoding="utf-8"))).error is None


# ------------------------------------------------------------------------------ real runs


def burraco(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "burraco.cli.main", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=300,
        check=False,
    )


def check_outputs(out: Path, bots: set[str], pairings: int) -> None:
    report = (out / "report.txt").read_text(encoding="utf-8")
    assert "Pairings" in report and "Ratings" in report
    with (out / "pairings.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == pairings
    for row in rows:
        smazzate = int(row["smazzate"])
        assert int(row["a_won"]) + int(row["b_won"]) + int(row["tied"]) == smazzate
        low, mean, high = (float(row[k]) for k in ("mp_ci_low", "mp_mean", "mp_ci_high"))
        assert low <= mean <= high
        assert float(row["a_decisions_per_s"]) > 0
        assert int(row["a_rounds_won"]) + int(row["b_rounds_won"]) + int(row["rounds_tied"]) == int(
            row["rounds"]
        )
    with (out / "ratings.csv").open(encoding="utf-8", newline="") as handle:
        ratings = list(csv.DictReader(handle))
    assert {r["bot"] for r in ratings} == bots
    for r in ratings:
        assert float(r["ci_low"]) <= float(r["rating"]) <= float(r["ci_high"])
    anchor = [r for r in ratings if r["anchor"] == "1"]
    assert [r["bot"] for r in anchor] == ["random"] and float(anchor[0]["rating"]) == 0
    assert (out / "ratings.png").read_bytes()[:8] == PNG_MAGIC


def test_real_run_two_players_on_two_processes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["arena", "--bots", "greedy,random", "-n", "6", "-j", "2", "--out", str(out)]
    run = burraco(*args, "--records", "--bootstrap", "100", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "greedy" in run.stdout and "12 smazzate played" in run.stdout
    check_outputs(out, {"greedy", "random"}, 1)
    assert len(read_results(out / RESULTS_FILE)) == 12
    records = sorted((out / "records").rglob("*.toml"))
    assert len(records) == 12
    shown = burraco("replay", str(records[0]), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    checked = burraco("replay", "--json", str(records[-1]), cwd=tmp_path)
    assert checked.returncode == 0 and json.loads(checked.stdout)["players"] == ["random", "greedy"]
    # The same command again plays nothing and reports the same games.
    again = burraco(*args, "--no-chart", cwd=tmp_path)
    assert again.returncode == 0
    assert "0 smazzate played" in again.stdout and "12 from earlier runs" in again.stdout


def test_real_run_four_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(
        [
            *("arena", "--bots", "random,greedy", "--players", "4", "-n", "3", "-j", "1"),
            *("--out", str(out), "--bootstrap", "50", "--records"),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "4 players" in printed and "random  greedy" in printed
    check_outputs(out, {"greedy", "random"}, 1)
    results = read_results(out / RESULTS_FILE)
    assert sorted(r.layout for r in results) == [(0, 1, 0, 1)] * 3 + [(1, 0, 1, 0)] * 3
    for result in results:  # partners share their line's score
        assert result.scores[0] == result.scores[2] and result.scores[1] == result.scores[3]
    for path in (out / "records").rglob("*.toml"):
        assert replay(read_record(path.read_text(encoding="utf-8"))).error is None


def test_three_players_with_three_bots(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy", "g2=greedy"], players=3, deals=2)
    assert [t.label for t in settings.tables] == ["random vs greedy vs g2"]
    results, outcome = run_arena(settings, tmp_path)
    assert outcome.played == 6
    summary = summarize(settings, results, bootstrap=20)
    assert [(p.a, p.b) for p in summary.pairings] == [
        ("random", "greedy"),
        ("random", "g2"),
        ("greedy", "g2"),
    ]
    for pairing in summary.pairings:
        assert pairing.smazzate == 6 and pairing.deals == 2


def test_three_players_with_two_bots(tmp_path: Path) -> None:
    settings = settings_for(["random", "greedy"], players=3, deals=1)
    results, _ = run_arena(settings, tmp_path)
    assert len(results) == 6
    (pairing,) = summarize(settings, results, bootstrap=20).pairings
    assert pairing.smazzate == 6 and pairing.deals == 1


def test_outside_bot_in_the_arena(tmp_path: Path) -> None:
    example = ROOT / "examples" / "bots" / "random_bot.py"
    if not example.exists():
        pytest.skip("the example outside bot is not there")
    spec = f"outside=cmd:{sys.executable} {example}"
    settings = Settings(
        find_rules("italian"),
        3,
        1,
        (Table((parse_entrant(spec), parse_entrant("greedy"))),),
    )
    results, outcome = run_arena(settings, tmp_path)
    assert outcome.played == 2 and not outcome.failed
    assert all(sum(r.decisions) > 0 for r in results)
