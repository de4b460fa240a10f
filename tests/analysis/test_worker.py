"""The real worker serves the queue ``analysis`` (tests/conftest.py's session worker takes every
routed queue but the pictures'): a player's request reaches it through the broker, after commit.
Every other analysis test runs the task in-process (eagerly), which is quicker."""

import pytest

from analysis import services
from analysis.models import AnalysisStatus, GameAnalysis
from tests.helpers import wait_for

from .conftest import finished

pytestmark = pytest.mark.services


def test_the_worker_computes_a_requested_analysis(celery_worker, alice, bob):
    game = finished(alice, bob)
    row, queued = services.game_analysis_request(game_id=game.pk, user=alice)
    assert queued
    done = wait_for(
        lambda: GameAnalysis.objects.filter(pk=row.pk, status=AnalysisStatus.DONE).first(), "the analysis done"
    )
    assert len(done.positions) == game.ply + 1 and done.bot_level == row.bot_level
