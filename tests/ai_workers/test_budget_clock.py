"""Every engine reads the time through `Budget.clock` (design §2b): a benchmark that sets it to a
CPU clock (`bench.levels --cpu-time`) times the proofs and New Eleusis too. Here a clock that
leaps 1000 s a read stands in for it: a search given seconds stops at its first look at the time,
long before the wall clock would have stopped it."""
import itertools

import pytest

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.base import Budget
from ai_workers.engines.eleusis import HypothesisPool
from ai_workers.engines.pearl_proofs import _share
from ai_workers.engines.solvers import maze, yard


@pytest.fixture
def leaping_clock(monkeypatch):
    ticks = itertools.count(step=1000.0)
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: next(ticks)))


def test_the_maze_solver_reads_the_budget_clock(leaping_clock):
    found = maze.solve(games.get_game("pearl-maze").new_state(), seconds=1.0)
    assert not found.proven and found.positions <= 256      # the first look at the time
    assert found.seconds >= 1000.0                           # measured on the same clock


def test_the_yard_solver_reads_the_budget_clock(leaping_clock):
    found = yard.solve(games.get_game("pearl-yard").new_state(options={"size": 13}), seconds=1.0)
    assert found.winner is None and found.nodes <= 1024


def test_new_eleusis_rule_compiling_reads_the_budget_clock(monkeypatch):
    monkeypatch.setattr(Budget, "clock", staticmethod(lambda: 0.0))    # time stands still
    assert HypothesisPool().grow(3, deadline=0.5) == 3


def test_the_proof_engines_share_out_what_is_left_on_the_budget_clock(leaping_clock):
    budget = Budget(Limit(seconds=10_000.0))                 # read at 0: deadline 9199.996
    assert _share(budget, 0.5)["seconds"] == pytest.approx((9199.996 - 1000.0) * 0.5)


@pytest.mark.parametrize("slug,options", [("pearl-yard", {"size": 13}), ("pearl-maze", {})])
def test_a_proof_engine_answers_within_a_budget_on_another_clock(leaping_clock, slug, options):
    state = games.get_game(slug).new_state(options=options)
    result = get_engine(slug, "strong").search(state, limit=Limit(seconds=60.0))
    assert result.move in state.legal_moves() and result.seconds >= 60.0
