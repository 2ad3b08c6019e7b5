"""The conformance suite (design §4): every registered game, every named variant, the smallest
and the largest seat count, through the protocol only."""
from __future__ import annotations

import json
from random import Random

import pytest

import games
from games import GameOverError, IllegalMoveError, InvalidMoveError, InvalidOptionsError, Outcome

CASES = [
    pytest.param(slug, variant, players, id=f"{slug}-{variant}-{players}p")
    for slug, game in sorted(games.GAMES.items())
    for variant in game.variants
    for players in sorted({game.min_players, game.max_players})
]
PLAYOUT_CAP = 5000          # every game ends by its own safeguards well before this
FULL_CHECK_PLIES = 12       # plies at the start of a playout on which every legal move is checked


def _json_roundtrip(value):
    return json.loads(json.dumps(value))


def _check_position(game, state, full: bool) -> None:
    moves = state.legal_moves()
    assert moves, "a position that is not over must offer a move"
    assert state.current_player is not None and 0 <= state.current_player < state.players
    checked = moves if full else moves[:3] + moves[-3:]
    for move in checked:
        text = str(move)
        assert state.parse_move(text) == move, f"notation {text!r} does not round-trip"
    assert game.state_from_dict(_json_roundtrip(state.to_dict())) == state
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        assert _json_roundtrip(view) == view
    assert isinstance(state.render_text(), str) and state.render_text()
    if full:
        assert state.render_svg().lstrip().startswith("<svg")


def _playout(game, variant, players, seed):
    state = game.new_state(players=players, seed=seed, variant=variant)
    rng, played, movers = Random(seed), [], []
    while not state.is_terminal:
        assert len(played) < PLAYOUT_CAP, "a random playout did not end"
        movers.append(state.current_player)
        full = len(played) < FULL_CHECK_PLIES or len(played) % 50 == 0
        _check_position(game, state, full)
        move = rng.choice(state.legal_moves())
        via_text = state.play(str(move))
        state = state.apply(move)
        assert via_text == state, "play(notation) and apply(move) disagree"
        played.append(str(move))
    if game.seats_take_first_turns_in_order:      # what the server counts on (an abort's window)
        first_round = movers[:players]
        assert len(set(first_round)) == len(first_round), f"a seat moved twice in the first round: {movers}"
    return state, played


@pytest.mark.parametrize("slug,variant,players", CASES)
def test_random_playouts_end_and_replay(slug, variant, players):
    game = games.get_game(slug)
    for seed in (1, 2):
        final, played = _playout(game, variant, players, seed)
        outcome = final.outcome
        assert isinstance(outcome, Outcome)
        assert final.current_player is None and final.legal_moves() == []
        assert len(outcome.scores) == players
        assert all(0 <= w < players for w in outcome.winners)
        assert outcome.termination in games.Termination
        with pytest.raises(GameOverError):
            final.play(played[-1])
        assert game.state_from_dict(_json_roundtrip(final.to_dict())) == final
        replayed = game.replay(players=players, seed=seed, variant=variant, moves=played)
        assert replayed == final
        assert _json_roundtrip(final.view(None)) == final.view(None)


@pytest.mark.parametrize("slug,variant,players", CASES)
def test_start_position_contract(slug, variant, players):
    game = games.get_game(slug)
    state = game.new_state(players=players, seed=7, variant=variant)
    assert state.ply == 0 and state.players == players and not state.is_terminal
    assert state == game.new_state(players=players, seed=7, variant=variant)
    assert hash(state) == hash(game.new_state(players=players, seed=7, variant=variant))
    with pytest.raises(InvalidMoveError):
        state.parse_move("%% not a move %%")
    with pytest.raises(InvalidMoveError):
        state.parse_move("")
    move = state.legal_moves()[0]
    assert state.play(move) == state.apply(move)
    assert state.play(str(move), seat=state.current_player) == state.apply(move)
    if players > 1:
        other = (state.current_player + 1) % players
        with pytest.raises(games.NotYourTurnError):
            state.play(move, seat=other)


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_catalogue_declaration(slug):
    game = games.get_game(slug)
    entry = game.describe()
    assert _json_roundtrip(entry) == entry
    assert entry["slug"] == slug and game.title and game.summary and game.rules_page
    assert 1 <= game.min_players <= game.max_players
    assert "standard" in game.variants and game.variant_of(game.normalize_options()) == "standard"
    defaults = game.normalize_options()
    assert set(defaults) == set(game.options)
    for name in game.variants:
        assert game.variant_of(game.normalize_options(None, name)) in game.variants
    with pytest.raises(InvalidOptionsError):
        game.normalize_options({"no_such_option": 1})
    with pytest.raises(InvalidOptionsError):
        game.new_state(players=game.max_players + 1)
    for name, spec in game.options.items():
        assert spec.validate(name, spec.default) == spec.default


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_illegal_moves_are_refused_without_change(slug):
    game = games.get_game(slug)
    state = game.new_state(players=game.min_players, seed=3)
    before = state.to_dict()
    legal = set(state.legal_notations())
    later = game.new_state(players=game.min_players, seed=3)
    rng = Random(5)
    # A move that is legal later in the game but not now must raise IllegalMoveError, through
    # parse_move and play alike; the refused position then plays on exactly as the stored one.
    for _ in range(40):
        if later.is_terminal:
            break
        later = later.apply(rng.choice(later.legal_moves()))
        for text in later.legal_notations():
            if text not in legal:
                try:
                    state.parse_move(text)
                except IllegalMoveError:
                    with pytest.raises(IllegalMoveError):
                        state.play(text)
                    first = state.legal_moves()[0]
                    assert state.play(first) == game.state_from_dict(before).play(first)
                    return
                except InvalidMoveError:
                    continue
    pytest.fail(f"{slug}: no move found that is well-formed here but illegal: the check never ran")


# -- views hide secrets (design §4) ----------------------------------------------------------------
SECRET_SEED = 2 ** 40 + 12345       # a seed no view could hold by chance


def _eleusis_secrets(truth: dict, seat: int | None) -> tuple[list[list[str]], list[str]]:
    """What `seat` may not see of a New Eleusis position, from its full truth (to_dict): the other
    seats' hands (but one shown by a pending No Play) and the stock order as card lists; the rule
    and its nonce before the round is over (God knows its own rule)."""
    from games.new_eleusis.cards import card_text

    shown = truth["pending"][0] if truth["pending"] and truth["pending"][1] == "noplay" else None
    lists = [[card_text(k) for k in hand] for other, hand in enumerate(truth["hands"])
             if other not in (seat, shown)]
    lists.append([card_text(k) for k in truth["stock"]])
    texts = [str(SECRET_SEED)]
    if truth["phase"] != "over" and seat != truth["god"]:
        texts += [t for t in (truth["rule_move"], truth["nonce"], truth["rule_option"]) if isinstance(t, str) and t]
    return [cards for cards in lists if len(cards) >= 2], texts


#: For each game with hidden information, how to read the secrets out of its truth.
SECRETS = {"new-eleusis": _eleusis_secrets}
HIDDEN_CASES = [
    pytest.param(slug, variant, players, options, id=f"{slug}-{variant}-{players}p-{'-'.join(options.values())}")
    for slug, game in sorted(games.GAMES.items()) if game.has_hidden_information
    for variant in game.variants
    for players in sorted({game.min_players, game.max_players})
    for options in ({}, {"god": "player"})
]


def _string_lists(value) -> list[list[str]]:
    """Every list of strings anywhere in a JSON value."""
    if isinstance(value, dict):
        return [found for item in value.values() for found in _string_lists(item)]
    if isinstance(value, list):
        own = [value] if value and all(isinstance(v, str) for v in value) else []
        return own + [found for item in value for found in _string_lists(item)]
    return []


def _assert_hidden(state, seat: int | None, secrets) -> None:
    view, text = state.view(seat), state.render_text(seat)
    hidden_lists, hidden_texts = secrets(state.to_dict(), seat)
    shown = json.dumps(view) + text + (state.render_svg(seat) if state.ply % 10 == 0 else "")
    for secret in hidden_texts:
        assert secret not in shown, f"seat {seat} sees {secret!r} at ply {state.ply}"
    seen = [sorted(cards) for cards in _string_lists(view)]
    for cards in hidden_lists:
        assert sorted(cards) not in seen and " ".join(cards) not in text, \
            f"seat {seat} sees cards it may not see {cards} at ply {state.ply}"


@pytest.mark.parametrize("slug,variant,players,options", HIDDEN_CASES)
def test_views_never_show_another_seats_secrets(slug, variant, players, options):
    game = games.get_game(slug)
    assert slug in SECRETS, f"{slug} hides information: say in SECRETS what its views must not show"
    state = game.new_state(players=players, seed=SECRET_SEED, options=options, variant=variant)
    rng = Random(11)
    while not state.is_terminal and state.ply < 150:
        for seat in [None, *range(players)]:
            _assert_hidden(state, seat, SECRETS[slug])
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("slug,variant,players", [c for c in CASES if not games.get_game(c.values[0]).has_hidden_information])
def test_without_hidden_information_every_seat_sees_the_spectators_view(slug, variant, players):
    game = games.get_game(slug)
    state, rng = game.new_state(players=players, seed=5, variant=variant), Random(5)
    for _ in range(60):
        spectator = state.view(None)
        assert all(state.view(seat) == spectator for seat in range(players)), f"ply {state.ply}"
        assert all(state.render_text(seat) == state.render_text(None) for seat in range(players))
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_moves()))
