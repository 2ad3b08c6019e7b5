"""Every registered game: each level answers legally and quickly from the start and mid-game;
per-game engine knowledge on the documented cases (docs/rules/)."""
from __future__ import annotations

import time
from random import Random

import pytest

import games
from ai_workers.engines import LEVELS, Limit, get_engine, levels_for

SMOKE_NODES = 60          # node budget per search: fast and deterministic


def _midgame(slug: str, plies: int = 16):
    game = games.get_game(slug)
    state = game.new_state(players=game.min_players, seed=5)
    rng = Random(11)
    for _ in range(plies):
        moves = state.legal_moves()
        if state.is_terminal or not moves:
            break
        following = state.apply(rng.choice(moves))
        if following.is_terminal:
            break
        state = following
    return state


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_every_level_answers_legally_at_the_start_and_mid_game(slug):
    game = games.get_game(slug)
    # Legal, not merely listed: some games accept moves they do not list (Eleusis strings).
    for state in (game.new_state(players=game.min_players, seed=5), _midgame(slug)):
        for level in LEVELS:
            engine = get_engine(slug, level)
            started = time.perf_counter()
            result = engine.search(state, limit=Limit(nodes=SMOKE_NODES, seconds=2.0),
                                   rng=Random(0))
            assert time.perf_counter() - started < 2.5
            assert state.is_legal(result.move), (slug, level, result.move)
            assert -1.0 <= result.value <= 1.0
            assert engine.default_limit.is_bounded


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_level_budgets_grow_with_the_level(slug):
    table = levels_for(slug)
    seconds = [table[level]().default_limit.seconds or 0.0 for level in LEVELS]
    assert seconds == sorted(seconds)


# -- Hasami family (docs/rules/hasami.md §6, §7) ----------------------------------------------------
def _hasami(**kwargs):
    from games.hasami import HasamiShogi
    return HasamiShogi.instance.position(**kwargs)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_hasami_takes_the_custodial_run(level):
    state = _hasami(black=["c5", "f3", "a1"], white=["d5", "e5", "i9"], to_move=0)
    result = get_engine("hasami-shogi", level).search(state, limit=Limit(nodes=3000), rng=Random(0))
    assert str(result.move) == "f3-f5" and result.value > 0.2


def test_hasami_answers_the_lead_with_the_only_capture():
    # docs/rules/hasami.md §6 case 12: White trails by 3 and must capture at once.
    state = _hasami(black=["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "e5"],
                    white=["a9", "b9", "c9", "d5", "f9", "g9"], to_move=1, captures=(3, 0))
    result = get_engine("hasami-shogi", "medium").search(state, limit=Limit(nodes=3000),
                                                           rng=Random(0))
    assert str(result.move) == "f9-f5"


def test_hasami_wins_with_the_goal_capture():
    # docs/rules/hasami.md §6 case 13: f3-f5 brings Black to 6 captures.
    state = _hasami(black=["a1", "b1", "c1", "d1", "i1", "c5", "f3"],
                    white=["a9", "b9", "c9", "d5", "e5"], to_move=0, captures=(4, 2))
    result = get_engine("hasami-shogi", "easy").search(state, limit=Limit(nodes=2000), rng=Random(0))
    assert str(result.move) == "f3-f5" and result.value > 0.99


def test_hasami_does_not_step_into_a_capture():
    # Black to move; moving the e3 man to e6 would put it between White's e7 and an e5 that
    # White closes at once from a5; a strong search keeps material level instead.
    state = _hasami(black=["e3", "a1", "i1"], white=["e7", "a5", "i9"], to_move=0)
    result = get_engine("hasami-shogi", "strong").search(state, limit=Limit(nodes=4000),
                                                           rng=Random(0))
    after = state.apply(result.move)
    replies = get_engine("hasami-shogi", "strong").search(after, limit=Limit(nodes=4000),
                                                            rng=Random(0))
    assert after.apply(replies.move).captures[1] == 0


# -- Glass Pearl games (docs/rules/pearl.md §10) -----------------------------------------------------
def _longest_walk(state) -> int:
    if state.is_terminal:
        return 0
    return 1 + max(_longest_walk(state.apply(m)) for m in state.legal_moves())


def test_maze_solver_finds_the_longest_walk_of_a_small_square():
    state = games.get_game("pearl-maze").new_state(options={"n": 3})
    result = get_engine("pearl-maze", "medium").search(state, limit=Limit(nodes=5000),
                                                         rng=Random(0))
    best = _longest_walk(state)
    assert len(result.pv) == best and result.pv[0] == result.move
    end = state
    for move in result.pv:
        end = end.play(move)
    assert end.is_terminal and end.outcome.scores == (float(best),)


def test_maze_solver_reaches_a_goal():
    game = games.get_game("pearl-maze")
    state = game.new_state(options={"n": 3})
    far = state
    while not far.is_terminal:          # some point the black pearl can reach
        far = far.apply(far.legal_moves()[-1])
    goal = far.grid.names[far.black]
    puzzle = game.new_state(options={"n": 3, "goal": goal})
    result = get_engine("pearl-maze", "easy").search(puzzle, limit=Limit(nodes=5000),
                                                       rng=Random(0))
    end = puzzle
    for move in result.pv:
        end = end.play(move)
    assert result.value == 1.0 and end.outcome.winners == (0,)


def test_maze_solver_keeps_to_its_node_budget():
    state = games.get_game("pearl-maze").new_state()
    result = get_engine("pearl-maze", "medium").search(state, limit=Limit(nodes=300),
                                                         rng=Random(0))
    assert result.nodes == 300 and result.move in state.legal_moves() and len(result.pv) > 10


def test_yard_police_wins_from_the_cross():
    state = games.get_game("pearl-yard").new_state()
    result = get_engine("pearl-yard", "strong").search(state, limit=Limit(nodes=9000),
                                                         rng=Random(0))
    assert result.value > 0.9


# -- Ring Rugby and Glaisher ------------------------------------------------------------------
def test_ring_rugby_scores_a_goal_in_one():
    from games.ring_rugby import position
    state = position({"c12": "B*", "a2": "B", "f11": "W*", "a11": "W"}, to_move=0)
    result = get_engine("ring-rugby", "easy").search(state, limit=Limit(nodes=2000), rng=Random(0))
    after = state.apply(result.move)
    assert after.is_terminal and after.outcome.winners == (0,) and result.value > 0.99


def test_glaisher_finds_the_winning_split_and_the_winning_placement():
    # docs/rules/glaisher.md §6 cases 8 and 9.
    game = games.get_game("glaisher")
    chain = "R1 a5 b5 c5 d5 f5 g5 g4 g3 R3 e3 Y6 b2 Y6 h8"
    state = game.position(chain)
    result = get_engine("glaisher", "easy").search(state, limit=Limit(nodes=3000), rng=Random(0))
    assert str(result.move) == "e3:2+1/E" and result.value > 0.99
    state = game.position(chain.replace(" g3", ""))
    result = get_engine("glaisher", "medium").search(state, limit=Limit(nodes=3000), rng=Random(0))
    assert str(result.move) in {"e3:2+1/E @g3", "e3:2+1/E @h4", "e3:2+1/NW @e5"}


@pytest.mark.parametrize("players", [3, 4])
def test_survival_many_seats_search_with_per_seat_values(players):
    state = games.get_game("pearl-survival").new_state(players=players, seed=2)
    rng = Random(4)
    for _ in range(players + 2):
        state = state.apply(rng.choice(state.legal_moves()))
    assert not state.is_terminal
    result = get_engine("pearl-survival", "strong").search(state, limit=Limit(nodes=150),
                                                             rng=Random(0))
    assert result.move in state.legal_moves() and result.nodes == 150
    assert -1.0 <= result.value <= 1.0


# -- determinism and the clock on real games ----------------------------------------------------
@pytest.mark.parametrize("slug", ["hasami-shogi", "glaisher", "pearl-war", "ring-rugby"])
def test_search_is_deterministic_for_a_seed_and_node_budget(slug):
    state = _midgame(slug, plies=6)
    engine = get_engine(slug, "strong")
    first = engine.search(state, limit=Limit(nodes=120), rng=Random(7))
    again = get_engine(slug, "strong").search(state, limit=Limit(nodes=120), rng=Random(7))
    assert (first.move, first.value, first.pv, first.nodes) == \
        (again.move, again.value, again.pv, again.nodes)


@pytest.mark.parametrize("slug", ["glaisher", "pearl-war"])
def test_slow_games_keep_to_the_clock(slug):
    state = _midgame(slug, plies=6)
    started = time.perf_counter()
    result = get_engine(slug, "medium").search(state, limit=Limit(seconds=0.3), rng=Random(0))
    wall = time.perf_counter() - started
    assert wall <= 0.33 + 0.02 and result.seconds <= 0.33 + 0.02


# -- hidden information ---------------------------------------------------------------------------
class _SealedState:
    """A hidden-information state that lets an engine see only the seat's own options and view."""

    def __init__(self, state):
        self._state = state
        self.game, self.players, self.ply = state.game, state.players, state.ply
        self.current_player, self.is_terminal = state.current_player, state.is_terminal

    def legal_moves(self):
        return self._state.legal_moves()

    def view(self, seat):
        assert seat == self.current_player, "an engine read another seat's view"
        return self._state.view(seat)

    def __getattr__(self, name):
        raise AssertionError(f"a hidden-information engine touched state.{name}")


@pytest.mark.parametrize("slug", sorted(s for s, g in games.GAMES.items()
                                        if g.has_hidden_information))
def test_hidden_information_engines_use_only_own_options(slug):
    state = _midgame(slug, plies=5)
    sealed = _SealedState(state)
    for level in LEVELS:
        result = get_engine(slug, level).search(sealed, limit=Limit(nodes=50), rng=Random(1))
        assert state.is_legal(result.move)


def test_latrunculi_completes_a_blockade_of_the_dux():
    from games.hasami import Latrunculi
    state = Latrunculi.instance.position(black=["a1"], white=["a2", "c1", "f7"],
                                         duces=["a1", "f7"], to_move=1)
    result = get_engine("latrunculi", "easy").search(state, limit=Limit(nodes=2000),
                                                      rng=Random(0))
    assert str(result.move) == "c1-b1" and result.value > 0.99


@pytest.mark.parametrize("slug,variant", [(slug, variant)
                                          for slug, game in sorted(games.GAMES.items())
                                          for variant in game.variants if variant != "standard"])
def test_named_variants_get_legal_replies(slug, variant):
    game = games.get_game(slug)
    state = game.new_state(players=game.min_players, seed=3, variant=variant)
    rng = Random(2)
    for _ in range(8):
        following = state.apply(rng.choice(state.legal_moves()))
        if following.is_terminal:
            break
        state = following
    result = get_engine(slug, "strong").search(state, limit=Limit(nodes=80), rng=Random(0))
    assert state.is_legal(result.move)
