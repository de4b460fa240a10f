"""The API's list shapes built directly (games.serializers' list serializers) give exactly what
DRF's field-by-field walk gives for the same objects: no database needed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework import serializers

from games import serializers as s
from games.models import Move, Seat


def _moves() -> list[Move]:
    red, blue = Seat(side="red", position=0), Seat(side="blue", position=1)
    start = datetime(2026, 3, 29, 0, 59, 59, 123456, tzinfo=UTC)  # a daylight-saving change nearby
    return [
        Move(
            ply=n + 1,
            turn=n,
            seat=(red, blue)[n % 2],
            text="boar:c1c2" if n % 2 else "place c3 r1",
            created_at=start + timedelta(minutes=37 * n),
        )
        for n in range(7)
    ] + [Move(ply=8, turn=7, seat=red, text="pass:ox", created_at=start.replace(microsecond=0))]


def _generic(child: serializers.Serializer, items: list) -> list:
    return serializers.ListSerializer(child=child).to_representation(items)


def test_moves_as_drf_walks_them_in_any_time_zone():
    moves = _moves()
    assert isinstance(s.MoveRecordSerializer(many=True), s.MoveRecordListSerializer)
    for zone in ("UTC", "Europe/Paris", "Asia/Kolkata"):
        with timezone.override(zone):
            fast = s.MoveRecordSerializer(moves, many=True).data
            walked = _generic(s.MoveRecordSerializer(), moves)
            assert json.dumps(fast) == json.dumps(walked)
    with timezone.override("UTC"):
        assert s.MoveRecordSerializer(moves[:1], many=True).data[0] == {
            "ply": 1,
            "turn": 0,
            "side": "red",
            "text": "place c3 r1",
            "played_at": "2026-03-29T00:59:59.123456Z",
        }
    with timezone.override("Europe/Paris"):  # summer time began at 01:00 UTC
        shown = [m["played_at"] for m in s.MoveRecordSerializer(moves[:3], many=True).data]
        assert shown == [
            "2026-03-29T01:59:59.123456+01:00",
            "2026-03-29T03:36:59.123456+02:00",
            "2026-03-29T04:13:59.123456+02:00",
        ]


def test_legal_moves_as_drf_walks_them():
    legal = [
        {"text": "boar:c1c2", "move": {"type": "move", "card": "boar", "from": "c1", "to": "c2"}},
        {"text": "pass:ox", "move": {"type": "pass", "card": "ox", "from": None}},
        {"text": "place c3 r1", "move": {"type": "place", 1: "r1", "squares": ["c3", "c4"], "preview": {"score": 2}}},
    ]
    assert isinstance(s.LegalMoveSerializer(many=True), s.LegalMoveListSerializer)
    fast = s.LegalMoveSerializer(legal, many=True).data
    assert json.dumps(fast) == json.dumps(_generic(s.LegalMoveSerializer(), legal))
    assert fast[2]["move"] == {"type": "place", "1": "r1", "squares": ["c3", "c4"], "preview": {"score": 2}}
    assert s.LegalMoveSerializer([], many=True).data == []


def test_a_game_answer_uses_them():
    fields = s.GameDetailSerializer().fields
    assert isinstance(fields["moves"], s.MoveRecordListSerializer)
    assert isinstance(fields["legal_moves"], s.LegalMoveListSerializer)


# ---------------------------------------------------------------- a game's answers, with a database


def _pages_of_every_shape():
    """(page, viewer) pairs: a running Onitama game seen by the player to move (legal moves),
    the other player (a draw offer to them) and a spectator; a finished Maatatahay game (result,
    scores or none, revealed seed); a game against a bot."""
    from django.contrib.auth.models import AnonymousUser

    from games import selectors, services
    from tests.factories import make_user, play, start_game, to_move

    ann, ben = make_user("shape_ann"), make_user("shape_ben")
    running = play(start_game(ann, ben, "onitama", {"cards": "base"}), 3)
    mover = to_move(running)
    other = ben if mover == ann else ann
    services.draw_offer(game_id=running.pk, user=mover)
    finished = play(start_game(ann, ben, "maatatahay", {"variant": "first"}), 4)
    services.game_resign(game_id=finished.pk, user=ann)
    solo = services.game_create_solo(user=ann, kind="onitama", bot_level=2, side="red", options={"cards": "base"})
    pairs = []
    for game, viewers in ((running, (mover, other, AnonymousUser())), (finished, (ann, ben, None)), (solo, (ann,))):
        for viewer in viewers:
            pairs.append((selectors.game_for_viewer(game_id=game.pk, user=viewer), viewer))
    return pairs


@pytest.mark.django_db
def test_a_games_detail_and_summary_as_drf_walks_them_for_every_viewer():
    pages = _pages_of_every_shape()
    assert any(page.legal_moves for page, _viewer in pages) and any(page.draw_offer for page, _viewer in pages)
    assert any(page.game.is_over for page, _viewer in pages) and any(
        s.user is None for page, _v in pages for s in page.seats
    )
    for zone in ("UTC", "Europe/Paris"):
        with timezone.override(zone):
            for page, viewer in pages:
                context = {"user": viewer}
                detail = s.GameDetailSerializer(page, context=context).data
                walked = serializers.Serializer.to_representation(
                    s.GameDetailSerializer(context=context), s.GameDetailSerializer(context=context).detail_values(page)
                )
                assert json.dumps(detail) == json.dumps(walked), (page.game.pk, viewer)
                summary = s.GameSummarySerializer(page.game, context=context).data
                walked_summary = serializers.Serializer.to_representation(
                    s.GameSummarySerializer(context=context),
                    s.GameSummarySerializer(context=context).summary_values(page.game, list(page.game.seats.all())),
                )
                assert json.dumps(summary) == json.dumps(walked_summary), (page.game.pk, viewer)
                mine = [seat["is_you"] for seat in detail["seats"]]
                seated = getattr(viewer, "pk", None) in {seat.user_id for seat in page.seats}
                assert mine.count(True) == (1 if seated else 0)
    many = s.GameSummarySerializer([page.game for page, _v in pages], many=True, context={"user": pages[0][1]}).data
    assert [game["id"] for game in many] == [page.game.pk for page, _v in pages]


@pytest.mark.django_db
def test_a_subclass_that_adds_a_field_has_it_shaped():
    class WithNote(s.GameSummarySerializer):
        note = serializers.CharField()

        def summary_values(self, game, seats):
            return {**super().summary_values(game, seats), "note": 42}

    page, viewer = _pages_of_every_shape()[0]
    shaped = WithNote(page.game, context={"user": viewer}).data
    assert shaped["note"] == "42" and shaped["id"] == page.game.pk
