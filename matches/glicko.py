"""Glicko-2 rating math ("Example of the Glicko-2 system", the method's reference), pure functions.

Each rated two-seat match is one rating period for both players: one result (1, 0.5 or 0)
against one opponent. Games that seat more are rated by `matches.weng_lin` instead, so a
multi-seat result is never split into pairwise games (which would count one match many times).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

SCALE = 173.7178
DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
MAX_DEVIATION = 350.0
PROVISIONAL_DEVIATION = 110.0     # above this a rating is shown as provisional
TAU = 0.5                          # constrains volatility change (the reference suggests 0.3–1.2)
_EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois root-finding of f(x) = 0 for x = ln(σ'²)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / tau ** 2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player's rating after one period with `results` = [(opponent, score in {0, .5, 1})]."""
    mu, phi = (player.rating - DEFAULT_RATING) / SCALE, player.deviation / SCALE
    if not results:
        phi_star = math.sqrt(phi * phi + player.volatility ** 2)
        return Glicko(player.rating, min(phi_star * SCALE, MAX_DEVIATION), player.volatility)
    opponents = [((o.rating - DEFAULT_RATING) / SCALE, o.deviation / SCALE, s) for o, s in results]
    v_inv, gain = 0.0, 0.0
    for mu_j, phi_j, score in opponents:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    sigma = _new_volatility(phi, player.volatility, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Glicko(mu_new * SCALE + DEFAULT_RATING, min(phi_new * SCALE, MAX_DEVIATION), sigma)
