"""Pearl Survival's strong level (ai_workers/engines/pearl.py, SurvivalPushEvaluator): the slides
towards the opponent's pearl are found by geometry, include every push off the board, and are
searched on at the horizon, so a depth-1 search already avoids handing the opponent a push-off
(docs/engines.md §5.2)."""
from __future__ import annotations

from random import Random

import games
from ai_workers.engines import Limit, get_engine
from ai_workers.engines.alphabeta import AlphaBetaEngine
from ai_workers.engines.pearl import (SurvivalEngine, SurvivalEvaluator, SurvivalPushEvaluator,
                                      SurvivalSearch, pushes_toward)

GAME = games.get_game("pearl-survival")
STEPS = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}     # board.py: step = (w, 1, -w, -1)


def _positions(count: int, seed: int = 5) -> list:
    """Positions of two-seat games in play, reached by random set-ups and slides."""
    rng, out = Random(seed), []
    while len(out) < count:
        state = GAME.new_state(players=2, seed=rng.randrange(10**6))
        while not state.is_terminal:
            if not state.in_setup:
                out.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return out[:count]


def _pushes_off(state, move) -> bool:
    """The opponent's pearl leaves the board (eliminated, not dead of having no slide)."""
    child, them = state.apply(move), 1 - state.turn
    return child.pos[them] < 0 and not child.dead >> them & 1


def _toward_by_coordinates(state, move) -> bool:
    w = state.grid.w
    q, o = state.pos[state.turn], state.pos[1 - state.turn]
    dx, dy = STEPS[move.d]
    qx, qy, ox, oy = q % w, q // w, o % w, o // w
    steps = [t for t in range(1, 2 * state.size) if (qx + t * dx, qy + t * dy) == (ox, oy)]
    return bool(steps)


def test_pushes_toward_are_the_slides_pointing_at_the_opponent():
    for state in _positions(300):
        moves = state.legal_moves()
        toward = pushes_toward(state, moves)
        assert {str(m) for m in toward} == {str(m) for m in moves
                                           if _toward_by_coordinates(state, m)}
        assert [m.k for m in toward] == sorted((m.k for m in toward), reverse=True)


def test_every_push_off_the_board_is_a_push_toward():
    seen = 0
    for state in _positions(600, seed=11):
        moves = state.legal_moves()
        offs = {str(m) for m in moves if _pushes_off(state, m)}
        seen += bool(offs)
        assert offs <= {str(m) for m in pushes_toward(state, moves)}
    assert seen >= 10


def test_none_in_the_setup_or_with_more_seats():
    state = GAME.new_state(players=2, seed=1)
    assert pushes_toward(state, state.legal_moves()) == []
    state = GAME.new_state(players=3, seed=1)
    while state.in_setup:
        state = state.apply(state.legal_moves()[0])
    assert pushes_toward(state, state.legal_moves()) == []


def _hands_over(state, move) -> bool:
    """After `move`, the opponent can push the mover's pearl off at once."""
    child = state.apply(move)
    return not child.is_terminal and any(_pushes_off(child, m) for m in child.legal_moves())


def test_a_one_ply_search_sees_the_push_off_beyond_its_horizon():
    """Positions where some slides hand the opponent a push-off and others do not: at depth 1
    the strong level's quiescence plays one of the safe slides every time; the plain evaluator
    (no quiescence moves) does not."""
    cases = []
    for state in _positions(2000, seed=3):
        moves = state.legal_moves()
        if any(_pushes_off(state, m) for m in moves):
            continue
        bad = [m for m in moves if _hands_over(state, m)]
        if bad and len(bad) < len(moves):
            cases.append(state)
        if len(cases) == 12:
            break
    assert len(cases) >= 6
    strong = AlphaBetaEngine("strong", Limit(depth=1), SurvivalPushEvaluator())
    plain = AlphaBetaEngine("strong", Limit(depth=1), SurvivalEvaluator())
    plain_safe = 0
    for state in cases:
        move = strong.search(state, limit=Limit(depth=1), rng=Random(0)).move
        assert not _hands_over(state, move)
        plain_safe += not _hands_over(state, plain.search(state, limit=Limit(depth=1),
                                                          rng=Random(0)).move)
    assert plain_safe < len(cases)


def test_only_the_strong_level_uses_it():
    assert isinstance(get_engine("pearl-survival", "strong").evaluator, SurvivalPushEvaluator)
    for level in ("easy", "medium"):
        searcher = getattr(get_engine("pearl-survival", level), "searcher", None) \
            or get_engine("pearl-survival", level)
        assert type(searcher.evaluator) is SurvivalEvaluator


def _wins_at_once(state) -> bool:
    """The side to move wins with one slide (a push off the board, or leaving no slide)."""
    me = state.turn
    return any((c := state.apply(m)).is_terminal and c.outcome.winners == (me,)
               for m in state.legal_moves())


def _is_cramping_win(state, move) -> bool:
    """After `move`, the opponent has one or two slides, and each either loses at once or lets
    the mover push its pearl off the board: a win three plies deep, which a depth-1 search
    sees only by searching on."""
    child = state.apply(move)
    if child.is_terminal or len(child.legal_moves()) > SurvivalSearch.CRAMPED:
        return False
    replies = [child.apply(m) for m in child.legal_moves()]
    return all((r.is_terminal and r.outcome.winners == (state.turn,))
               or (not r.is_terminal and any(_pushes_off(r, m) for m in r.legal_moves()))
               for r in replies)


def test_the_strong_level_searches_on_where_the_opponent_is_cramped():
    """Positions without a win in one where a slide leaves the opponent one or two slides that
    all lose at once: the strong level's depth-1 search finds the win (its value); the same
    search without the extension does not every time."""
    cases = []
    for state in _positions(4000, seed=8):
        if not _wins_at_once(state) and any(_is_cramping_win(state, m)
                                            for m in state.legal_moves()):
            cases.append(state)
        if len(cases) == 10:
            break
    assert len(cases) >= 4
    strong = get_engine("pearl-survival", "strong")
    assert isinstance(strong, SurvivalEngine)
    plain = AlphaBetaEngine("strong", Limit(depth=1), SurvivalPushEvaluator())
    plain_found = 0
    for state in cases:
        result = strong.search(state, limit=Limit(depth=1), rng=Random(0))
        assert result.value > 0.99
        assert _is_cramping_win(state, result.move)
        plain_found += plain.search(state, limit=Limit(depth=1), rng=Random(0)).value > 0.99
    assert plain_found < len(cases)
