"""Any text sent as a move gets a legal move or a GameError (InvalidMoveError/IllegalMoveError),
never another exception: the server turns the former into 400s, the latter would be 500s."""
from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games

SLUGS = sorted(games.GAMES)


def _positions(slug):
    """The start and a few positions along a seeded random game."""
    game = games.get_game(slug)
    state = game.new_state(players=game.min_players, seed=4)
    rng = Random(9)
    out = [state]
    for _ in range(12):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_moves()))
        out.append(state)
    return [s for s in out if not s.is_terminal]


def _mutations(text: str, rng: Random) -> list[str]:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-+:/@>=x; NESWRLUDG*\"'\\{}()"
    chars = list(text)
    out = [text.upper(), text[:-1], text[1:], text + text, " " + text + " ", text.replace("-", ""),
           text[::-1], text + "9", "0" + text, text.replace("1", "99")]
    for _ in range(6):
        mutated = chars[:]
        if mutated:
            mutated[rng.randrange(len(mutated))] = rng.choice(alphabet)
        out.append("".join(mutated))
    return out


def _accepts_or_refuses(state, text: str) -> None:
    try:
        move = state.parse_move(text)
    except games.GameError:
        return
    assert move in state.legal_moves() or state.is_legal(move)


@pytest.mark.parametrize("slug", SLUGS)
def test_mutated_notations_are_parsed_or_refused_cleanly(slug):
    rng = Random(slug)
    for state in _positions(slug):
        for notation in state.legal_notations()[:25]:
            for text in _mutations(notation, rng):
                _accepts_or_refuses(state, text)


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=40))
def test_arbitrary_text_is_parsed_or_refused_cleanly(slug, text):
    game = games.get_game(slug)
    _accepts_or_refuses(game.new_state(players=game.min_players, seed=1), text)


JUNK_VALUES = [None, [], {}, "x", "", -1, 0, 10**9, 1.5, True, False, "true", "999", [1], {"op": "bogus"},
               {"op": "int"}, "rank(", "a1", "s19", "z99"]


@pytest.mark.parametrize("slug", SLUGS)
def test_junk_option_values_are_accepted_or_refused_cleanly(slug):
    game = games.get_game(slug)
    for name in game.options:
        for value in JUNK_VALUES:
            try:
                options = game.normalize_options({name: value})
            except games.InvalidOptionsError:
                continue
            try:
                game.new_state(players=game.min_players, seed=0, options=options)
            except games.InvalidOptionsError:
                continue
