"""maatasite.sql_once: the SQL of an ORM query built once, with one or several variable
parameters; rows and values converted as the ORM converts them. (Each hot read's own test
compares its objects with the ORM's: tests/games/test_game_read.py, tests/api/test_token_read.py,
tests/accounts/test_session_user.py, tests/chat/test_services.py.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from accounts import selectors, services
from accounts.models import Block, User
from maatasite import sql_once
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_several_placeholders_each_take_their_value_wherever_they_stand():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    services.block_create(blocker=alice, blocked=bob)
    services.block_create(blocker=carol, blocked=alice)

    def either_way(one: int, other: int):
        return (
            Block.objects.filter(Q(blocker_id=one, blocked_id=other) | Q(blocked_id=one, blocker_id=other))
            .order_by("blocker_id")
            .values_list("blocker_id", "blocked_id", "created_at")
        )

    sql_once.forget("test_either_way")
    for one, other in ((alice, bob), (bob, alice), (alice, carol), (bob, carol)):
        rows = sql_once.rows_once(
            "test_either_way",
            queryset=either_way,
            placeholder=sql_once.Placeholders((-1001, -1002)),
            value=(one.pk, other.pk),
            alias="default",
        )
        assert rows == list(either_way(one.pk, other.pk))
    assert sql_once.kept("test_either_way") == [("default", connection.vendor)]


def test_a_placeholder_the_query_does_not_carry_as_a_parameter_fails_at_once():
    with pytest.raises(RuntimeError, match="placeholders are not parameters"):
        sql_once.rows_once(
            "test_missing",
            queryset=lambda one, _other: User.objects.filter(pk=one).values_list("pk"),
            placeholder=sql_once.Placeholders((-1001, -1002)),
            value=(1, 2),
            alias="default",
        )
    with pytest.raises(RuntimeError, match="placeholders are not parameters"):  # one placeholder, twice
        sql_once.rows_once(
            "test_twice",
            queryset=lambda one: User.objects.filter(Q(pk=one) | Q(pk=one)).values_list("pk"),
            placeholder=-1001,
            value=1,
            alias="default",
        )
    assert sql_once.kept("test_missing") == [] and sql_once.kept("test_twice") == []


def test_a_value_has_its_default_when_there_is_no_row():
    dora = make_user("dora")

    def joined(user_id: int):
        return User.objects.filter(pk=user_id).values_list("date_joined")

    for user_id, expected in ((dora.pk, User.objects.get(pk=dora.pk).date_joined), (10**12, "none")):
        found = sql_once.value_once(
            "test_joined", queryset=joined, placeholder=-1001, value=user_id, alias="default", default="none"
        )
        assert found == expected  # an aware time on SQLite too: the ORM's converters ran


def test_blocks_between_two_players_are_the_orms_either_way():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")

    def orm(user: User, others: list[User]) -> dict:
        ids = [other.pk for other in others]
        rows = Block.objects.filter(
            Q(blocker_id=user.pk, blocked_id__in=ids) | Q(blocked_id=user.pk, blocker_id__in=ids)
        ).values_list("blocker_id", "blocked_id", "created_at")
        return {(blocker, blocked): created for blocker, blocked, created in rows}

    sql_once.forget(selectors.BLOCKS_BETWEEN_TWO_SQL)
    steps = [
        lambda: None,
        lambda: services.block_create(blocker=alice, blocked=bob),
        lambda: services.block_create(blocker=bob, blocked=alice),
        lambda: services.block_create(blocker=carol, blocked=alice),
        lambda: services.block_delete(blocker=alice, blocked=bob),
    ]
    for step in steps:
        step()
        for user, others in ((alice, [bob]), (bob, [alice]), (alice, [carol]), (carol, [bob]), (alice, [bob, carol])):
            with CaptureQueriesContext(connection) as queries:
                found = selectors.blocks_between(user=user, others=others)
            assert len(queries) == 1
            assert found == orm(user, others)
    assert selectors.blocks_between(user=alice, others=[]) == {}
    assert sql_once.kept(selectors.BLOCKS_BETWEEN_TWO_SQL) == [("default", connection.vendor)]


# ---------------------------------------------------------------- writes built once


def _alarm_rows(game_id: int):
    from games.models import Alarm

    return list(
        Alarm.objects.filter(game_id=game_id)
        .order_by("kind", "turn", "user_id")
        .values_list("game_id", "user_id", "kind", "turn", "due_at", "claimed_at", "sent_at", "outcome")
    )


def test_insert_once_inserts_what_bulk_create_inserts_and_leaves_out_conflicts_as_it_does():
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Alarm
    from tests.factories import start_game

    alice, bob = make_user("alice"), make_user("bob")
    ours, theirs = start_game(alice, bob), start_game(bob, alice)
    Alarm.objects.all().delete()
    now = timezone.now()

    def rows(game, turn):
        return [
            Alarm(game=game, user=alice, kind=Alarm.Kind.YOUR_TURN, turn=turn, due_at=now),
            Alarm(game=game, user=alice, kind=Alarm.Kind.REMINDER, turn=turn, due_at=now + timedelta(days=1)),
            Alarm(game=game, user=bob, kind=Alarm.Kind.LAST_CALL, turn=turn, due_at=now + timedelta(hours=5)),
        ]

    sql_once.forget("test_alarms_insert")
    Alarm.objects.bulk_create(rows(theirs, 1), ignore_conflicts=True)
    with CaptureQueriesContext(connection) as queries:
        sql_once.insert_once("test_alarms_insert", rows(ours, 1), alias="default", ignore_conflicts=True)
    assert len(queries) == 1  # one executemany for the three rows
    assert [row[1:] for row in _alarm_rows(ours.pk)] == [row[1:] for row in _alarm_rows(theirs.pk)]
    assert len(_alarm_rows(ours.pk)) == 3

    # the same rows again, and one new one: the conflicts are left out, the new row goes in
    Alarm.objects.bulk_create(rows(theirs, 1) + rows(theirs, 2)[:1], ignore_conflicts=True)
    sql_once.insert_once(
        "test_alarms_insert", rows(ours, 1) + rows(ours, 2)[:1], alias="default", ignore_conflicts=True
    )
    assert [row[1:] for row in _alarm_rows(ours.pk)] == [row[1:] for row in _alarm_rows(theirs.pk)]
    assert len(_alarm_rows(ours.pk)) == 4
    assert sql_once.kept("test_alarms_insert") == [("default", connection.vendor)]

    with CaptureQueriesContext(connection) as queries:
        sql_once.insert_once("test_alarms_insert", [], alias="default", ignore_conflicts=True)
    assert len(queries) == 0


def test_insert_once_without_ignoring_conflicts_raises_on_one():
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    from games.models import Alarm
    from tests.factories import start_game

    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    row = {"game": game, "user": alice, "kind": Alarm.Kind.REMINDER, "turn": 77, "due_at": timezone.now()}
    sql_once.forget("test_alarm_strict")
    sql_once.insert_once("test_alarm_strict", [Alarm(**row)], alias="default")
    with pytest.raises(IntegrityError), transaction.atomic():
        sql_once.insert_once("test_alarm_strict", [Alarm(**row)], alias="default")
    assert Alarm.objects.filter(game=game, turn=77).count() == 1


def test_insert_once_refuses_rows_of_another_model_or_with_an_id():
    from django.utils import timezone

    from games.models import Alarm

    alice = make_user("alice")
    sql_once.forget("test_alarm_refusals")
    alarm = Alarm(game_id=1, user=alice, kind=Alarm.Kind.REMINDER, turn=1, due_at=timezone.now())
    with pytest.raises(ValueError, match="new rows of one model"):
        sql_once.insert_once("test_alarm_refusals", [alarm, Block(blocker=alice, blocked=alice)], alias="default")
    alarm.pk = 5
    with pytest.raises(ValueError, match="new rows of one model"):
        sql_once.insert_once("test_alarm_refusals", [alarm], alias="default")

    # a name keeps the model and the conflict rule it was built for
    alarm.pk = None
    with pytest.raises(ValueError, match="built for Alarm rows with ignore_conflicts=False"):
        sql_once.insert_once("test_alarm_refusals", [Block(blocker=alice, blocked=alice)], alias="default")
    with pytest.raises(ValueError, match="built for Alarm rows with ignore_conflicts=False"):
        sql_once.insert_once("test_alarm_refusals", [alarm], alias="default", ignore_conflicts=True)


def test_delete_once_deletes_what_the_orms_delete_deletes():
    from django.utils import timezone

    from games.models import Alarm
    from tests.factories import start_game

    alice, bob = make_user("alice"), make_user("bob")
    games = [start_game(alice, bob), start_game(bob, alice)]
    Alarm.objects.all().delete()
    now = timezone.now()
    for game in games:
        for turn in (1, 2):
            for kind in Alarm.Kind.values:
                Alarm.objects.create(
                    game=game, user=alice, kind=kind, turn=turn, due_at=now, sent_at=now if turn == 1 else None
                )

    def unsent_reminders(game_id: int):
        return Alarm.objects.filter(game_id=game_id, kind__in=["reminder", "last_call"], sent_at__isnull=True)

    sql_once.forget("test_unsent_delete")
    expected_left = _alarm_rows(games[1].pk)
    ids_left = set(Alarm.objects.exclude(pk__in=unsent_reminders(games[0].pk)).values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        deleted = sql_once.delete_once(
            "test_unsent_delete", queryset=unsent_reminders, placeholder=-7001, value=games[0].pk, alias="default"
        )
    assert deleted == 2 and len(queries) == 1 and queries[0]["sql"].startswith("DELETE")
    assert set(Alarm.objects.values_list("pk", flat=True)) == ids_left
    assert _alarm_rows(games[1].pk) == expected_left  # the other game's rows untouched
    assert (
        sql_once.delete_once(
            "test_unsent_delete", queryset=unsent_reminders, placeholder=-7001, value=games[0].pk, alias="default"
        )
        == 0
    )
    assert (
        sql_once.delete_once(
            "test_unsent_delete", queryset=unsent_reminders, placeholder=-7001, value=games[1].pk, alias="default"
        )
        == 2
    )
    assert not unsent_reminders(games[1].pk).exists()
    assert Alarm.objects.filter(game=games[1]).count() == len(expected_left) - 2


def test_delete_once_refuses_rows_the_orm_collects_and_sends_signals_when_connected():
    from django.db.models.signals import post_delete
    from django.utils import timezone

    from games.models import Alarm, Game
    from tests.factories import start_game

    with pytest.raises(RuntimeError, match="collects these rows"):  # a game's seats, moves... cascade
        sql_once.delete_once(
            "test_games_delete",
            queryset=lambda pk: Game.objects.filter(pk=pk),
            placeholder=-7001,
            value=1,
            alias="default",
        )

    alice, bob = make_user("alice"), make_user("bob")
    game = start_game(alice, bob)
    Alarm.objects.create(game=game, user=alice, kind=Alarm.Kind.REMINDER, turn=9, due_at=timezone.now())
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.turn)

    post_delete.connect(receiver, sender=Alarm)
    try:
        deleted = sql_once.delete_once(
            "test_turn_delete",
            queryset=lambda turn: Alarm.objects.filter(turn=turn),
            placeholder=987_654_321,
            value=9,
            alias="default",
        )
    finally:
        post_delete.disconnect(receiver, sender=Alarm)
    assert deleted == 1 and heard == [9]
