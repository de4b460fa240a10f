"""Simultaneous submissions on PostgreSQL through the live server: a retried move with
its Idempotency-Key is played once and both requests get the same answer; two different
submissions for one ply make one move and one 409."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from api import services as api_services
from games import services
from games.models import Move

from .conftest import make_user, start_game

pytestmark = pytest.mark.services


def post_together(url: str, token: str, body: dict, keys: list[str]) -> list[tuple[int, dict]]:
    barrier = threading.Barrier(len(keys))
    answers: list[tuple[int, dict] | None] = [None] * len(keys)

    def send(index: int) -> None:
        request = urllib.request.Request(
            url,
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Authorization": "Bearer " + token,
                "Content-Type": "application/json",
                "Idempotency-Key": keys[index],
            },
        )
        barrier.wait()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answers[index] = (response.status, json.loads(response.read()))
        except urllib.error.HTTPError as error:
            answers[index] = (error.code, json.loads(error.read()))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers  # type: ignore[return-value]


@pytest.fixture
def live_game(live_server, transactional_db):
    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    rules = services.rules_for("onitama")
    text = rules.move_text(rules.legal_moves(services.game_state(game))[0])
    _token, secret = api_services.token_create(user=game.to_move_user, name="t", scopes=["read", "play"])
    url = live_server.url + "/api/v1/games/%d/moves/" % game.pk
    return game, url, secret, {"move": text, "ply": 0}


def test_the_same_key_sent_twice_at_once_plays_once(live_game):
    game, url, token, body = live_game
    answers = post_together(url, token, body, ["same-key"] * 3)
    assert [status for status, _ in answers] == [201, 201, 201]
    assert answers[0][1] == answers[1][1] == answers[2][1]
    assert Move.objects.filter(game=game).count() == 1


def test_two_keys_for_one_ply_make_one_move_and_one_conflict(live_game):
    game, url, token, body = live_game
    answers = post_together(url, token, body, ["key-a", "key-b"])
    assert sorted(status for status, _ in answers) == [201, 409]
    conflict = next(answer for status, answer in answers if status == 409)
    assert conflict["code"] == "stale_ply" and conflict["details"]["game"]["ply"] == 1
    assert Move.objects.filter(game=game).count() == 1
