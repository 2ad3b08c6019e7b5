"""Level design and the level-table bench: deliberate errors, analysis without them, Elo figures."""
from __future__ import annotations

import math
from random import Random

import pytest

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.simple import Erring, RandomEngine
from ai_workers.engines.table import ERROR_RATES, get_analyser
from bench.levels import GameTask, Pairing, elo, play, seatings, tally, wilson

from .toygames import TicTacToe, TicTacToeState, tictactoe


class FirstMove(RandomEngine):
    """Always the first legal move: a stand-in search whose choice is known."""

    def _search(self, state, limit, rng, budget):
        found = super()._search(state, limit, rng, budget)
        first = state.legal_moves()[0]
        return type(found)(move=first, value=0.25, pv=[first], nodes=7)


def test_an_erring_level_errs_at_its_rate_and_keeps_the_search_value():
    state, engine = tictactoe("X..", ".O.", "..."), Erring(FirstMove("medium"), 0.3)
    first = state.legal_moves()[0]
    replies = [engine.search(state, limit=Limit(nodes=1), rng=Random(seed)) for seed in range(400)]
    errors = [r for r in replies if r.move != first]
    assert 0.22 < len(errors) / len(replies) < 0.38
    assert all(r.move in state.legal_moves() and r.pv == [r.move] for r in errors)
    assert all(r.value == 0.25 and r.nodes == 7 for r in replies)
    assert [r.move for r in replies[:20]] == [
        engine.search(state, limit=Limit(nodes=1), rng=Random(seed)).move for seed in range(20)]


def test_error_rates_fall_with_the_level_and_are_checked():
    assert ERROR_RATES["easy"] > ERROR_RATES["medium"] > ERROR_RATES["strong"] == 0.0
    with pytest.raises(ValueError):
        Erring(FirstMove("easy"), 1.5)


def test_play_levels_err_but_analysis_never_does():
    assert isinstance(get_engine("hasami-shogi", "medium"), Erring)
    assert not isinstance(get_engine("hasami-shogi", "strong"), Erring)
    analyser = get_analyser("hasami-shogi", "medium")
    assert not isinstance(analyser, Erring) and analyser.level == "medium"
    assert not isinstance(get_analyser("new-eleusis", "easy"), Erring)


def test_elo_and_its_wilson_interval():
    assert elo(0.5) == 0.0
    assert elo(0.64) == pytest.approx(100.0, abs=1.0)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    low, high = wilson(1.0, 100)
    assert 0.95 < low < 0.97 and high == 1.0          # unbeaten still has a finite lower bound
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(1 - high) and 0.40 < low < 0.41


def test_pairings_count_both_seat_orders_and_pairwise_scores():
    assert seatings(2, 4) == [(True, False), (False, True), (True, False), (False, True)]
    assert seatings(4, 2) == [(True, False, True, False), (False, True, False, True)]
    pairing = Pairing("g", "strong", "medium")
    tally(pairing, (True, False), {"ply": 10, "finished": True, "winners": [0], "scores": [1, 0]})
    tally(pairing, (False, True), {"ply": 20, "finished": True, "winners": [], "scores": [.5, .5]})
    tally(pairing, (False, True), {"ply": 30, "finished": False, "winners": [], "scores": []})
    assert (pairing.wins, pairing.draws, pairing.losses, pairing.capped) == (1, 2, 0, 1)
    assert pairing.games == 3 and pairing.score == pytest.approx(2 / 3)
    four = Pairing("g", "strong", "medium")
    tally(four, (True, False, True, False),
          {"ply": 5, "finished": True, "winners": [0], "scores": [9, 3, 3, 5]})
    # seat 0 (9) beats seats 1 (3) and 3 (5); seat 2 (3) ties seat 1 and loses to seat 3
    assert (four.wins, four.draws, four.losses) == (2, 1, 1)
    assert four.games == 1 and four.score == pytest.approx(0.625)
    four.points, four.games = 62.5, 100      # the interval counts games, not meetings
    assert four.interval()[0] == pytest.approx(elo(wilson(0.625, 100)[0]))


def test_a_bench_game_is_reproducible_from_its_plain_data(monkeypatch):
    monkeypatch.setitem(games.GAMES, TicTacToe.slug, TicTacToeState.game)
    task = GameTask(TicTacToe.slug, None, (("strong", 200), ("random", 1)), seed=3,
                    opening_plies=2, max_plies=20)
    first = play(task)
    assert first == play(task) and first["finished"] and first["ply"] <= 9


def test_a_cpu_time_bench_game_times_its_searches_in_cpu_seconds(monkeypatch):
    import time

    from ai_workers.engines.base import Budget
    monkeypatch.setitem(games.GAMES, TicTacToe.slug, TicTacToeState.game)
    seen = []
    original = Budget.__init__

    def spy(self, limit):
        original(self, limit)
        seen.append((limit, Budget.clock))
    monkeypatch.setattr(Budget, "__init__", spy)
    task = GameTask(TicTacToe.slug, None, (("strong", 0.004), ("random", None)), seed=3,
                    opening_plies=2, max_plies=20, cpu_time=True)
    assert play(task)["finished"]
    timed = [(limit, clock) for limit, clock in seen if limit.seconds is not None]
    assert timed and all(limit == Limit(seconds=0.004) and clock is time.process_time
                         for limit, clock in timed)
    assert Budget.clock is time.perf_counter          # restored after the game


def test_the_report_has_a_row_per_game_and_a_cell_per_pairing():
    from bench.levels import report
    unbeaten = Pairing("glaisher", "easy", "random", wins=100, games=100, points=100.0).as_dict()
    close = Pairing("glaisher", "strong", "medium", wins=60, draws=10, losses=30, games=100,
                    points=65.0).as_dict()
    text = report([unbeaten, close], [], 100, 0.02, 2)
    row = next(line for line in text.splitlines() if line.startswith("| glaisher |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
    assert cells[0].startswith("100 % (100/0/0), +∞ [+5") and cells[1] == "—"
    assert cells[2].startswith("65 % (60/10/30), +108 [") and cells[3] == "—"


# -- sequential testing and the strength table (bench.levels --sprt --strength) ------------------

def _pairing(wins: int, draws: int, losses: int):
    pairing = Pairing("g", "medium", "easy")
    for result, n in ((1.0, wins), (0.5, draws), (0.0, losses)):
        for _ in range(n):
            pairing.games += 1
            pairing.points += result
            pairing.points_sq += result * result
    return pairing


def test_the_sprt_accepts_a_clear_gap_rejects_none_and_waits_in_between():
    from types import SimpleNamespace

    from bench.levels import sprt_bounds, sprt_decision, sprt_llr

    args = SimpleNamespace(elo0=0.0, elo1=100.0, alpha=0.05, beta=0.05, min_games=10)
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert sprt_decision(_pairing(4, 0, 0), args) is None               # too few games yet
    assert sprt_decision(_pairing(18, 0, 2), args) == "H1"
    assert sprt_decision(_pairing(40, 20, 40), args) == "H0"           # even: no gap
    assert sprt_decision(_pairing(7, 0, 5), args) is None              # 58 %: not yet decided
    # the LLR grows with the evidence, and a score between s0 and s1 sits between the bounds
    assert sprt_llr(_pairing(30, 0, 10), 0, 100) > sprt_llr(_pairing(15, 0, 5), 0, 100) > 0


def test_the_strength_table_chains_the_gaps_up_from_random():
    from bench.levels import level_strength

    rows = [{**_pairing(15, 0, 5).as_dict(), "a": a, "b": b, "decision": "H1"}
            for a, b in (("easy", "random"), ("medium", "easy"))]
    rows.append({**_pairing(10, 0, 0).as_dict(), "a": "strong", "b": "medium", "decision": "H1"})
    table = level_strength(rows)
    gap = elo(0.75)
    assert table["random"]["elo"] == 0.0
    assert table["easy"]["elo"] == pytest.approx(gap, abs=0.1) and table["easy"]["games"] == 20
    assert table["medium"]["elo"] == pytest.approx(2 * gap, abs=0.2) and table["medium"]["games"] == 40
    assert table["medium"]["elo_low"] < table["medium"]["elo"] < table["medium"]["elo_high"]
    # unbeaten at the top: unbounded above, with a finite lower bound
    assert table["strong"]["elo"] is None and table["strong"]["elo_high"] is None
    assert table["strong"]["elo_low"] > table["medium"]["elo_low"] and table["strong"]["games"] == 50


def test_a_sequential_run_stops_when_decided_and_writes_the_table(tmp_path, monkeypatch):
    import json

    import bench.levels as bench

    played = []

    def rigged(task):               # the stronger level always wins: decided after --min-games
        played.append(task)
        winner = next(seat for seat, (level, _) in enumerate(task.seats) if level == max(
            (lvl for lvl, _ in task.seats), key=["random", "easy", "medium", "strong"].index))
        return {"ply": 10, "finished": True, "winners": [winner], "scores": []}

    monkeypatch.setattr(bench, "play", rigged)
    monkeypatch.setattr(bench, "node_budget", lambda *args: 5)
    out = tmp_path / "strength.json"
    out.write_text(json.dumps({"games": {"other": {"levels": {}, "run": {}, "pairings": []}}}))
    assert bench.main(["hasami-shogi", "--sprt", "--games", "40", "--workers", "1", "--min-games", "6",
                       "--strength", str(out)]) == 0
    assert len(played) == 3 * 6                   # every pairing stopped at its sixth game
    data = json.loads(out.read_text())
    assert "other" in data["games"]               # merged, not replaced
    entry = data["games"]["hasami-shogi"]
    assert [p["decision"] for p in entry["pairings"]] == ["H1", "H1", "H1"]
    assert entry["levels"]["strong"]["games"] == 18 and entry["run"]["sprt"]["elo1"] == 100.0
    assert entry["run"]["command"].startswith("python -m bench.levels hasami-shogi --sprt")


def test_pearl_maze_s_walks_are_written_as_its_strength(tmp_path, monkeypatch):
    """A puzzle has no opponent: its levels' strength is the walk each finds from each standard
    start, written beside the other games' Elo tables (kept)."""
    import json

    import bench.levels as bench

    monkeypatch.setenv("PEARLSITE_SOLUTIONS", str(tmp_path / "solutions"))
    walked = {"random": 7, "easy": 50, "medium": 60, "strong": 66}
    monkeypatch.setattr(bench, "puzzle_walks", lambda args: [
        {"variant": variant, "level": level, "nodes": 100, "walk": float(steps + offset)}
        for variant, offset in (("standard", 0), ("outside", 5)) for level, steps in walked.items()])
    out = tmp_path / "strength.json"
    out.write_text(json.dumps({"games": {"hasami-shogi": {"levels": {}, "run": {}, "pairings": []}}}))
    assert bench.main(["pearl-maze", "--puzzle-scale", "1", "--strength", str(out)]) == 0
    data = json.loads(out.read_text())["games"]
    assert "hasami-shogi" in data
    maze = data["pearl-maze"]
    assert maze["levels"]["strong"]["walks"] == {"standard": 66, "outside": 71}
    assert maze["levels"]["random"]["walks"] == {"standard": 7, "outside": 12}
    assert maze["run"]["scale"] == 1.0 and maze["run"]["sprt"] is None
    assert maze["run"]["solution_files"] == []          # none in the test's solutions folder
    assert maze["run"]["command"] == "python -m bench.levels pearl-maze --puzzle-scale 1 --strength " + str(out)


def test_the_strength_file_renders_as_the_docs_table():
    from bench.levels import strength_report

    unbeaten = {"elo": None, "elo_low": 198.0, "elo_high": None, "games": 12}
    data = {"games": {
        "hasami-shogi": {"levels": {"random": {"elo": 0.0}, "easy": unbeaten,
                                    "medium": {"elo": 450.4, "elo_low": 300.0, "elo_high": 700.0, "games": 30},
                                    "strong": {**unbeaten, "elo_low": 500.0, "games": 42}},
                         "run": {"scale": 0.02},
                         "pairings": [{"a": "easy", "b": "random", "wins": 12, "draws": 0, "losses": 0,
                                       "llr": 72.27, "decision": "H1"}]},
        "pearl-maze": {"run": {"scale": 1.0},
                       "levels": {level: {"walks": {"standard": steps}} for level, steps in
                                  (("random", 7), ("easy", 58), ("medium", 62), ("strong", 69))}}}}
    text = strength_report(data)
    assert "| hasami-shogi | 0.02 × | ≥ +198 (12) | +450 [+300, +700] (30) | ≥ +500 (42) | easy−random 12/0/0 LLR +72.3 H1 |" in text
    assert "| pearl-maze at 1 ×: walk from | random | easy | medium | strong |" in text
    assert "| standard | 7 | 58 | 62 | 69 |" in text


def test_new_eleusis_s_record_says_its_levels_played_their_own_budgets(tmp_path, monkeypatch):
    import json

    import bench.levels as bench

    monkeypatch.setattr(bench, "play", lambda task: {"ply": 20, "finished": True, "winners": [],
                                                     "scores": [2 if lvl in ("easy", "strong") else 1
                                                                for lvl, _ in task.seats]})
    out = tmp_path / "strength.json"
    assert bench.main(["new-eleusis", "--sprt", "--games", "12", "--workers", "1", "--scale", "0.02",
                       "--strength", str(out)]) == 0
    run = json.loads(out.read_text())["games"]["new-eleusis"]["run"]
    assert run["scale"] == 1.0 and run["budgets"] == "seconds"
