"""The Glicko-2 rating system, in pure Python (no Django, no engine).

Follows Mark Glickman, "Example of the Glicko-2 system" (2013): ratings are
converted to the Glicko-2 scale (mu, phi), updated over one rating period
with the Illinois algorithm for the new volatility, and converted back.
The worked example of that paper is a test (tests/ratings/test_glicko2.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # 400 / ln(10): Glicko rating points per Glicko-2 unit
CENTER = 1500.0
CONVERGENCE = 0.000001


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: rating, rating deviation, volatility."""

    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating and deviation and the score (1, 0.5, 0)."""

    opponent_rating: float
    opponent_deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of Glickman's paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, results: Iterable[Result], *, tau: float) -> Glicko:
    """The player's rating after one rating period with ``results`` (none: the deviation grows)."""
    results = list(results)
    mu = (player.rating - CENTER) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent_rating - CENTER) / SCALE
        phi_j = result.opponent_deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(new_mu * SCALE + CENTER, new_phi * SCALE, new_sigma)


def idle(player: Glicko, *, periods: int, max_deviation: float) -> Glicko:
    """The player after ``periods`` empty rating periods: only the deviation grows, up to a cap."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility**2) * SCALE
    return Glicko(player.rating, min(grown, max_deviation), player.volatility)
