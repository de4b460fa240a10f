"""Mail moulds (accounts.mail.MailMould): a drain renders a reminder's templates once per
language and shape and fills the printed values in. Every mail must be, to the byte, what
rendering its templates would have written: in each language, for each kind that uses
moulds, with names that HTML must escape, and with values the mould cannot take."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core import signing
from django.utils import timezone

from accounts.mail import MailMould, user_email_render
from correspondence import mail as correspondence_mail
from correspondence.pictures import mail_turn
from games.models import Alarm
from tests.factories import to_move

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db

TEMPLATE_NAMES = (
    "correspondence/email/alarm_subject.txt",
    "correspondence/email/alarm.txt",
    "correspondence/email/alarm.html",
)
TEMPLATES: dict[str, Any] = dict(
    zip(("subject_template", "body_template", "html_template"), TEMPLATE_NAMES, strict=True)
)


def _fill(**changes) -> dict:
    fill = {
        "user_name": "alice",
        "game_name": "Onitama",
        "game_id": 1234567,
        "stem": "Onitama #1234567 with bob",
        "opponent": "bob",
        "open_url": "http://testserver/c/open/abc:def/",
        "unsubscribe_url": "http://testserver/c/unsubscribe/ghi:jkl/",
        "reply_address": "move-1.2.3.abc@reply.example.org",
        "result": "",
        "deadline_text": "Please move before 5 Dec 2026, 10:00 (UTC). Time left: 7\xa0hours.",
    }
    fill.update(changes)
    return fill


HOSTILE = {
    "user_name": "<b>al&ice</b>",
    "opponent": "bob \"<script>\" & 'eve'  %(name)s {{ x }}",
    "stem": "Onitama #1 with <bob> & co",
    "open_url": "http://testserver/?a=1&b=<2>",
}


@pytest.mark.parametrize("language", ["en", "id", "ar"])
@pytest.mark.parametrize("kind", ["reminder", "last_call", "game_over"])
@pytest.mark.parametrize("changes", [{}, {"reply_address": ""}, {"result": "You lost on time"}, HOSTILE])
def test_a_filled_mould_is_the_rendered_templates_to_the_byte(language, kind, changes):
    user = make_user("alice")
    user.language = language
    context = {"kind": kind, "last_moves": [], "legal": {}}
    fill = _fill(**changes)
    moulds: dict = {}
    rendered = user_email_render(user=user, context=context, fill=fill, **TEMPLATES)
    moulded = user_email_render(user=user, context=context, fill=fill, moulds=moulds, **TEMPLATES)
    assert moulded == rendered
    assert len(moulds) == 1
    # the mould serves the next mail of that shape, with other values, and still writes the same
    other = {**fill, "user_name": "carol", "game_id": 42, "opponent": "dave & <eve>", "stem": "Onitama #42 with dave"}
    assert user_email_render(user=user, context=context, fill=other, moulds=moulds, **TEMPLATES) == user_email_render(
        user=user, context=context, fill=other, **TEMPLATES
    )
    assert len(moulds) == 1
    if changes is HOSTILE:
        assert "&lt;b&gt;al&amp;ice&lt;/b&gt;" in str(moulded[2])  # escaped in the HTML
        assert "<b>al&ice</b>" in moulded[1]  # as it is in the text


def test_a_mould_is_one_per_language_and_shape():
    user = make_user("alice")
    moulds: dict = {}
    for language in ("en", "ar"):
        user.language = language
        for kind in ("reminder", "game_over"):
            for reply in ("", "move@reply.example.org"):
                user_email_render(
                    user=user,
                    context={"kind": kind, "last_moves": [], "legal": {}},
                    fill=_fill(reply_address=reply),
                    moulds=moulds,
                    **TEMPLATES,
                )
    assert len(moulds) == 8


def test_a_value_holding_a_marker_character_is_rendered_by_the_templates_instead():
    user = make_user("alice")
    fill = _fill(opponent="bob\ue0000<\ue001")
    context = {"kind": "reminder", "last_moves": [], "legal": {}}
    assert MailMould.render({}, templates=TEMPLATE_NAMES, context=context, fill=fill) is None
    moulded = user_email_render(user=user, context=context, fill=fill, moulds={}, **TEMPLATES)
    assert moulded == user_email_render(user=user, context=context, fill=fill, **TEMPLATES)
    assert "bob\ue0000<\ue001" in moulded[1]


def test_an_unhashable_context_is_rendered_by_the_templates():
    context = {"kind": "reminder", "game": object()}
    assert MailMould.render({}, templates=TEMPLATE_NAMES, context=context, fill=_fill()) is None


@pytest.mark.parametrize("language", ["en", "id", "ar"])
def test_turn_mails_and_reminders_of_a_drain_are_those_rendered_one_by_one(language):
    """End to end through alarm_message: real games, real alarms, one shared mould cache."""
    players = [make_user("p%d" % i) for i in range(4)]
    for player in players:
        player.language = language
        player.time_zone = "Asia/Jakarta" if player.pk % 2 else ""
        player.save()
    games = [
        start_game(players[0], players[1], "onitama", {"cards": "base"}),
        start_game(players[2], players[3], "maatatahay"),
    ]
    games = [play(game, 2) for game in games]
    now = timezone.now() + timedelta(hours=3)
    moulds: dict = {}
    for game in games:
        waiting = to_move(game)
        for kind in (Alarm.Kind.YOUR_TURN, Alarm.Kind.REMINDER, Alarm.Kind.LAST_CALL):
            alarm = Alarm(game=game, user=waiting, kind=kind, turn=game.turn, due_at=now)
            # one timestamp in the signed links of both (a second may tick between them)
            with mock.patch.object(signing.TimestampSigner, "timestamp", return_value="1tick"):
                moulded = correspondence_mail.alarm_message(alarm, now=now, moulds=moulds)
                rendered = correspondence_mail.alarm_message(alarm, now=now)
            assert moulded.subject == rendered.subject
            assert moulded.body == rendered.body
            assert moulded.alternatives == rendered.alternatives
            assert waiting.username in moulded.body and str(game.pk) in moulded.subject
    # one language: a mould per kind, and per "your turn" with and without the opponent's moves
    # (a Maatatahay player may still be on the turn they began): the second game's mails reused
    # the first's moulds, the turn sections filled in like the names
    turn_shapes = {bool(mail_turn(game, to_move(game).pk).moves_html) for game in games}
    assert len(moulds) == 2 + len(turn_shapes)


# The template the deadline's sentence was rendered from before it was written in Python.
DEADLINE_TEMPLATE = (
    "{% load i18n tz %}{% autoescape off %}{% if deadline %}{% timezone time_zone %}"
    '{% blocktrans with deadline=deadline|date:"DATETIME_FORMAT" %}'
    "Please move before {{ deadline }} ({{ time_zone }}).{% endblocktrans %}{% endtimezone %} "
    "{% blocktrans with left=deadline|timeuntil:now %}Time left: {{ left }}.{% endblocktrans %}"
    '{% else %}{% trans "Your clock stands still for now." %}{% endif %}{% endautoescape %}'
)


@pytest.mark.parametrize("language", ["en", "id", "ar"])
@pytest.mark.parametrize("time_zone", ["UTC", "Asia/Jakarta", "America/St_Johns", "Asia/Kolkata"])
def test_the_deadline_sentence_says_what_its_template_said(language, time_zone):
    from django.template import Context, Template
    from django.utils import translation

    now = timezone.now()
    template = Template(DEADLINE_TEMPLATE)
    with translation.override(language):
        for left in (None, timedelta(minutes=3), timedelta(hours=7, minutes=5), timedelta(days=3)):
            deadline = now + left if left is not None else None
            expected = template.render(Context({"deadline": deadline, "now": now, "time_zone": time_zone}))
            assert correspondence_mail.deadline_sentence(deadline, now=now, time_zone=time_zone) == expected


def test_the_turn_section_is_written_with_the_picture_of_the_player_to_move_and_stored_sealed():
    """After a move the pictures task writes the turn section of the player to move (what the
    opponent played, the decisions open) once, sealed beside their picture; the sweep prints it
    without replaying the game. The opponent's picture carries none."""
    from correspondence import pictures
    from correspondence.models import MailPicture
    from correspondence.turn_text import TurnParts, turn_parts
    from games.models import Move

    alice, bob = make_user("alice"), make_user("bob")
    game = play(start_game(alice, bob, "maatatahay"), 3)
    waiting = to_move(game)
    other = bob if waiting == alice else alice
    assert pictures.mail_pictures_render(game_id=game.pk).rendered == 2
    stored = {picture.user_id: picture for picture in MailPicture.objects.filter(game=game)}
    assert stored[other.pk].sealed_turn == ""
    sealed = stored[waiting.pk].sealed_turn
    moves = list(Move.objects.filter(game=game).select_related("seat__user").order_by("ply"))
    expected = turn_parts(game, waiting.pk, moves)
    assert expected.text and expected.legal_html
    # sealed: none of its move texts or words in clear
    for move in moves:
        assert move.text not in sealed
    assert "Decisions open to you" not in sealed
    # the sweep's read of it is what writing it now gives
    found = pictures.mail_pictures_store(wanted=[(game, [waiting.pk])])
    assert found.rendered == 0 and found.turns[(game.pk, waiting.pk)] == expected
    assert isinstance(found.turns[(game.pk, waiting.pk)], TurnParts)
    # and the mail prints it
    alarm = Alarm(game=game, user=waiting, kind=Alarm.Kind.YOUR_TURN, turn=game.turn, due_at=timezone.now())
    message = correspondence_mail.alarm_message(alarm, now=timezone.now(), moulds={})
    assert expected.text in message.body
    assert str(expected.legal_html) in str(message.alternatives[0][0])


def test_a_picture_stored_without_the_turn_section_is_drawn_again_for_a_turn_mail_not_a_reminder():
    from correspondence import pictures
    from correspondence.models import MailPicture

    alice, bob = make_user("alice"), make_user("bob")
    game = play(start_game(alice, bob, "onitama", {"cards": "base"}), 1)
    waiting = to_move(game)
    pictures.mail_pictures_render(game_id=game.pk)
    MailPicture.objects.filter(game=game).update(sealed_turn="")  # as stored before turn sections
    # a reminder wants no turn section: the stored picture serves
    reminder = pictures.mail_pictures_store(wanted=[(game, [waiting.pk])], turns=[])
    assert reminder.rendered == 0 and (game.pk, waiting.pk) in reminder.pngs and not reminder.turns
    # a "your turn" mail does: drawn again, with it
    found = pictures.mail_pictures_store(wanted=[(game, [waiting.pk])], turns=[(game.pk, waiting.pk)])
    assert found.rendered == 1 and (game.pk, waiting.pk) in found.turns
    assert MailPicture.objects.get(game=game, user=waiting).sealed_turn
