"""Writing and reading game messages: players only, short, not too many, and blocks respected."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services as account_services
from accounts.models import Block
from chat import selectors, services
from chat.models import MESSAGE_MAX_LENGTH, Message
from games import services as games_services
from games.errors import GameActionError
from games.selectors import game_for_viewer
from maatasite import sql_once
from tests.games.conftest import first_legal, play, start_game

pytestmark = pytest.mark.django_db


def _refusal(**kwargs) -> GameActionError:
    before = Message.objects.count()
    with pytest.raises(GameActionError) as refused:
        services.message_create(**kwargs)
    assert Message.objects.count() == before  # a refusal writes nothing
    return refused.value


def _texts(game, user) -> list[str]:
    return [m.text for m in selectors.conversation_for(game_id=game.pk, user=user).messages]


def test_players_write_and_both_read_in_order(alice, bob, game):
    play(game, 2)
    first = services.message_create(game_id=game.pk, author=alice, text="  Good luck!\r\n  Have fun.  ")
    services.message_create(game_id=game.pk, author=bob, text="Thanks, you too")
    assert first.text == "Good luck!\n  Have fun."  # stripped, lines end in \n
    assert (first.ply, first.author, first.game_id) == (2, alice, game.pk)
    assert _texts(game, alice) == _texts(game, bob) == ["Good luck!\n  Have fun.", "Thanks, you too"]
    conversation = selectors.conversation_for(game_id=game.pk, user=bob)
    assert conversation.partners == [alice] and conversation.can_write


def test_messages_go_on_after_the_game_ends(alice, bob, game):
    games_services.game_resign(game_id=game.pk, user=bob)
    services.message_create(game_id=game.pk, author=bob, text="Well played.")
    assert _texts(game, alice) == ["Well played."]


def test_length_and_empty_text(alice, game):
    for text in ("", "   \n\t ", "\x00\x07"):
        refused = _refusal(game_id=game.pk, author=alice, text=text)
        assert (refused.status, refused.code) == (400, "message_empty")
        assert refused.message == "Write a message first."
    refused = _refusal(game_id=game.pk, author=alice, text="x" * (MESSAGE_MAX_LENGTH + 1))
    assert (refused.status, refused.code, refused.params["limit"]) == (400, "message_too_long", 500)
    assert refused.message == "A message may have at most 500 characters."
    # The limit counts the stripped text; control characters and lone surrogates go.
    kept = services.message_create(game_id=game.pk, author=alice, text="  " + "y" * 500 + "  ")
    assert len(kept.text) == 500
    assert services.message_create(game_id=game.pk, author=alice, text="a\x00b\ud800c").text == "abc"
    assert services.message_create(game_id=game.pk, author=alice, text="one\rtwo\r\nthree").text == "one\ntwo\nthree"


def test_only_seated_players_write_and_read(alice, carol, game):
    for user in (carol, AnonymousUser()):
        refused = _refusal(game_id=game.pk, author=user, text="Hello")
        assert (refused.status, refused.code) == (403, "not_a_player")
        with pytest.raises(GameActionError) as reading:
            selectors.conversation_for(game_id=game.pk, user=user)
        assert reading.value.status == 403
        assert selectors.conversation_or_none(game=game, user=user) is None
    missing = _refusal(game_id=game.pk + 1000, author=alice, text="Hello")
    assert (missing.status, missing.code) == (404, "game_not_found")


def test_no_messages_in_a_game_against_a_bot(alice):
    solo = games_services.game_create_solo(user=alice, kind="onitama", bot_level=1, options={"cards": "base"})
    refused = _refusal(game_id=solo.pk, author=alice, text="Hello bot")
    assert (refused.status, refused.code) == (403, "message_no_reader")
    assert selectors.conversation_or_none(game=solo, user=alice) is None


def test_twenty_messages_per_player_and_game_within_an_hour(alice, bob, carol, game):
    now = timezone.now()
    for i in range(services.RATE_LIMIT):
        services.message_create(game_id=game.pk, author=alice, text="m%d" % i, now=now + timedelta(minutes=i))
    later = now + timedelta(minutes=30)
    refused = _refusal(game_id=game.pk, author=alice, text="one more", now=later)
    assert (refused.status, refused.code) == (429, "message_rate_limited")
    assert refused.params["retry_after"] == 30 * 60  # when the first of the twenty leaves the hour
    assert "20 messages" in refused.message
    # The other player, and alice in another game, are not limited.
    services.message_create(game_id=game.pk, author=bob, text="calm down", now=later)
    other = start_game(alice, carol, "onitama", {"cards": "base"})
    services.message_create(game_id=other.pk, author=alice, text="hi", now=later)
    # An hour after the first message, one more fits.
    services.message_create(game_id=game.pk, author=alice, text="one more", now=now + timedelta(hours=1))


def test_a_blocked_player_cannot_write_to_the_blocker_and_the_game_goes_on(alice, bob, game):
    services.message_create(game_id=game.pk, author=alice, text="before the block")
    account_services.block_create(blocker=bob, blocked=alice)
    refused = _refusal(game_id=game.pk, author=alice, text="let me explain")
    assert (refused.status, refused.code) == (403, "message_blocked")
    assert refused.message == "This player does not accept your messages."
    assert not selectors.conversation_for(game_id=game.pk, user=alice).can_write
    # The block is one way: the blocker may still write; moves are unaffected.
    services.message_create(game_id=game.pk, author=bob, text="noted")
    assert selectors.conversation_for(game_id=game.pk, user=bob).can_write
    game.refresh_from_db()
    games_services.move_submit(
        game_id=game.pk, user=game.to_move_user, move_text=first_legal(game), expected_ply=game.ply
    )
    assert _texts(game, bob) == _texts(game, alice) == ["before the block", "noted"]
    account_services.block_delete(blocker=bob, blocked=alice)
    services.message_create(game_id=game.pk, author=alice, text="thanks")


def test_what_a_blocked_player_wrote_after_the_block_is_hidden_from_the_blocker(alice, bob, game):
    now = timezone.now()
    services.message_create(game_id=game.pk, author=alice, text="early", now=now - timedelta(hours=1))
    # A message that raced the block (written just as bob blocked alice).
    services.message_create(game_id=game.pk, author=alice, text="raced", now=now + timedelta(seconds=1))
    account_services.block_create(blocker=bob, blocked=alice)
    Block.objects.filter(blocker=bob).update(created_at=now)
    assert _texts(game, bob) == ["early"]
    assert _texts(game, alice) == ["early", "raced"]  # the author still sees what they wrote


def test_the_messages_read_through_sql_built_once_are_the_orms(alice, bob, game):
    """chat.selectors.game_messages (no block hides anything): the ORM's messages field by field,
    in order, each with its game; a block still goes through the ORM's query that hides."""
    assert selectors.game_messages(game=game) == []
    for number in range(3):
        services.message_create(game_id=game.pk, author=(alice, bob)[number % 2], text="note %d" % number)
    sql_once.forget(selectors.GAME_MESSAGES_SQL)
    with CaptureQueriesContext(connection) as queries:
        read = selectors.game_messages(game=game)
        games = [message.game for message in read]
    assert len(queries) == 1 and all(other is game for other in games)
    expected = list(Message.objects.filter(game=game))
    fields = [field.attname for field in Message._meta.concrete_fields]
    assert [[getattr(m, f) for f in fields] for m in read] == [[getattr(m, f) for f in fields] for m in expected]
    assert [m.text for m in read] == ["note 0", "note 1", "note 2"]
    assert sql_once.kept(selectors.GAME_MESSAGES_SQL) == [("default", connection.vendor)]
    account_services.block_create(blocker=alice, blocked=bob)
    Message.objects.create(game=game, author=bob, text="after the block", ply=game.ply)  # as a race would leave it
    assert _texts(game, alice) == ["note 0", "note 1", "note 2"]
    assert _texts(game, bob) == ["note 0", "note 1", "note 2", "after the block"]


def test_a_game_read_with_its_seats_gives_the_blocks_without_a_query_of_their_own(alice, bob, carol, game):
    """A two-player game read for its page (games.selectors.game_for_viewer: its seats say when
    each player blocked the other) gives conversation_for the same blocks as blocks_between's
    query, with one query less: no block, either one, both, a block of someone not seated, a
    block lifted; hidden messages stay hidden either way."""
    now = timezone.now()
    services.message_create(game_id=game.pk, author=alice, text="early", now=now - timedelta(hours=2))
    services.message_create(game_id=game.pk, author=bob, text="reply", now=now - timedelta(hours=1))
    steps = [
        lambda: None,
        lambda: account_services.block_create(blocker=bob, blocked=alice),
        lambda: account_services.block_create(blocker=alice, blocked=bob),
        lambda: account_services.block_create(blocker=alice, blocked=carol),
        lambda: account_services.block_delete(blocker=bob, blocked=alice),
        lambda: account_services.block_delete(blocker=alice, blocked=bob),
    ]
    shown: dict[str, list[tuple[list[str], bool]]] = {"alice": [], "bob": []}
    for step, change in enumerate(steps):
        change()
        Block.objects.update(created_at=now - timedelta(minutes=90))  # between the two messages
        for viewer in (alice, bob):
            read = game_for_viewer(game_id=game.pk, user=viewer).game
            with CaptureQueriesContext(connection) as queries:
                from_seats = selectors.conversation_for(game_id=game.pk, user=viewer, game=read)
            alone = selectors.conversation_for(game_id=game.pk, user=viewer)
            assert [m.text for m in from_seats.messages] == [m.text for m in alone.messages], (step, viewer)
            assert from_seats.blocked_by_partner == alone.blocked_by_partner, (step, viewer)
            assert not any("accounts_block" in q["sql"] for q in queries.captured_queries), (step, viewer)
            shown[viewer.username].append(([m.text for m in from_seats.messages], from_seats.blocked_by_partner))
    # alice sees bob's "reply" (written after the blocks' time) only while she does not block him
    assert shown["alice"] == [
        (["early", "reply"], False),
        (["early", "reply"], True),
        (["early"], True),
        (["early"], True),
        (["early"], False),
        (["early", "reply"], False),
    ]
    assert shown["bob"] == [
        (["early", "reply"], False),
        (["early", "reply"], False),
        (["early", "reply"], True),
        (["early", "reply"], True),
        (["early", "reply"], True),
        (["early", "reply"], False),
    ]
