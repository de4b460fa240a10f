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
