"""A database dump reveals no future draw (issue 13, item 6).

The engine state of a game is sealed like its seed: every text column of every table,
read through a raw connection after a few moves of a running Maatatahay Standard game
(played through the services, the API with an Idempotency-Key and the game page, with
its mail sent), holds neither the order of the face-down piles nor that of the bag,
nor the seed or salt. The game plays on to its end, and then the seed and salt are
revealed (README, "Checking a finished game's seed"): from them the engine recomputes
the hidden order the dump did not show.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from api import services as api_services
from correspondence import services as correspondence_services
from engine.core import replay
from games import services
from games.models import GameStatus, Move
from tests.factories import to_move

from .conftest import start_game

pytestmark = pytest.mark.django_db

NEEDLE_LENGTH = 6  # a sequence this long in this order is no accident


def full_state(game) -> dict:
    game.refresh_from_db()
    return services.rules_for(game.kind).to_json(services.game_state(game))


def hidden_needles(state: dict) -> set[str]:
    """Each hidden sequence (a tribe's face-down pile, the bag) as JSON and as text, whole and
    its first NEEDLE_LENGTH items."""
    sequences = [*state["piles"].values(), state["bag"]]
    needles = set()
    for sequence in sequences:
        for part in (sequence, sequence[:NEEDLE_LENGTH]):
            if len(part) >= NEEDLE_LENGTH:
                needles |= {
                    json.dumps(part),
                    json.dumps(part, separators=(",", ":")),
                    ",".join(part),
                    ", ".join(part),
                    " ".join(part),
                    repr(part),
                }
    return needles


def database_dump() -> str:
    """Every value of every column of every table, as text (what a dump would show)."""
    out = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute("SELECT * FROM %s" % connection.ops.quote_name(table))
            for row in cursor.fetchall():
                for value in row:
                    if isinstance(value, (bytes, memoryview)):
                        value = bytes(value).decode("latin-1")
                    elif isinstance(value, (dict, list)):
                        value = json.dumps(value)
                    out.append(str(value))
    return "\n".join(out)


def api_client(user) -> APIClient:
    _token, secret = api_services.token_create(user=user, name="dump", scopes=["read", "play"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer " + secret)
    return client


def test_a_dump_of_a_running_maatatahay_game_shows_no_hidden_order(alice, bob, client):
    game = start_game(alice, bob, "maatatahay", {"variant": "standard"})
    rules = engine.get_game("maatatahay")
    initial = full_state(game)
    rng = random.Random(13)
    apis = {alice.pk: api_client(alice), bob.pk: api_client(bob)}

    def random_move() -> str:
        return rules.move_text(rng.choice(rules.legal_moves(services.game_state(game))))

    for ply in range(12):  # through the services, the API (idempotent) and the game page
        game.refresh_from_db()
        mover = to_move(game)
        if ply % 3 == 0:
            services.move_submit(game_id=game.pk, user=mover, move_text=random_move(), expected_ply=game.ply)
        elif ply % 3 == 1:
            answer = apis[mover.pk].post(
                "/api/v1/games/%d/moves/" % game.pk,
                {"move": random_move(), "ply": game.ply},
                format="json",
                HTTP_IDEMPOTENCY_KEY="dump-%d" % ply,
            )
            assert answer.status_code == 201, answer.content
        else:
            client.force_login(mover)
            answer = client.post("/games/%d/move/" % game.pk, {"move": random_move(), "expected_ply": game.ply})
            assert answer.status_code == 302, answer.content.decode()[:500]
        client.get("/games/%d/" % game.pk)
        apis[alice.pk].get("/api/v1/games/%d/" % game.pk)
    correspondence_services.alarms_send_due(now=timezone.now() + timedelta(days=30))  # "your turn" mail

    running = full_state(game)
    assert game.status == GameStatus.ACTIVE and game.ply == 12
    salt_hex, seed = services.game_secret(game)
    needles = hidden_needles(running) | hidden_needles(initial)
    assert len(needles) > 12  # piles and bag are long enough to look for, now and at the start
    dump = database_dump()
    assert Move.objects.filter(game=game).count() == 12 and "dump-1" in dump  # the dump has the rows
    leaked = sorted(needle for needle in needles if needle in dump)
    assert not leaked, "the dump holds hidden order: %s" % leaked[:3]
    assert str(seed) not in dump and salt_hex not in dump

    # The game plays on correctly to its end.
    for _ in range(2000):
        game.refresh_from_db()
        if not game.is_active:
            break
        services.move_submit(game_id=game.pk, user=to_move(game), move_text=random_move(), expected_ply=game.ply)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.winner_side in ("", *rules.players)
    texts = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
    assert rules.to_json(replay(rules, seed, game.options, texts)) == full_state(game)

    # Then the seed and salt are revealed, on the page and in the database, and they give
    # back the hidden order that the dump did not show.
    assert (game.revealed_salt, game.revealed_seed) == (salt_hex, str(seed))
    dump = database_dump()
    assert str(seed) in dump and salt_hex in dump
    page = client.get("/games/%d/" % game.pk).content.decode()
    assert str(seed) in page and salt_hex in page
    dealt = rules.to_json(rules.new_game(int(game.revealed_seed), game.options))
    assert (dealt["piles"], dealt["bag"]) == (initial["piles"], initial["bag"])
