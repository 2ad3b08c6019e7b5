"""Weng–Lin ratings for matches of more than two seats (the `openskill` package's Plackett–Luce
model), mapped onto the Glicko scale so every rating reads alike (docs/ratings.md). Pure.

OpenSkill's start (μ 25, σ 25/3) is shown as 1500 ± 350: rating = 1500 + (μ − 25)·k and
deviation = σ·k with k = 350 / (25/3) = 42. The map is linear, so it loses nothing.
"""
from __future__ import annotations

from typing import Sequence

from openskill.models import PlackettLuce

from .glicko import DEFAULT_DEVIATION, DEFAULT_RATING, Glicko

MU, SIGMA = 25.0, 25.0 / 3.0
SCALE = DEFAULT_DEVIATION / SIGMA          # 42 Glicko points per OpenSkill point

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)
# σ narrows more slowly than Glicko's deviation: σ ≈ 6.4 (270 shown) takes about a dozen matches,
# as Glicko-2's 110 takes about ten games. Above it a rating is provisional.
PROVISIONAL_DEVIATION = 270.0


def to_openskill(rating: float, deviation: float, model: PlackettLuce = MODEL):
    return model.rating(mu=MU + (rating - DEFAULT_RATING) / SCALE, sigma=deviation / SCALE)


def from_openskill(value) -> tuple[float, float]:
    return DEFAULT_RATING + (value.mu - MU) * SCALE, value.sigma * SCALE


def update(players: Sequence[Glicko], scores: Sequence[float],
           model: PlackettLuce = MODEL) -> list[tuple[float, float]]:
    """Each seat's (rating, deviation) after one match where seat i scored `scores[i]` (higher is
    better; equal scores tie). One free-for-all update: every seat is its own team."""
    teams = [[to_openskill(p.rating, p.deviation, model)] for p in players]
    rated = model.rate(teams, scores=list(scores))
    return [from_openskill(team[0]) for team in rated]
