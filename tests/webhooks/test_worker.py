"""The real path under the real services: a change commits, the real Celery worker (its
environment allows the loopback receiver, tests/conftest.py) reads the feed and POSTs each
event to the real local receiver, which checks every signature."""

from __future__ import annotations

import pytest

from chat.services import message_create
from games import services as games_services
from tests.factories import make_user, play, start_game
from tests.helpers import wait_for
from webhooks import services

pytestmark = pytest.mark.services


def test_the_worker_delivers_each_event_once_signed(celery_worker, receiver):
    alice, bob = make_user("alice"), make_user("bob")
    endpoint, receiver.secret = services.endpoint_create(
        user=alice, url=receiver.url(), events=["your_turn", "challenge_received", "game_over", "message"]
    )

    def got(count: int):
        return receiver.accepted if len(receiver.accepted) >= count else None

    game = start_game(bob, alice, "onitama", {"cards": "base"})
    wait_for(lambda: got(1), timeout=60)
    play(game, 2)  # whoever starts (the deal decides), one of these passes the turn to alice
    wait_for(lambda: got(2), timeout=60)
    message_create(game_id=game.pk, author=bob, text="from the worker")
    wait_for(lambda: got(3), timeout=60)
    games_services.game_resign(game_id=game.pk, user=alice)
    accepted = wait_for(lambda: got(4), timeout=60)
    assert [r.payload["type"] for r in accepted] == ["challenge_received", "your_turn", "message", "game_over"]
    assert all(r.signature_ok for r in receiver.requests)
    assert len({r.payload["id"] for r in receiver.requests}) == len(receiver.requests)  # no duplicate
    assert endpoint.deliveries.filter(status="delivered").count() == 4
