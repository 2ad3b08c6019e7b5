"""New Eleusis engines (ai_workers/engines/eleusis.py, docs/rules/eleusis.md §8): legal answers at every
level and phase, no hidden information read, induction that plays right cards, Prophet calls,
Express guesses, the player God's bank pick, and the time budget."""
from __future__ import annotations

from random import Random

import pytest

import games
from ai_workers.engines import LEVELS, Limit, RandomEngine, get_engine, levels_for
from ai_workers.engines.eleusis import (
    EleusisEngine, HumanJudgmentError, HypothesisPool, Situation, STYLES,
)
from games.new_eleusis import EleusisState, Judge, NoPlay, Play, bank
from games.new_eleusis.cards import card_text, is_red, make_kind, parse_card, rank_of

SLUG = "new-eleusis"
R1 = "color(cur) != color(prev)"
R2 = "suit(cur) == next_suit(suit(prev))"
NODES = 120               # candidate rules per search: fast and deterministic
GAME = games.get_game(SLUG)


def new(seed: int = 0, **options) -> EleusisState:
    return GAME.new_state(players=5, seed=seed, options=options)


def engine(level: str):
    return get_engine(SLUG, level)


def search(state, level: str = "strong", seed: int = 0, nodes: int = NODES):
    return engine(level).search(state, limit=Limit(nodes=nodes, seconds=5.0), rng=Random(seed))


def sealed(state):
    """The state as an engine may see it: the view of the seat to move, that seat's moves, and
    playing on. Nothing else (to_dict, hands, stock, rule) can be reached."""
    class Sealed:
        __slots__ = ()
        current_player = property(lambda self: state.current_player)
        is_terminal = property(lambda self: state.is_terminal)
        players = property(lambda self: state.players)

        def view(self, seat):
            assert seat == state.current_player, "the engine read another seat's view"
            return state.view(seat)

        def legal_moves(self):
            return state.legal_moves()

        def string_moves(self, max_len=4):
            return state.string_moves(max_len)

        def play(self, move):
            return sealed(state.play(move))

        def apply(self, move):
            return sealed(state.apply(move))

        def __getattr__(self, name):
            raise AssertionError(f"the engine touched state.{name}")

    return Sealed()


def positions(state: EleusisState, seed: int, every: int = 7, plies: int = 60):
    """Positions along a seeded random game: the start and every `every` plies."""
    rng = Random(seed)
    out = [state]
    for ply in range(1, plies + 1):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_moves()))
        if ply % every == 0 and not state.is_terminal:
            out.append(state)
    return out


def turn_with(state: EleusisState, seat_cards: str) -> EleusisState:
    """The same position with the seat on turn holding `seat_cards`."""
    return state.with_position(hands={state.turn: seat_cards})


def alternating_history(seed: int = 0, right: int = 12, **options) -> EleusisState:
    """An R1 round where the seats on turn played `right` right cards (every third of the rank
    just played) and now and then a wrong one."""
    state = new(seed, rule=R1, **options)
    for i in range(right):
        prev = state.mainline[-1]
        black, red = "SC"[i // 2 % 2], "HD"[i % 2]
        rank = rank_of(prev) if i % 3 == 0 else i * 5 % 13 + 1
        good = card_text(make_kind(rank, "SHDC".index(black if is_red(prev) else red)))
        bad = card_text(make_kind(i * 7 % 13 + 1, "SHDC".index(red if is_red(prev) else black)))
        if i % 4 == 3:
            state = turn_with(state, f"{bad} {good} 4S 4H").play(f"play {bad}")
        state = turn_with(state, f"{good} 4S 4H 9C").play(f"play {good}")
    return state


# -- the table --------------------------------------------------------------------------------
def test_every_level_is_registered():
    table = levels_for(SLUG)
    assert set(LEVELS) <= set(table)
    assert isinstance(engine("random"), RandomEngine)
    for level in LEVELS[1:]:
        assert isinstance(engine(level), EleusisEngine)
        assert engine(level).style == STYLES[level]


# -- legality -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"express": True}, {"god": "player"},
                                     {"god": "player", "express": True}],
                         ids=["machine", "express", "player-god", "player-god-express"])
def test_every_level_answers_legally_along_random_games(options, monkeypatch):
    def forbidden(self):
        raise AssertionError("an engine read to_dict")
    states = positions(new(3, **options), seed=4)
    monkeypatch.setattr(EleusisState, "to_dict", forbidden)
    assert len(states) >= 4
    for state in states:
        for level in LEVELS:
            result = search(state, level)
            state.play(result.move)                              # validated: raises if illegal
            assert result.pv == [result.move]
            assert -1.0 <= result.value <= 1.0


def test_strings_no_play_and_declarations_are_legal_plays():
    state = alternating_history(right=14)
    seen = set()
    for seed in range(4):
        for level in ("medium", "strong"):
            for cards in ("5H 8D 6S 3C JH QS", "4H 4D 5H 6D", "4S 4C 5S 6C", "5H 6S 8D 3C 9H 7C"):
                position = turn_with(state.with_position(turn=seed % 5), cards)
                move = search(position, level, seed).move
                position.play(move)
                seen.add(type(move).__name__ if not isinstance(move, Play) else len(move.cards))
    assert NoPlay.__name__ in seen and any(isinstance(k, int) and k > 1 for k in seen)


def test_the_engine_reads_only_its_own_view():
    states = positions(new(5), seed=6) + positions(new(5, god="player"), seed=7, plies=9)
    states += positions(new(5, express=True), seed=8)
    states.append(prophet_call(alternating_history(), "play 9C"))
    for state in states:
        for level in LEVELS:
            result = engine(level).search(sealed(state), limit=Limit(nodes=60), rng=Random(1))
            state.play(result.move)


def test_a_search_is_deterministic_for_a_node_budget():
    state = positions(new(9, rule=R2), seed=9)[-1]
    assert search(state, "strong", 3).move == search(state, "strong", 3).move


# -- induction ----------------------------------------------------------------------------------
def right_rate(level: str, seeds=range(3)) -> float:
    """Seat 0's share of right card plays (strings count once) against random seats, rule R1."""
    right = plays = 0
    for seed in seeds:
        state, rng = new(seed, rule=R1), Random(seed)
        mine, others = engine(level), engine("random")
        while not state.is_terminal:
            seat = state.current_player
            move = (mine if seat == 0 else others).search(
                state, limit=Limit(nodes=NODES), rng=rng).move
            if seat == 0 and isinstance(move, Play):
                plays += 1
                right += state.is_right(move.cards)
            state = state.apply(move)
    return right / plays


def test_the_strong_scientist_plays_right_cards_far_more_often_than_random():
    strong, chance = right_rate("strong"), right_rate("random")
    assert strong >= 0.8
    assert strong >= chance + 0.25


def test_a_hand_with_no_right_card_is_shown_as_a_no_play():
    state = alternating_history(right=14)
    last_red = is_red(state.mainline[-1])
    hand = "5H 8D JH 9H" if last_red else "6S 3C QS 7C"        # all of the wrong colour
    assert isinstance(search(turn_with(state, hand), "strong").move, NoPlay)
    assert isinstance(search(turn_with(state, hand), "easy").move, Play)   # easy plays cards only


# -- the Prophet --------------------------------------------------------------------------------
def prophet_call(state: EleusisState, play: str, hand: str | None = None) -> EleusisState:
    """Seat 1 is Prophet; the seat on turn (not 1) makes `play`; the call is due."""
    turn = 2 if state.turn == 1 else state.turn
    state = state.with_position(prophet=1, turn=turn)
    if hand is None:
        hand = " ".join(play.split()[1:]) + " 4S 4H"
    state = state.with_position(hands={turn: hand}).play(play)
    assert state.phase == "call" and state.current_player == 1
    return state


def test_the_prophet_calls_each_play_by_its_probability():
    state = alternating_history(right=14)
    last_red = is_red(state.mainline[-1])
    good, bad = ("9C", "9H") if last_red else ("9H", "9C")
    for level in ("easy", "medium", "strong"):
        assert search(prophet_call(state, f"play {good}"), level).move == Judge(True)
        assert search(prophet_call(state, f"play {bad}"), level).move == Judge(False)
        wrong_noplay = prophet_call(state, "noplay", hand=f"{bad} {good}")
        assert search(wrong_noplay, level).move == Judge(False, parse_card(good))
        assert search(prophet_call(state, "noplay", hand=bad), level).move == Judge(True)


def test_the_strong_scientist_declares_prophet_once_the_rule_is_pinned_down():
    state, rng = new(2, rule=R2), Random(0)
    strong, others = engine("strong"), engine("random")
    declared = []
    while not state.is_terminal and not declared:
        seat = state.current_player
        move = (strong if seat == 0 else others).search(state, limit=Limit(nodes=200), rng=rng).move
        following = state.play(move)
        if seat == 0 and isinstance(move, Play) and move.declare:
            declared.append(move)
            assert move.declare == "prophet if right" and len(move.cards) == 1
            assert following.prophet == (0 if state.is_right(move.cards) else -1)
        state = following
    assert declared


def test_a_free_text_rule_is_never_judged_by_the_engine():
    state = new(1, god="player").play('rule text 1 "black after odd, red after even"')
    state = state.play(state.legal_moves()[0])
    assert state.phase == "call" and state.current_player == 0
    with pytest.raises(HumanJudgmentError):
        search(state, "strong")


# -- Express ------------------------------------------------------------------------------------
def test_an_express_scientist_guesses_the_rule_when_confident_and_leading():
    state = alternating_history(right=14, express=True)
    others = {s: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS" for s in range(5) if s != state.turn}
    state = state.with_position(hands=others)
    last_red = is_red(state.mainline[-1])
    position = turn_with(state, "9C 4S" if last_red else "9H 4H")
    move = search(position, "strong").move
    assert move.guess and position.play(move).outcome.termination.value == "guessed"
    assert not search(position, "medium").move.guess


# -- God ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("level, difficulty", [("easy", "easy"), ("medium", "medium"),
                                               ("strong", "hard")])
def test_an_engine_god_commits_bank_rules_of_its_difficulty(level, difficulty):
    wanted = {entry.canonical for entry in bank.entries(difficulty)}
    picks = set()
    for seed in range(8):
        state = new(seed, god="player")
        move = search(state, level, seed).move
        assert move.expr in wanted
        picks.add(move.expr)
        assert state.play(move).phase == "turn"                  # machine-judged from then on
    assert len(picks) > 1


# -- budgets and payoffs ------------------------------------------------------------------------
def test_a_cold_search_stops_compiling_rules_within_its_time():
    pool = HypothesisPool()
    state = positions(new(4), seed=4)[-1]
    strong = EleusisEngine("strong", Limit(seconds=0.1), STYLES["strong"], pool)
    result = strong.search(state, limit=Limit(seconds=0.1), rng=Random(0))
    assert result.seconds <= 0.11
    assert 0 < pool.ready < len(pool.sources)
    state.play(result.move)


def test_expected_hand_changes_follow_the_penalties():
    standard = Situation(hand=10, express=False, sudden=False)
    assert standard.cards(1, 1.0) == -1 and standard.cards(1, 0.0) == 1
    assert standard.cards(3, 0.0) == 3 and standard.no_play(0.0) == 4
    assert standard.no_play(1.0) == -4
    assert Situation(2, False, False).cards(2, 1.0) == -6          # goes out: +4
    assert Situation(10, True, False).cards(1, 0.0) == 0           # Express: draw 1
    assert Situation(10, False, True).cards(1, 0.0) == -1 + 3      # sudden death: expelled
