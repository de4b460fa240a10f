"""The simulation command plays through the real services and checks the positions."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game
from ladder.models import Ladder, LadderChallenge

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["onitama", "maatatahay"])
def test_a_short_simulation_keeps_positions_a_permutation(capsys, kind):
    call_command("simulate_ladder", "--game", kind, "--players", "12", "--games", "25", "--seed", "3", "--keep")
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("time taken: ") and lines[-1].endswith(" s")
    assert "positions: a permutation of 1..n with no gaps" in lines
    ladder = Ladder.objects.get(name__startswith="Simulation")
    assert ladder.kind == kind
    made = LadderChallenge.objects.filter(ladder=ladder)
    assert made.count() == 25 and not made.filter(outcome="").exists()
    assert Game.objects.filter(ladder_challenge__ladder=ladder, rating_changes__isnull=False).exists()


def test_without_keep_the_run_leaves_nothing_behind(capsys):
    users_before = get_user_model().objects.count()
    call_command("simulate_ladder", "--players", "6", "--games", "5", "--seed", "1")
    assert "time taken" in capsys.readouterr().out.strip().splitlines()[-1]
    assert get_user_model().objects.count() == users_before
    assert not Ladder.objects.filter(name__startswith="Simulation").exists()
    assert not Game.objects.exists()
