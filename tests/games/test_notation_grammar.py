"""Each game's move grammar (games/notation.py) agrees with its parser and its move generator:
every example parses to a move that prints back as the example, and the canonical text of random
legal moves from random games matches one of the grammar's kinds."""
from __future__ import annotations

from random import Random

import pytest

import games
from games.notation import GRAMMARS

SLUGS = sorted(games.GAMES)
# Options under which every kind can occur (examples parse on any position: syntax only).
PLAYOUTS = {
    "glaisher": [{}, {"setup": "free"}],
    "new-eleusis": [{}, {"god": "player"}, {"express": True}],
    "ring-rugby": [{}, {"advanced": False}],
    "pearl-five": [{}, {"size": 15}],
}


def _start(slug: str, options: dict | None = None, seed: int = 1):
    game = games.get_game(slug)
    players = 4 if slug == "new-eleusis" else game.min_players
    return game.new_state(players=players, seed=seed, options=options or {})


def test_every_game_has_a_grammar():
    assert set(GRAMMARS) == set(games.GAMES)
    for slug in SLUGS:
        entry = games.get_game(slug).describe()["notation"]
        assert entry["kinds"] and all(k["examples"] and k["ebnf"] and k["regex"] for k in entry["kinds"])


def test_only_new_eleusis_lists_move_kinds_rather_than_every_move():
    incomplete = {slug for slug in SLUGS if not GRAMMARS[slug].legal_moves_complete}
    assert incomplete == {"new-eleusis"}
    unlisted = {k.name for k in GRAMMARS["new-eleusis"].kinds if not k.listed}
    assert unlisted == {"string", "guess", "rule", "rule text"}


@pytest.mark.parametrize("slug", SLUGS)
def test_examples_parse_and_print_back(slug):
    grammar = GRAMMARS[slug]
    state = _start(slug)
    for kind in grammar.kinds:
        for example in kind.examples:
            assert grammar.kind_of(example) is kind, (kind.name, example)
            move = state.parse_notation(example)
            assert str(move) == example


@pytest.mark.parametrize("slug", SLUGS)
def test_random_legal_moves_match_the_grammar(slug):
    grammar = GRAMMARS[slug]
    seen: set[str] = set()
    for options in PLAYOUTS.get(slug, [{}]):
        for seed in range(3):
            state, rng = _start(slug, options, seed), Random(seed)
            for _ in range(150):
                if state.is_terminal:
                    break
                legal = state.legal_notations()
                for text in rng.sample(legal, min(len(legal), 20)):
                    kind = grammar.kind_of(text)
                    assert kind is not None, text
                    seen.add(kind.name)
                state = state.play(rng.choice(legal))
    assert len(seen) >= min(2, len(grammar.kinds)), seen


def test_unlisted_new_eleusis_moves_follow_the_grammar_and_are_accepted():
    """A string play is legal though unlisted; it parses and matches the `string` kind."""
    state = _start("new-eleusis", seed=3)
    hand = state.view(state.current_player)["hand"]
    text = f"play {hand[0]} {hand[1]}"
    assert text not in state.legal_notations()
    assert GRAMMARS["new-eleusis"].kind_of(text).name == "string"
    assert state.play(text).ply == state.ply + 1
