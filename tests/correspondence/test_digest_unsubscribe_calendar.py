"""Digest contents and hour, one-click unsubscribe, the calendar feed, page banners."""

from datetime import UTC, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from correspondence import mail as correspondence_mail
from correspondence import services
from correspondence.models import CalendarFeed, DigestAlarm
from tests.factories import running_deadline
from tests.helpers import html_alternative

from .conftest import make_user, play, start_game

pytestmark = pytest.mark.django_db
UTC = UTC


def test_the_digest_lists_every_waiting_game_once_a_day_at_the_chosen_local_hour(alice, bob):
    carol = make_user("carol")
    games = [start_game(bob, alice), start_game(carol, alice)]
    for game in games:  # make alice the player to move in both
        if game.to_move_user != alice:
            play(game, 1)
    alice.time_zone = "Asia/Jakarta"
    alice.save()
    services.mail_preferences_update(user=alice, turn_mail="digest", digest_hour=7)
    mail.outbox.clear()
    now = timezone.now()
    services.alarms_send_due(now=now)  # per-turn mail for alice is replaced by the digest
    assert [m for m in mail.outbox if m.to == [alice.email]] == []
    services.digests_send_due(now=now)  # reschedules for the new time zone
    row = DigestAlarm.objects.get(user=alice)
    local = row.due_at.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Jakarta"))
    assert (local.hour, local.minute) == (7, 0) and row.due_at > now
    assert services.digests_send_due(now=row.due_at - timedelta(minutes=1)).sent == 0
    assert services.digests_send_due(now=row.due_at).sent == 1
    digest = [m for m in mail.outbox if m.to == [alice.email]]
    assert len(digest) == 1
    message = digest[0]
    assert message.subject == "2 games are waiting for your move"
    for game in games:
        assert "#%d against" % game.pk in message.body
        assert "cid:board-%d" % game.pk in html_alternative(message)
    assert " left)" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # not twice the same day; the next one is due a day later
    assert services.digests_send_due(now=row.due_at + timedelta(minutes=5)).sent == 0
    assert DigestAlarm.objects.get(user=alice).due_at == row.due_at + timedelta(days=1)


def test_no_digest_when_nothing_waits(alice):
    services.mail_preferences_update(user=alice, turn_mail="digest", digest_hour=0)
    row = DigestAlarm.objects.get(user=alice)
    mail.outbox.clear()
    assert services.digests_send_due(now=row.due_at).sent == 0 and mail.outbox == []
    assert DigestAlarm.objects.get(user=alice).due_at > row.due_at


def test_one_click_unsubscribe_turns_off_that_kind_only_without_login(client, alice):
    url = correspondence_mail.unsubscribe_url(user_id=alice.pk, kind="reminders")
    path = url.replace("http://testserver", "")
    page = client.get(path)
    assert page.status_code == 200 and b"<form" in page.content
    alice.refresh_from_db()
    assert alice.email_reminders  # a GET (a link scanner) changes nothing
    answer = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    alice.refresh_from_db()
    assert not alice.email_reminders and alice.email_on_your_turn and alice.email_on_game_over
    assert client.post(path.replace("/unsubscribe/", "/unsubscribe/x")).status_code == 404


def test_a_player_with_all_mail_off_sees_a_warning_on_games_whose_clock_runs(client, alice, bob):
    game = start_game(alice, bob)
    for kind in ("turn", "reminders", "game_over"):
        services.mail_unsubscribe(token=correspondence_mail.tokens.unsubscribe_token(user_id=alice.pk, kind=kind))
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk]))
    assert page.status_code == 200 and b"you get no mail about your games" in page.content
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk]))
    assert b"you get no mail about your games" not in page.content


def test_opponents_see_the_vacation_on_the_game_page(client, alice, bob):
    game = start_game(alice, bob)
    services.vacation_start(user=alice, days=1)
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk]))
    assert b"alice is on vacation until" in page.content and b"clock stands still" in page.content


def test_the_calendar_feed_lists_deadlines_and_can_be_revoked(client, alice, bob):
    game = start_game(alice, bob)
    feed = services.calendar_feed_renew(user=alice)
    url = reverse("correspondence:calendar", args=[feed.secret])
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    text = answer.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert "DTSTART:%s" % running_deadline(game).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ") in text
    assert "UID:game-%d-turn-1@maatasite" % game.pk in text
    renewed = services.calendar_feed_renew(user=alice)
    assert renewed.secret != feed.secret and client.get(url).status_code == 404
    services.calendar_feed_revoke(user=alice)
    assert not CalendarFeed.objects.filter(user=alice).exists()
    assert client.get(reverse("correspondence:calendar", args=[renewed.secret])).status_code == 404


def test_the_settings_page_saves_preferences_and_starts_a_vacation(client, alice):
    client.force_login(alice)
    url = reverse("correspondence:settings")
    assert client.get(url).status_code == 200
    answer = client.post(
        url,
        {
            "action": "preferences",
            "email_on_your_turn": "on",
            "turn_mail": "digest",
            "digest_hour": "6",
            "email_on_game_over": "on",
            "quiet_hours_start": "22",
            "quiet_hours_end": "7",
        },
    )
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert (
        alice.turn_mail,
        alice.digest_hour,
        alice.email_reminders,
        alice.quiet_hours_start,
        alice.quiet_hours_end,
    ) == ("digest", 6, False, 22, 7)
    bad = client.post(
        url, {"action": "preferences", "turn_mail": "each", "digest_hour": "6", "quiet_hours_start": "22"}
    )
    assert bad.status_code == 400
    assert client.post(url, {"action": "vacation_start", "days": "30"}).status_code == 409
    assert client.post(url, {"action": "vacation_start", "days": "1"}).status_code == 302
    assert client.post(url, {"action": "vacation_end"}).status_code == 302
    assert client.post(url, {"action": "vacation_end"}).status_code == 409
    assert client.post(url, {"action": "nonsense"}).status_code == 400


def test_the_signed_link_opens_the_game(client, alice, bob):
    game = start_game(alice, bob)
    path = correspondence_mail.open_url(game_id=game.pk, user_id=alice.pk).replace("http://testserver", "")
    answer = client.get(path)
    assert answer.status_code == 302 and "login" in answer["Location"]
    client.force_login(alice)
    assert client.get(path)["Location"] == reverse("games:game", args=[game.pk])
    assert client.get(path[:-5] + "xxxx/").status_code == 404


def test_the_digest_row_follows_every_save_of_the_preferences(alice):
    """Preferences saved by any path (settings, profile, admin) make, move or remove the row."""
    from accounts import services as account_services

    alice.turn_mail, alice.digest_hour = "digest", 9
    alice.save()  # as the admin saves: every field
    row = DigestAlarm.objects.get(user=alice)
    assert (row.hour, row.time_zone) == (9, alice.time_zone)
    account_services.profile_update(
        user=alice,
        display_name=alice.display_name,
        language="en",
        time_zone="Asia/Jakarta",
        email_on_your_turn=True,
        email_on_game_over=True,
    )
    moved = DigestAlarm.objects.get(user=alice)
    local = moved.due_at.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Jakarta"))
    assert moved.time_zone == "Asia/Jakarta" and (local.hour, local.minute) == (9, 0)
    alice.last_login = timezone.now()
    alice.save(update_fields=["last_login"])  # a sign-in leaves the row alone
    assert DigestAlarm.objects.get(user=alice).due_at == moved.due_at
    services.mail_preferences_update(user=alice, turn_mail="each")
    assert not DigestAlarm.objects.filter(user=alice).exists()


def test_the_digest_sweep_reads_only_the_due_rows(alice, bob):
    """Its cost follows what is due, not how many chose the digest; a row whose user turned
    the digest off by an UPDATE (no save signal) is removed when it falls due, unsent."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    subscribers = [make_user("sub%d" % n) for n in range(12)]
    for user in subscribers:
        services.mail_preferences_update(user=user, turn_mail="digest", digest_hour=3)
    now = timezone.now()
    DigestAlarm.objects.update(due_at=now + timedelta(hours=1))
    with CaptureQueriesContext(connection) as nothing_due:
        assert services.digests_queue_due(now=now).claimed == 0
    [claim] = [q["sql"] for q in nothing_due if "SAVEPOINT" not in q["sql"]]  # none of the accounts
    assert "due_at" in claim and "accounts_user" not in claim

    gone, kept = subscribers[0], subscribers[1]
    type(gone).objects.filter(pk=gone.pk).update(email_on_your_turn=False)
    DigestAlarm.objects.filter(user__in=[gone, kept]).update(due_at=now - timedelta(minutes=1))
    mail.outbox.clear()
    result = services.digests_queue_due(now=now)
    assert result.claimed == 2 and result.queued == 0  # nothing waits for kept
    assert not DigestAlarm.objects.filter(user=gone).exists()
    assert DigestAlarm.objects.get(user=kept).due_at > now
    assert DigestAlarm.objects.count() == len(subscribers) - 1
