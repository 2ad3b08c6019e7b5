"""Board pictures name their cells (`data-cell`) in the notation's spelling, so a page can map a
click to the cells a legal move names (the web match page's click-to-move)."""
from __future__ import annotations

import random
import re

import pytest

import games

CELL_TOKEN = re.compile(r"[A-Za-z]\d+")      # as web/static/web/board.js reads notation
DATA_CELL = re.compile(r'data-cell="([^"]+)"')
CLICKABLE = {"hasami-shogi", "dai-hasami-shogi", "mak-yek", "latrunculi", "pearl-war", "pearl-five",
             "pearl-survival", "glaisher", "ring-rugby"}


def _positions(rules: games.Game, count: int = 25):
    players = rules.min_players if rules.max_players == 1 else max(2, rules.min_players)
    state = rules.new_state(players=players, seed=7)
    rng = random.Random(7)
    for _ in range(count):
        if state.is_terminal:
            return
        yield state
        state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("slug", sorted(CLICKABLE))
def test_every_cell_a_legal_move_names_is_in_the_picture(slug):
    for state in _positions(games.get_game(slug)):
        cells = set(DATA_CELL.findall(state.render_svg(state.current_player)))
        named = {token for move in state.legal_notations() for token in CELL_TOKEN.findall(move)}
        assert named and named <= cells, named - cells


@pytest.mark.parametrize("slug", sorted(set(games.GAMES) - CLICKABLE))
def test_games_without_cells_in_their_moves(slug):
    for state in _positions(games.get_game(slug), 5):
        assert not any(CELL_TOKEN.search(m) for m in state.legal_notations())
