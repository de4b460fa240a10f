"""Bounces and complaints: the provider's webhook, SMTP refusals, no mail to a failing
address, the banner, and fixing the address by confirming one."""

from __future__ import annotations

import json
import threading
from smtplib import SMTPRecipientsRefused

import pytest
from django.core import mail
from django.core.mail import get_connection
from django.urls import reverse
from django.utils import timezone

from accounts import mail as accounts_mail
from accounts import outbox
from accounts.deliverability import address_failure_record
from accounts.models import OutgoingMail
from accounts.tasks import outbox_send
from correspondence import services
from games.models import Alarm
from tests.conftest import free_port
from tests.factories import to_move
from tests.helpers import matched

from .conftest import play, start_game

pytestmark = pytest.mark.django_db

SECRET = "bounce-test-secret"
URL = "/correspondence/webhooks/bounces/"


@pytest.fixture(autouse=True)
def _webhook_secret(settings):
    settings.MAIL_WEBHOOK_SECRET = SECRET


def post(client, payload, *, secret=SECRET, raw=None):
    headers = {"HTTP_X_WEBHOOK_SECRET": secret} if secret is not None else {}
    body = raw if raw is not None else json.dumps(payload)
    return client.post(URL, data=body, content_type="application/json", **headers)


def fresh(user):
    user.refresh_from_db()
    return user


# ---------------------------------------------------------------- the webhook


def test_the_url_is_the_documented_one():
    assert reverse("correspondence:bounce_webhook") == URL


def test_the_webhook_needs_the_secret(client, alice, settings):
    event = {"type": "bounce", "bounce_type": "hard", "email": alice.email}
    assert post(client, event, secret=None).status_code == 403
    assert post(client, event, secret="wrong").status_code == 403
    settings.MAIL_WEBHOOK_SECRET = ""  # unset: the endpoint is off
    assert post(client, event, secret="").status_code == 404
    assert client.get(URL).status_code == 405
    assert not fresh(alice).email_is_failing


def test_a_hard_bounce_marks_the_address_failing_once(client, alice, bob):
    payload = {
        "events": [
            {"type": "bounce", "bounce_type": "hard", "email": "ALICE@example.org", "detail": "550 5.1.1 user unknown"}
        ]
    }
    response = post(client, payload)
    assert response.status_code == 200
    assert response.json() == {"marked": 1, "soft": 0, "unknown": 0}
    alice = fresh(alice)
    assert alice.email_is_failing and alice.email_failure == "bounce"
    assert alice.email_failure_detail == "550 5.1.1 user unknown"
    assert alice.email_on_your_turn and alice.email_reminders  # a bounce keeps the preferences
    since = alice.email_failing_since
    assert post(client, payload).json() == {"marked": 1, "soft": 0, "unknown": 0}  # idempotent
    assert fresh(alice).email_failing_since == since
    assert not fresh(bob).email_is_failing


def test_a_soft_bounce_is_counted_and_changes_nothing(client, alice):
    response = post(client, {"type": "bounce", "bounce_type": "soft", "email": alice.email, "detail": "mailbox full"})
    assert response.status_code == 200 and response.json() == {"marked": 0, "soft": 1, "unknown": 0}
    assert not fresh(alice).email_is_failing


def test_a_complaint_turns_every_kind_of_mail_off(client, alice):
    alice.turn_mail = "digest"
    alice.save()
    response = post(client, {"events": [{"type": "complaint", "email": alice.email}]})
    assert response.json() == {"marked": 1, "soft": 0, "unknown": 0}
    alice = fresh(alice)
    assert alice.email_failure == "complaint" and alice.email_is_failing
    assert (alice.email_on_your_turn, alice.email_on_game_over, alice.email_reminders) == (False, False, False)
    assert alice.turn_mail == "digest"
    # a later hard bounce does not make it a mere bounce
    post(client, {"type": "bounce", "bounce_type": "hard", "email": alice.email})
    assert fresh(alice).email_failure == "complaint"


def test_a_complaint_after_a_bounce_becomes_a_complaint(alice):
    address_failure_record(email=alice.email, failure="bounce", detail="550")
    since = fresh(alice).email_failing_since
    address_failure_record(email=alice.email, failure="complaint")
    alice = fresh(alice)
    assert alice.email_failure == "complaint" and alice.email_failing_since == since
    assert not alice.email_on_your_turn


def test_unknown_addresses_are_counted_and_ignored(client, alice):
    response = post(
        client,
        {"events": [{"type": "complaint", "email": "nobody@example.org"}, {"type": "bounce", "email": alice.email}]},
    )
    assert response.status_code == 200
    assert response.json() == {"marked": 1, "soft": 0, "unknown": 1}  # bounce_type defaults to hard
    assert fresh(alice).email_failure == "bounce"


@pytest.mark.parametrize(
    "raw, code",
    [
        ("{not json", "bad_json"),
        ("", "bad_json"),
        ('{"type": "bounce", "email": "alice@example.org", "detail": NaN}', "bad_json"),
        ("[" * 1000 + "]" * 1000, "too_deep"),  # was a RecursionError, a 500
        ('{"events": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
        (b"\xff\xfe{}", "bad_encoding"),
        ('{"events": []}', "bad_bounce_events"),
        ('{"events": "alice@example.org"}', "bad_bounce_events"),
        ("[1, 2]", "bad_bounce_event"),
        ('{"type": "bounce", "bounce_type": "hard"}', "bad_bounce_event"),
        ('{"type": "delivered", "email": "alice@example.org"}', "bad_bounce_event"),
        ('{"type": "bounce", "bounce_type": "permanent", "email": "alice@example.org"}', "bad_bounce_event"),
        ('{"type": "complaint", "email": "alice@example.org", "detail": 5}', "bad_bounce_event"),
    ],
)
def test_bad_input_is_a_400_with_a_message(client, alice, raw, code):
    response = post(client, None, raw=raw)
    assert response.status_code == 400
    assert response.json()["error"] == code and response.json()["message"]
    assert not fresh(alice).email_is_failing


def test_one_bad_event_records_none_of_the_batch(client, alice):
    response = post(client, {"events": [{"type": "complaint", "email": alice.email}, {"type": "complaint"}]})
    assert response.status_code == 400 and "1" in response.json()["message"]
    assert not fresh(alice).email_is_failing


# ---------------------------------------------------------------- no mail to a failing address


def test_the_alarm_sweep_sends_nothing_to_a_failing_address(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    other = bob if mover == alice else alice
    address_failure_record(email=mover.email, failure="bounce")
    mail.outbox.clear()
    result = services.alarms_send_due(now=timezone.now())
    assert mail.outbox == [] and result.outcomes == {"failing": 1}
    assert Alarm.objects.get(game=game, kind="your_turn", turn=game.turn).outcome == "failing"
    play(game, 1)  # the other player's turn: their mail still goes out
    services.alarms_send_due(now=timezone.now())
    assert [m.to for m in mail.outbox] == [[other.email]]


def test_the_digest_skips_a_failing_address(alice, bob):
    game = start_game(bob, alice)
    if game.to_move_user != alice:
        play(game, 1)
    services.mail_preferences_update(user=alice, turn_mail="digest")
    now = timezone.now()
    services.digests_send_due(now=now)
    row = alice.digest_alarm
    row.refresh_from_db()
    address_failure_record(email=alice.email, failure="bounce")
    mail.outbox.clear()
    assert services.digests_send_due(now=row.due_at).sent == 0
    assert mail.outbox == []
    row.refresh_from_db()
    assert row.due_at > now and row.claimed_at is None  # moved on to the next day


def test_the_outbox_and_user_email_build_refuse_a_failing_address(alice, django_capture_on_commit_callbacks):
    address_failure_record(email=alice.email, failure="complaint")
    alice = fresh(alice)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert outbox.outbox_add(kind="signup_confirmation", user=alice) is None
    assert mail.outbox == [] and callbacks == [] and not OutgoingMail.objects.exists()
    with pytest.raises(accounts_mail.AddressFailing):
        accounts_mail.user_email_build(
            user=alice,
            subject_template="accounts/email/confirmation_subject.txt",
            body_template="accounts/email/confirmation_body.txt",
            context={"confirm_url": "x", "max_age_days": 3},
        )
    # the link to an address being confirmed still goes out, to that address
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            outbox.outbox_add(kind="email_change", user=alice, to="alice@new.example.org", params={"old": alice.email})
            is not None
        )
    assert [m.to for m in mail.outbox] == [["alice@new.example.org"]]


def test_a_row_queued_before_the_address_failed_is_not_sent(bob, django_capture_on_commit_callbacks):
    row = outbox.outbox_add(kind="signup_confirmation", user=bob)  # its task waits for the commit
    assert row is not None
    address_failure_record(email=bob.email, failure="bounce")
    mail.outbox.clear()
    assert outbox_send.delay(row.pk).get() == 0
    assert mail.outbox == [] and OutgoingMail.objects.get(pk=row.pk).outcome == "failing"


def test_a_failing_address_gets_no_vacation_notice(alice, bob, carol, django_capture_on_commit_callbacks):
    start_game(alice, bob)
    start_game(alice, carol)
    address_failure_record(email=bob.email, failure="bounce")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.vacation_start(user=alice, days=2)
    assert [m.to for m in mail.outbox] == [[carol.email]]


# ---------------------------------------------------------------- the banner and fixing the address


def test_the_banner_shows_on_every_page_while_the_address_fails(client, alice):
    client.force_login(alice)
    home = reverse("games:home")
    assert "mail-failing-banner" not in client.get(home).content.decode()
    address_failure_record(email=alice.email, failure="bounce")
    for url in (home, reverse("accounts:profile"), reverse("correspondence:settings")):
        page = client.get(url).content.decode()
        assert "mail-failing-banner" in page and "Mail to alice@example.org bounced" in page
        assert 'href="%s"' % reverse("accounts:email_change") in page
    address_failure_record(email=alice.email, failure="complaint")
    assert "was marked as spam" in client.get(home).content.decode()
    client.logout()
    assert "mail-failing-banner" not in client.get(home).content.decode()


def test_confirming_a_new_address_clears_the_failure(client, alice, django_capture_on_commit_callbacks):
    address_failure_record(email=alice.email, failure="bounce")
    client.force_login(alice)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("accounts:email_change"), {"new_email": "alice@fixed.example.org", "password": "wrong"}
        )
    assert response.status_code == 200 and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("accounts:email_change"), {"new_email": "alice@fixed.example.org", "password": "pw-alice-123456"}
        )
    assert response.status_code == 302
    assert [m.to for m in mail.outbox] == [["alice@fixed.example.org"]]
    assert fresh(alice).email == "alice@example.org" and alice.email_is_failing  # not before the link
    link = matched(r"http://testserver(/accounts/email/confirm/\S+/)", mail.outbox[0].body).group(1)
    assert client.get(link).status_code == 200 and fresh(alice).email_is_failing  # a GET changes nothing
    assert client.post(link).status_code == 302
    alice = fresh(alice)
    assert alice.email == "alice@fixed.example.org" and not alice.email_is_failing
    assert (alice.email_failure, alice.email_failure_detail) == ("", "")
    assert "mail-failing-banner" not in client.get(reverse("games:home")).content.decode()
    again = client.post(link)  # the link works once: a second use changes nothing
    assert again.status_code == 200 and "already been used" in again.content.decode()
    assert fresh(alice).email == "alice@fixed.example.org"


def test_confirming_the_same_address_again_clears_the_failure(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)
    response = client.post(reverse("accounts:email_change"), {"new_email": alice.email, "password": "pw-alice-123456"})
    assert response.status_code == 200 and "already your address" in response.content.decode()
    address_failure_record(email=alice.email, failure="bounce")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:email_change"), {"new_email": alice.email, "password": "pw-alice-123456"})
    link = matched(r"http://testserver(/accounts/email/confirm/\S+/)", mail.outbox[0].body).group(1)
    client.post(link)
    assert not fresh(alice).email_is_failing


def test_an_address_of_another_account_cannot_be_taken(client, alice, bob, django_capture_on_commit_callbacks):
    client.force_login(alice)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("accounts:email_change"), {"new_email": "BOB@example.org", "password": "pw-alice-123456"}
        )
    assert response.status_code == 200 and mail.outbox == []
    assert "already exists" in response.content.decode()


# ---------------------------------------------------------------- our SMTP server refuses a recipient


class RefusingSmtp:
    """A real SMTP server (aiosmtpd) that refuses the recipients listed in ``refuse``."""

    def __init__(self):
        self.refuse: dict[str, str] = {}
        self.delivered: list[list[str]] = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.delivered.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


@pytest.fixture(scope="module")
def refusing_smtp_server():
    from aiosmtpd.controller import Controller

    handler = RefusingSmtp()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield handler, controller.port
    finally:
        controller.stop()


@pytest.fixture
def refusing_smtp(refusing_smtp_server, settings):
    handler, port = refusing_smtp_server
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    handler.refuse.clear()
    handler.delivered.clear()
    return handler


def test_a_permanent_smtp_refusal_in_the_mail_task_marks_a_hard_bounce(refusing_smtp, alice):
    refusing_smtp.refuse[alice.email] = "550 5.1.1 No such user here"
    row = outbox.outbox_add(kind="signup_confirmation", user=alice)
    assert row is not None  # alice's address has not failed yet
    sent = outbox_send.delay(row.pk).get()
    assert sent == 0 and refusing_smtp.delivered == []
    alice = fresh(alice)
    assert alice.email_failure == "bounce" and "550" in alice.email_failure_detail
    assert "No such user" in alice.email_failure_detail
    row.refresh_from_db()
    assert row.outcome == "failing" and row.done_at is not None  # not retried
    assert outbox_send.delay(row.pk).get() == 0 and refusing_smtp.delivered == []


def test_a_temporary_smtp_refusal_raises_for_a_retry_and_marks_nothing(refusing_smtp, alice):
    refusing_smtp.refuse[alice.email] = "450 4.2.1 Mailbox busy, try later"
    message = accounts_mail.email_message(to=[alice.email], subject="Hello", body="Hi")
    with pytest.raises(SMTPRecipientsRefused):
        accounts_mail.email_deliver(message, connection=get_connection())
    assert not fresh(alice).email_is_failing


def test_a_refusal_during_the_alarm_sweep_marks_the_address_and_the_sweep_goes_on(refusing_smtp, alice, bob, carol):
    games = [start_game(alice, bob), start_game(carol, bob)]
    for game, mover in zip(games, (alice, carol), strict=True):
        if game.to_move_user != mover:
            play(game, 1)
    refusing_smtp.refuse[alice.email] = "550 5.1.1 Mailbox unavailable"
    result = services.alarms_send_due(now=timezone.now())
    assert fresh(alice).email_failure == "bounce"
    assert refusing_smtp.delivered == [[carol.email]] and result.sent == 1
    alarm = Alarm.objects.get(user=alice, kind="your_turn", game=games[0], turn=games[0].turn)
    assert alarm.outcome == "queued"
    assert OutgoingMail.objects.get(kind="alarm", object_id=alarm.pk).outcome == "failing"


# ---------------------------------------------------------------- the rest of the account


def test_a_password_reset_still_goes_to_a_failing_address(client, alice, django_capture_on_commit_callbacks):
    """The player asked for it, and it is their way back in to fix the address."""
    address_failure_record(email=alice.email, failure="bounce")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:password_reset"), {"email": alice.email})
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_the_api_tells_the_player_their_address_fails(client, alice):
    client.force_login(alice)
    assert client.get("/api/v1/me/").json()["email_is_failing"] is False
    address_failure_record(email=alice.email, failure="complaint")
    assert client.get("/api/v1/me/").json()["email_is_failing"] is True
