"""Messages in the API's events feed (chat/events.py registers them in games.events): the other
player's messages, none of one's own, none a blocked player wrote after the block."""

import pytest

from accounts.services import block_create
from chat.models import Message
from chat.services import message_create
from tests.api_clients import api_settings, token_client  # noqa: F401  (api_settings: applied below)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api_settings")]

EVENTS = "/api/v1/events/"


def test_the_feed_has_the_other_players_messages(alice, bob, game):
    alice_api, bob_api = token_client(alice), token_client(bob)
    cursor = alice_api.get(EVENTS).json()["cursor"]
    message_create(game_id=game.pk, author=bob, text="hello alice")
    message_create(game_id=game.pk, author=alice, text="hello bob")
    page = alice_api.get(EVENTS, {"after": cursor}).json()
    assert [(e["kind"], e["game_id"], e["data"]) for e in page["events"]] == [
        ("message", game.pk, {"author": "bob", "text": "hello alice", "ply": 0})
    ]
    assert alice_api.get(EVENTS, {"after": page["cursor"]}).json()["events"] == []
    bobs = bob_api.get(EVENTS, {"after": cursor}).json()["events"]
    assert [e["data"]["text"] for e in bobs if e["kind"] == "message"] == ["hello bob"]


def test_a_block_hides_what_is_written_after_it(alice, bob, game):
    alice_api = token_client(alice)
    cursor = alice_api.get(EVENTS).json()["cursor"]
    message_create(game_id=game.pk, author=bob, text="before")
    block_create(blocker=alice, blocked=bob)
    Message.objects.create(game=game, author=bob, text="after", ply=game.ply)  # as a race would leave it
    texts = [e["data"]["text"] for e in alice_api.get(EVENTS, {"after": cursor}).json()["events"]]
    assert texts == ["before"]
