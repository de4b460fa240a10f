"""The Glicko-2 arithmetic against Glickman's worked example and the inactivity rule."""

import math

import pytest

from ratings import constants
from ratings.glicko2 import SCALE, Glicko, Result, idle, rate


def glickman_example() -> Glicko:
    return rate(Glicko(1500, 200, 0.06), [Result(1400, 30, 1), Result(1550, 100, 0), Result(1700, 300, 0)], tau=0.5)


def test_glickmans_worked_example():
    """Glickman (2013): 1464.06, 151.52, 0.05999. The paper rounds its intermediate
    steps (mu' = -0.2069); exact arithmetic gives 1464.0507, within 0.01 of the paper."""
    after = glickman_example()
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # exact: 0.0599960
    # The paper's intermediate figures on the Glicko-2 scale.
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.0001)
    assert after.deviation / SCALE == pytest.approx(0.8722, abs=0.0001)


def test_the_worked_example_with_tau_from_the_configuration():
    assert constants.TAU == 0.5
    assert rate(Glicko(1500, 200, 0.06), [Result(1400, 30, 1)], tau=constants.TAU).rating > 1500


def test_an_empty_period_only_grows_the_deviation():
    after = rate(Glicko(1500, 200, 0.06), [], tau=0.5)
    expected = math.sqrt((200 / SCALE) ** 2 + 0.06**2) * SCALE
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert after.deviation == pytest.approx(expected) and after.deviation > 200


def test_idle_periods_add_up_and_stop_at_the_cap():
    start = Glicko(1700, 60, 0.06)
    three = idle(start, periods=3, max_deviation=350)
    assert three.deviation == pytest.approx(math.sqrt((60 / SCALE) ** 2 + 3 * 0.06**2) * SCALE)
    assert three.rating == 1700
    assert idle(start, periods=0, max_deviation=350) == start
    assert idle(start, periods=100000, max_deviation=350).deviation == 350


def test_a_draw_between_equals_keeps_the_rating_and_narrows_the_deviation():
    after = rate(Glicko(1500, 350, 0.06), [Result(1500, 350, 0.5)], tau=0.5)
    assert after.rating == pytest.approx(1500)
    assert after.deviation < 350


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    me = Glicko(1500, 100, 0.06)
    strong = rate(me, [Result(1800, 80, 1)], tau=0.5).rating - 1500
    weak = rate(me, [Result(1200, 80, 1)], tau=0.5).rating - 1500
    assert strong > weak > 0
