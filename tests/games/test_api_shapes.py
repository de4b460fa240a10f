"""The API's list shapes built directly (games.serializers' list serializers) give exactly what
DRF's field-by-field walk gives for the same objects: no database needed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

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
