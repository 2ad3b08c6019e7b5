"""Tournament pairing and tie-breaks: the pure module, without Django."""
import random
from itertools import combinations

import pytest

from matches import pairing
from matches.pairing import Game


def _check_round(pairs, players):
    seated = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seated) == sorted(players)           # everyone exactly once
    assert sum(b is None for _, b in pairs) == len(players) % 2


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_meets_everyone_once_with_even_seats(n):
    players = list(range(n))
    rounds = pairing.round_robin(players)
    assert len(rounds) == n - 1 + n % 2
    met, balance, byes = set(), dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for pairs in rounds:
        _check_round(pairs, players)
        for a, b in pairs:
            if b is None:
                byes[a] += 1
                continue
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            balance[a] += 1
            balance[b] -= 1
    assert met == {frozenset(c) for c in combinations(players, 2)}
    assert all(abs(v) <= 1 for v in balance.values())
    assert all(v == n % 2 for v in byes.values())


def test_swiss_round_one_pairs_the_top_half_against_the_bottom_half():
    pairs = pairing.swiss_round(pairing.entrants(list("ABCDEFGH"), []))
    assert sorted(tuple(sorted(p)) for p in pairs) == [("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")]
    firsts = [a for a, _ in pairs]
    assert firsts.count("A") + firsts.count("B") + firsts.count("C") + firsts.count("D") == 4  # the top half sits first


def test_swiss_pairs_within_score_groups_and_seats_by_balance():
    games = [Game(1, "A", "E", 1.0), Game(1, "F", "B", 0.0), Game(1, "C", "G", 1.0), Game(1, "H", "D", 0.0)]
    pairs = pairing.swiss_round(pairing.entrants(list("ABCDEFGH"), games))
    winners, losers = set("ABCD"), set("EFGH")
    for a, b in pairs:
        assert {a, b} <= winners or {a, b} <= losers
        assert frozenset((a, b)) not in {frozenset((g.first, g.second)) for g in games}
    seat = {a: 0 for a, _ in pairs} | {b: 1 for _, b in pairs}
    # A and C sat first in round 1, B and D second: those who were second now sit first.
    assert seat["B"] == 0 and seat["D"] == 0 and seat["A"] == 1 and seat["C"] == 1


def test_the_bye_goes_to_the_lowest_placed_player_without_one():
    pairs = pairing.swiss_round(pairing.entrants(list("ABCDE"), []))
    assert ("E", None) in pairs
    games = [Game(1, "A", "C", 1.0), Game(1, "B", "D", 1.0), Game(1, "E", None)]
    pairs = pairing.swiss_round(pairing.entrants(list("ABCDE"), games))
    assert ("D", None) in pairs               # E has had the bye (and has a point); D has none and 0


def _swiss(n: int, rounds: int, seed: int) -> tuple[list, list[Game]]:
    rng = random.Random(seed)
    players = [f"p{i:02}" for i in range(n)]
    games: list[Game] = []
    for number in range(1, rounds + 1):
        pairs = pairing.swiss_round(pairing.entrants(players, games))
        if pairs is None:
            break
        _check_round(pairs, players)
        for a, b in pairs:
            games.append(Game(number, a, b, None if b is None else rng.choice((0.0, 0.5, 1.0))))
    return players, games


@pytest.mark.parametrize("n,seed", [(n, s) for n in (4, 5, 6, 7, 8, 9, 12, 16) for s in range(3)])
def test_a_swiss_as_long_as_it_can_be_never_repeats_a_pairing_or_a_bye(n, seed):
    """Late rounds of a long Swiss may have no pairing left (it then ends early), never a repeat."""
    _, games = _swiss(n, n - 1 if n % 2 == 0 else n - 2, seed)
    assert max(g.round for g in games) >= n // 2
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met))
    byes = [g.first for g in games if g.second is None]
    assert len(byes) == len(set(byes))


@pytest.mark.parametrize("n,rounds,seed", [(n, r, s) for n, r in ((8, 5), (9, 5), (16, 6), (33, 7), (64, 8))
                                           for s in range(3)])
def test_a_swiss_of_usual_length_keeps_seats_within_two(n, rounds, seed):
    players, games = _swiss(n, rounds, seed)
    assert max(g.round for g in games) == rounds
    assert max(abs(e.balance) for e in pairing.entrants(players, games)) <= 2


def test_swiss_says_so_when_no_pairing_avoids_a_repeat():
    done = [Game(r + 1, a, b, 0.5) for r, pairs in enumerate(pairing.round_robin(list("ABCD"))) for a, b in pairs]
    assert pairing.swiss_round(pairing.entrants(list("ABCD"), done)) is None


def test_tie_breaks_on_a_worked_round_robin():
    """A beat B, drew C, lost to D; B beat C and D; C beat D. Scores B 2, A 1.5, C 1.5, D 1."""
    games = [Game(1, "A", "B", 1.0), Game(1, "C", "D", 1.0), Game(2, "A", "C", 0.5), Game(2, "B", "D", 1.0),
             Game(3, "D", "A", 1.0), Game(3, "B", "C", 1.0)]
    table = {s.player: s for s in pairing.standings(list("ABCD"), games, pairing.ROUND_ROBIN)}
    assert (table["A"].score, table["A"].buchholz, table["A"].sonneborn_berger) == (1.5, 4.5, 2.75)
    assert (table["C"].score, table["C"].buchholz, table["C"].sonneborn_berger) == (1.5, 4.5, 1.75)
    assert (table["B"].buchholz, table["B"].sonneborn_berger) == (4.0, 2.5)
    assert (table["D"].buchholz, table["D"].sonneborn_berger) == (5.0, 1.5)
    assert [s.player for s in pairing.standings(list("ABCD"), games, pairing.ROUND_ROBIN)] == list("BACD")
    assert (table["A"].wins, table["A"].draws, table["A"].losses) == (1, 1, 1)


def test_swiss_standings_use_buchholz_first_and_count_byes():
    games = [Game(1, "A", "B", 1.0), Game(1, "C", None), Game(2, "C", "A", 0.0), Game(2, "B", None)]
    rows = pairing.standings(list("ABC"), games, pairing.SWISS)
    assert [(s.player, s.score, s.byes) for s in rows] == [("A", 2.0, 0), ("B", 1.0, 1), ("C", 1.0, 1)]
    assert rows[1].buchholz == 2.0 and rows[2].buchholz == 2.0            # both met only A
    undecided = pairing.standings(list("AB"), [Game(1, "A", "B", None)])
    assert [s.score for s in undecided] == [0.0, 0.0]
