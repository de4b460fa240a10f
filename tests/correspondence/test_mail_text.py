"""Mail you can decide from: what the opponent played, time left, the legal moves or the
kinds of decision, how a game ended; vacation and back-from-vacation notices; the
digest's time zone and mailto links; the calendar's and the settings page's language and
time zone. Then the headers that make mail behave like mail (Message-ID, Date, threading,
subject stem, List-Id, the HTML's language and direction)."""

from __future__ import annotations

import re
import zoneinfo
from datetime import timedelta
from email import message_from_bytes, policy
from urllib.parse import unquote

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

import engine
from correspondence import mail as correspondence_mail
from correspondence import services
from games import services as games_services
from games.models import Game
from games.rules import game_state, legal_moves_of
from tests.factories import running_deadline, to_move
from tests.helpers import html_alternative

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db


def _mails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def _other(game: Game, user):
    return next(seat.user for seat in game.seats.all() if seat.user_id != user.pk)


def test_your_turn_says_what_the_opponent_played_the_time_left_and_the_onitama_moves_by_card(alice, bob):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, seed=11)
    mover = to_move(game)
    played = engine.get_game("onitama").move_text(engine.get_game("onitama").legal_moves(game_state(game))[0])
    game = play(game, 1)
    waiting = to_move(game)
    assert waiting != mover
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    [message] = _mails_to(waiting)
    body, html = message.body, html_alternative(message)
    # the opponent's move, in notation and in words
    card, squares = played.split(":")
    assert "Your opponent just played:" in body and played in body
    assert re.search(r"with %s, their (student|master) moved from %s to %s" % (card, squares[:2], squares[2:]), body)
    assert played in html
    # the time left
    assert re.search(r"Time left: 2\xa0days, 23\xa0hours|Time left: 3\xa0days", body), body
    # every legal move, grouped by card, in short notation
    legal = legal_moves_of(kind="onitama", state=game_state(game))
    by_card: dict[str, list[str]] = {}
    for move in legal:
        by_card.setdefault(str(move.parts["card"]), []).append(move.text.split(":")[1])
    for name, moves in by_card.items():
        assert "  %s: %s\n" % (name, " ".join(moves)) in body
    assert "Write a move as card:fromto, e.g. %s" % legal[0].text in body


def test_the_first_turn_mail_has_no_opponent_move_to_tell(onitama_game):
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    [message] = mail.outbox
    assert "Your opponent just played" not in message.body
    assert "Your legal moves, by card:" in message.body


def test_your_turn_in_maatatahay_names_the_kinds_of_decision_open_with_one_example(alice, bob):
    game = start_game(alice, bob, "maatatahay", seed=5)
    first = to_move(game)
    while to_move(game) == first:  # the first player's whole turn
        game = play(game, 1)
    waiting = to_move(game)
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    [message] = [m for m in _mails_to(waiting) if "your turn" in m.subject]
    assert "Your opponent just played:" in message.body
    rules = engine.get_game("maatatahay")
    legal = legal_moves_of(kind="maatatahay", state=game_state(game))
    kinds = {str(m.parts["type"]) for m in legal}
    assert "Decisions open to you:" in message.body
    examples = re.findall(r"\(\d+ ways?\), for example: (.+)", message.body)
    assert len(examples) == len(kinds) >= 1
    for example in examples:  # each example is a legal decision now
        rules.parse_move(game_state(game), example.strip())
    # the opponent's decisions are told in words (a pick names the tiles, a placement its square)
    told = r"took \w+ for Wazu and \w+ for Balan|chose \w+ to place first|placed \w+ on [a-e][1-5]"
    assert re.search(told, message.body)


def test_reminders_say_how_much_time_is_left(onitama_game):
    game = onitama_game
    services.alarms_send_due(now=timezone.now())
    mail.outbox.clear()
    share = game.turn_started_at + (game.deadline - game.turn_started_at) * 0.8
    services.alarms_send_due(now=share)
    services.alarms_send_due(now=game.deadline - timedelta(hours=6))
    reminder, last_call = mail.outbox
    assert "time is running out" in reminder.subject and "Time left: 14\xa0hours, 24\xa0minutes" in reminder.body
    assert "last hours to move" in last_call.subject
    assert "Time left: 6\xa0hours" in last_call.body


def test_game_over_says_how_it_ended_and_against_whom(onitama_game, alice, bob):
    services.alarms_send_due(now=timezone.now())
    mail.outbox.clear()
    games_services.game_resign(game_id=onitama_game.pk, user=alice)
    services.alarms_send_due(now=timezone.now())
    [lost] = _mails_to(alice)
    [won] = _mails_to(bob)
    assert "Onitama #%d against %s is over. You lost: you resigned." % (onitama_game.pk, bob.public_name) in lost.body
    assert (
        "Onitama #%d against %s is over. You won: your opponent resigned."
        % (
            onitama_game.pk,
            alice.public_name,
        )
        in won.body
    )
    assert lost.subject == "Onitama #%d with %s: the game is over" % (onitama_game.pk, bob.public_name)


def test_vacation_mail_lists_only_stopped_clocks_carries_unsubscribe_and_is_followed_by_a_back_mail(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    allowed = start_game(alice, bob)
    forbidden = start_game(alice, bob)
    only_forbidden = start_game(alice, carol)
    Game.objects.filter(pk__in=[forbidden.pk, only_forbidden.pk]).update(vacation_allowed=False)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.vacation_start(user=alice, days=2)
    assert _mails_to(carol) == []  # carol's one game with alice goes on: nothing to tell
    [notice] = _mails_to(bob)
    assert notice.subject == "%s is on vacation" % alice.public_name
    assert "#%d:" % allowed.pk in notice.body and "#%d" % forbidden.pk not in notice.body
    assert "#%d<" % allowed.pk in html_alternative(notice) and "#%d<" % forbidden.pk not in html_alternative(notice)
    assert notice.extra_headers["List-Unsubscribe"].startswith("<http://testserver/correspondence/unsubscribe/")
    assert notice.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.vacation_end(user=alice)
    assert _mails_to(carol) == []
    [back] = _mails_to(bob)
    assert back.subject == "%s is back from vacation" % alice.public_name
    assert "Their clock runs again" in back.body
    assert "#%d:" % allowed.pk in back.body and "#%d" % forbidden.pk not in back.body
    assert back.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_digest_names_its_time_zone_and_links_each_game_to_its_reply_address(alice, bob):
    carol = make_user("carol")
    games = [start_game(bob, alice), start_game(carol, alice)]
    for game in games:
        if game.to_move_user != alice:
            play(game, 1)
        game.refresh_from_db()
    alice.time_zone = "Asia/Jakarta"
    alice.save()
    services.mail_preferences_update(user=alice, turn_mail="digest", digest_hour=9)
    services.digests_send_due(now=timezone.now())
    from correspondence.models import DigestAlarm

    due = DigestAlarm.objects.get(user=alice).due_at
    mail.outbox.clear()
    assert services.digests_send_due(now=due).sent == 1
    [digest] = _mails_to(alice)
    assert "Times are in your time zone, Asia/Jakarta." in digest.body
    html = html_alternative(digest)
    assert "Asia/Jakarta" in html
    links = re.findall(r'href="(mailto:[^"]+)"', html)
    assert len(links) == 2
    for game, link in zip(sorted(games, key=lambda g: (g.deadline, g.pk)), links, strict=True):
        address = correspondence_mail.reply_address(game=game, user_id=alice.pk)
        assert unquote(link.split("?")[0].replace("&amp;", "&")) == "mailto:" + address
        assert "Onitama #%d with" % game.pk in unquote(link.split("subject=")[1])
    assert "Reply-To" not in digest.extra_headers and not digest.reply_to  # two games: no single answer


def test_calendar_titles_follow_the_players_language_not_the_clients(client, alice, bob):
    start_game(alice, bob)
    alice.language = "id"
    alice.save()
    feed = services.calendar_feed_renew(user=alice)
    answer = client.get(reverse("correspondence:calendar", args=[feed.secret]), HTTP_ACCEPT_LANGUAGE="ar")
    text = answer.content.decode()
    assert answer.status_code == 200
    assert "X-WR-CALNAME:Tenggat langkah Maatasite" in text and "SUMMARY:Giliran " in text
    assert "Maatasite move deadlines" not in text and "to move:" not in text


def test_the_settings_page_labels_the_vacation_end_in_the_players_time_zone(client, alice):
    alice.time_zone = "Asia/Jakarta"
    alice.save()
    vacation = services.vacation_start(user=alice, days=2)
    client.force_login(alice)
    page = client.get(reverse("correspondence:settings")).content.decode()
    local = vacation.planned_end.astimezone(zoneinfo.ZoneInfo("Asia/Jakarta"))
    assert "(Asia/Jakarta)" in page and "(UTC)" not in page
    assert (
        local.strftime("%H:%M").lstrip("0") in page
        or local.strftime("%-I:%M") in page
        or "%d:%02d"
        % (
            local.hour,
            local.minute,
        )
        in page
    )


# ---------------------------------------------------------------- headers and layout


def test_headers_message_id_date_list_id_and_one_thread_per_game(alice, bob):
    first, second = start_game(alice, bob), start_game(alice, bob)
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    one = next(m for m in mail.outbox if f"#{first.pk} " in m.subject)
    mover = to_move(first)
    services.alarms_send_due(now=running_deadline(first) - timedelta(hours=6))
    games_services.game_resign(game_id=first.pk, user=mover)
    services.alarms_send_due(now=timezone.now())
    of_first = [m for m in _mails_to(mover) if f"#{first.pk} " in m.subject]
    assert len(of_first) >= 3  # your turn, reminder(s), game over
    parsed = [message_from_bytes(m.message().as_bytes(), policy=policy.default) for m in of_first]
    stem = "Onitama #%d with %s" % (first.pk, _other(first, mover).public_name)
    ids = set()
    for message in parsed:
        assert message["Subject"].startswith(stem + ": ")
        assert re.fullmatch(r"<[^@<>]+@testserver>", message["Message-ID"]), message["Message-ID"]
        ids.add(message["Message-ID"])
        assert message["Date"].endswith("+0000")
        assert (
            message["In-Reply-To"]
            == message["References"]
            == "<game-%d.player-%d@testserver>"
            % (
                first.pk,
                mover.pk,
            )
        )
        assert message["List-Id"] == "Maatasite game mail <games.testserver>"
        assert message["Auto-Submitted"] is None or message["Auto-Submitted"].startswith("auto-")
    assert len(ids) == len(parsed)  # each mail its own id
    other_game = next(m for m in mail.outbox if f"#{second.pk} " in m.subject)
    recipient = to_move(second)
    assert other_game.to == [recipient.email]
    assert other_game.extra_headers["References"] == "<game-%d.player-%d@testserver>" % (second.pk, recipient.pk)
    assert other_game.extra_headers["References"] != one.extra_headers["References"]  # another conversation


def test_html_mail_names_its_language_direction_and_charset(onitama_game):
    user = to_move(onitama_game)
    user.language = "ar"
    user.save()
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    html = html_alternative(mail.outbox[0])
    assert '<html lang="ar" dir="rtl">' in html and '<meta charset="utf-8">' in html
    assert '<body dir="rtl"' in html
    raw = mail.outbox[0].message().as_bytes()
    parsed = message_from_bytes(raw, policy=policy.default)
    html_part = parsed.get_body(preferencelist=("html",))
    assert html_part is not None and html_part.get_content_charset() == "utf-8"
    english = to_move(play(onitama_game, 1))
    mail.outbox.clear()
    services.alarms_send_due(now=timezone.now())
    assert '<html lang="en" dir="ltr">' in html_alternative(_mails_to(english)[0])


def test_account_mail_has_the_sites_message_id_and_date_too(alice, django_capture_on_commit_callbacks):
    from accounts.outbox import outbox_add

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        outbox_add(kind="password_reset", user=alice)
    [message] = mail.outbox
    parsed = message_from_bytes(message.message().as_bytes(), policy=policy.default)
    assert parsed["Message-ID"].endswith("@testserver>") and parsed["Date"].endswith("+0000")
