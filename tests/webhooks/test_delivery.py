"""Deliveries to a real local HTTP receiver (tests/webhooks/conftest.py) that checks each
signature and timestamp: the events of the feed, at least once, retried with a fresh signature
and the same event id, never twice as rows, switched off after repeated failures (with a mail),
a rotated secret, the log of the last 50 attempts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from accounts.models import OutgoingMail
from accounts.outbox import outbox_send_due
from accounts.services import block_create
from chat.models import Message
from chat.selectors import conversation_for
from chat.services import message_create
from games import services as games_services
from games.events import events_for_user
from tests.factories import play, start_game
from webhooks import services, tasks
from webhooks.mail_kinds import webhook_disabled_render
from webhooks.models import Delivery, DeliveryAttempt, DeliveryStatus, Endpoint

from .conftest import TRICKLE_BYTES

pytestmark = pytest.mark.django_db

ALL = ["your_turn", "challenge_received", "game_over", "message"]


def register(user, receiver, events=ALL, **url):
    endpoint, secret = services.endpoint_create(user=user, url=receiver.url(**url), events=events)
    receiver.secret = secret
    return endpoint


def sync_and_send(endpoint, now=None):
    """What the tasks do: read the feed into deliveries, send each one due."""
    ids = services.endpoint_sync(endpoint_id=endpoint.pk, now=now)
    for delivery_id in ids:
        services.delivery_send(delivery_id=delivery_id, now=now)
    return ids


def test_the_events_of_the_feed_reach_the_receiver_signed(alice, bob, receiver, no_mail_pictures):
    endpoint = register(alice, receiver)
    challenge = games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    game = start_game(bob, alice, "onitama", {"cards": "base"})
    play(game, 2)  # whoever starts (the deal decides), one of these passes the turn to alice
    message_create(game_id=game.pk, author=bob, text="good luck")
    games_services.game_resign(game_id=game.pk, user=bob)
    sync_and_send(endpoint)
    got = receiver.accepted
    kinds = [r.payload["type"] for r in got]
    assert kinds == ["challenge_received", "challenge_received", "your_turn", "message", "game_over"]
    assert all(r.signature_ok for r in receiver.requests) and len(receiver.requests) == 5
    first = got[0].payload
    assert first["challenge_id"] == challenge.pk and first["data"]["challenger"] == "bob" and first["user"] == "alice"
    assert got[3].payload["data"] == {"author": "bob", "text": "good luck", "ply": 2}
    assert got[4].payload["data"]["reason"] == "resign" and got[4].payload["game_id"] == game.pk
    # The event ids are the feed's cursors: the same as the API's events feed, in the header too.
    feed = events_for_user(user=alice, after=None, limit=100).events
    assert [r.payload["id"] for r in got] == ["ev_" + e.cursor.text() for e in feed if e.kind in ALL]
    assert all(r.headers["Maatasite-Event-Id"] == r.payload["id"] for r in got)
    assert all("Cookie" not in r.headers and "Authorization" not in r.headers for r in receiver.requests)
    assert Delivery.objects.filter(status=DeliveryStatus.DELIVERED).count() == 5


def test_only_the_chosen_events_and_only_after_registration(alice, bob, receiver, no_mail_pictures):
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")  # before: not sent
    endpoint = register(alice, receiver, events=["game_over"])
    game = start_game(bob, alice, "onitama", {"cards": "base"})
    play(game, 2)
    games_services.game_resign(game_id=game.pk, user=alice)
    sync_and_send(endpoint)
    assert [r.payload["type"] for r in receiver.accepted] == ["game_over"]


def test_the_tasks_run_from_the_games_and_chat_changes_after_commit(
    alice, bob, receiver, no_mail_pictures, django_capture_on_commit_callbacks
):
    """The real path: a change commits, its receiver nudges, the tasks sync and deliver."""
    register(alice, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(bob, alice, "onitama", {"cards": "base"})
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 2)  # one of the two passes the turn to alice
    with django_capture_on_commit_callbacks(execute=True):
        message_create(game_id=game.pk, author=bob, text="hi")
    with django_capture_on_commit_callbacks(execute=True):
        games_services.game_resign(game_id=game.pk, user=alice)
    assert [r.payload["type"] for r in receiver.accepted] == ["challenge_received", "your_turn", "message", "game_over"]


def test_whether_a_player_has_an_endpoint_is_kept_and_forgotten_when_their_endpoints_change(
    alice, bob, receiver, monkeypatch
):
    """Every move asks whether its players have an active endpoint: the answer is kept (no
    query the second time) and forgotten on every change of the player's endpoints, made,
    switched off, on again, deleted; a move then nudges exactly the players who have one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def asked() -> tuple[list[int], int]:
        with CaptureQueriesContext(connection) as queries:
            found = services.users_with_endpoints(user_ids=[bob.pk, alice.pk, alice.pk])
        return found, len(queries)

    assert asked() == ([], 1)
    assert asked() == ([], 0)  # kept
    endpoint = register(alice, receiver)
    assert asked() == ([alice.pk], 1)  # alice's answer forgotten, bob's kept
    assert asked() == ([alice.pk], 0)
    services.endpoint_update(user=alice, endpoint_id=endpoint.pk, active=False)
    assert asked() == ([], 1)
    services.endpoint_update(user=alice, endpoint_id=endpoint.pk, active=True)
    assert asked() == ([alice.pk], 1)
    nudged: list[int] = []
    monkeypatch.setattr(tasks.webhooks_nudge, "delay_on_commit", nudged.append)
    game = start_game(bob, alice, "onitama", {"cards": "base"})
    play(game, 2)
    assert nudged and set(nudged) == {alice.pk}, nudged  # bob, without an endpoint, never
    services.endpoint_delete(user=alice, endpoint_id=endpoint.pk)
    assert asked() == ([], 1)


def test_a_lost_task_is_made_good_by_the_sweep(alice, bob, receiver, no_mail_pictures):
    """No nudge at all (the broker lost it): beat's sweep reads the feed and sends."""
    register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    assert receiver.requests == []
    tasks.webhooks_sweep.delay()
    assert [r.payload["type"] for r in receiver.accepted] == ["challenge_received"]
    tasks.webhooks_sweep.delay()  # again: nothing new, nothing twice
    assert len(receiver.requests) == 1


def test_a_failing_receiver_gets_retries_with_the_same_id_and_fresh_signatures(settings, alice, bob, receiver):
    settings.WEBHOOKS_RETRY_SECONDS = 10
    receiver.fail_first = 2
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    (delivery_id,) = services.endpoint_sync(endpoint_id=endpoint.pk)
    now = timezone.now()
    retry_at = services.delivery_send(delivery_id=delivery_id, now=now)
    assert retry_at is not None and now + timedelta(seconds=7) <= retry_at <= now + timedelta(seconds=10)
    assert services.delivery_send(delivery_id=delivery_id, now=now + timedelta(seconds=1)) == retry_at  # not yet
    assert len(receiver.requests) == 1
    second = services.delivery_send(delivery_id=delivery_id, now=retry_at)
    assert second is not None and second - retry_at >= timedelta(seconds=15)  # doubled
    assert services.delivery_send(delivery_id=delivery_id, now=second) is None
    tries = receiver.requests
    assert [r.answered for r in tries] == [500, 500, 204] and all(r.signature_ok for r in tries)
    assert len({r.payload["id"] for r in tries}) == 1  # the same event id every time
    assert len({r.headers["Maatasite-Signature"] for r in tries}) == 3  # signed afresh each time
    assert tries[0].timestamp < tries[1].timestamp < tries[2].timestamp
    assert [r.headers["Maatasite-Delivery-Attempt"] for r in tries] == ["1", "2", "3"]
    delivery = Delivery.objects.get(pk=delivery_id)
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 3
    assert Endpoint.objects.get(pk=endpoint.pk).failures == 0  # a success resets the count
    assert services.delivery_send(delivery_id=delivery_id, now=second + timedelta(hours=1)) is None
    assert len(receiver.requests) == 3  # a delivered event is never sent again


def test_reading_the_feed_twice_makes_no_duplicate(alice, bob, receiver):
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    first = services.endpoint_sync(endpoint_id=endpoint.pk)
    Endpoint.objects.filter(pk=endpoint.pk).update(cursor=services._start_cursor(endpoint.created_at))  # replayed
    again = services.endpoint_sync(endpoint_id=endpoint.pk)
    assert first == again and Delivery.objects.count() == 1
    for _ in range(3):  # a task delivered more than once (acks_late, the sweep)
        services.delivery_send(delivery_id=first[0])
    assert len(receiver.requests) == 1


def test_a_stale_signature_is_refused_by_the_receiver(alice, bob, receiver):
    """The receiver's 5-minute rule: a try whose timestamp is 6 minutes old fails, and the
    retry, signed afresh, gets through."""
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    (delivery_id,) = services.endpoint_sync(endpoint_id=endpoint.pk)
    stale = timezone.now() - timedelta(minutes=6)
    Delivery.objects.filter(pk=delivery_id).update(due_at=stale)
    retry_at = services.delivery_send(delivery_id=delivery_id, now=stale)
    assert receiver.requests[0].answered == 401 and not receiver.requests[0].signature_ok
    assert retry_at is not None
    services.delivery_send(delivery_id=delivery_id, now=timezone.now() + timedelta(minutes=1))
    assert [r.answered for r in receiver.requests] == [401, 204]


def test_repeated_failures_switch_the_endpoint_off_and_mail_the_player(settings, alice, bob, receiver):
    settings.WEBHOOKS_DISABLE_AFTER_FAILURES = 3
    settings.WEBHOOKS_RETRY_SECONDS = 1
    receiver.answer = 503
    endpoint = register(alice, receiver)
    for _ in range(2):
        games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    ids = services.endpoint_sync(endpoint_id=endpoint.pk)
    now = timezone.now()
    for step in range(3):
        services.delivery_send(delivery_id=ids[0], now=now + timedelta(minutes=step))
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.failures == 3 and "3 failed" in endpoint.disabled_reason
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.FAILED}
    mail = OutgoingMail.objects.get(kind="webhook_disabled")
    assert mail.user == alice and mail.object_id == endpoint.pk
    outbox_send_due()  # the outbox sends it, rendered then
    (sent,) = django_mail.outbox
    assert sent.to == ["alice@example.org"] and "switched off" in sent.subject
    assert endpoint.url in sent.body and "/settings/webhooks/" in sent.body
    assert OutgoingMail.objects.get(pk=mail.pk).outcome == "sent"
    # Off: nothing more is sent, and the sweep leaves it alone.
    services.delivery_send(delivery_id=ids[1], now=now + timedelta(hours=1))
    tasks.webhooks_sweep.delay()
    assert len(receiver.requests) == 3
    # Switched on again by the player: from now on, with a fresh count.
    receiver.answer = 204
    services.endpoint_update(user=alice, endpoint_id=endpoint.pk, active=True)
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.failures == 0
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    assert [r.answered for r in receiver.requests] == [503, 503, 503, 204]
    assert webhook_disabled_render(mail, endpoint, None) == "endpoint switched on again"


def test_a_delivery_is_given_up_after_its_tries(settings, alice, bob, receiver):
    settings.WEBHOOKS_MAX_ATTEMPTS = 2
    receiver.answer = 500
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    (delivery_id,) = services.endpoint_sync(endpoint_id=endpoint.pk)
    later = timezone.now() + timedelta(hours=2)
    assert services.delivery_send(delivery_id=delivery_id) is not None
    assert services.delivery_send(delivery_id=delivery_id, now=later) is None
    assert Delivery.objects.get(pk=delivery_id).status == DeliveryStatus.FAILED
    assert Endpoint.objects.get(pk=endpoint.pk).active  # 2 failures: under the switch-off count


def test_a_rotated_secret_signs_what_follows(alice, bob, receiver):
    endpoint = register(alice, receiver)
    old = receiver.secret
    _endpoint, new = services.secret_rotate(user=alice, endpoint_id=endpoint.pk)
    assert new != old and new.startswith("whsec_")
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)  # the receiver still checks with the old secret: refused
    assert [r.answered for r in receiver.requests] == [401]
    receiver.secret = new
    (delivery_id,) = Delivery.objects.values_list("pk", flat=True)
    services.delivery_send(delivery_id=delivery_id, now=timezone.now() + timedelta(minutes=2))  # its retry
    assert [r.answered for r in receiver.requests] == [401, 204]


def test_the_delivery_log_keeps_the_last_50_attempts(alice, receiver):
    endpoint = register(alice, receiver)
    rows = [
        Delivery.objects.create(endpoint=endpoint, event_id="ev_%d-1-1" % n, kind="your_turn", payload={"n": n})
        for n in range(55)
    ]
    for row in rows:
        services.delivery_send(delivery_id=row.pk)
    assert len(receiver.accepted) == 55
    assert DeliveryAttempt.objects.filter(endpoint=endpoint).count() == 50
    kept = DeliveryAttempt.objects.filter(endpoint=endpoint).values_list("delivery__payload__n", flat=True)
    assert sorted(kept) == list(range(5, 55))


def test_no_redirect_is_followed(alice, bob, receiver):
    receiver.redirect_to = receiver.url(path="/elsewhere")
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    assert [r.path for r in receiver.requests] == ["/hook"]
    attempt = DeliveryAttempt.objects.get()
    assert attempt.status_code == 302 and not attempt.ok and attempt.error == "redirect not followed"


def test_a_slow_receiver_times_out(settings, alice, bob, receiver):
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.3
    receiver.delay = 1.5
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    attempt = DeliveryAttempt.objects.get()
    assert not attempt.ok and attempt.status_code is None and "timed out" in attempt.error
    assert Delivery.objects.get().status == DeliveryStatus.PENDING


def test_a_receiver_trickling_its_answer_is_cut_off_at_the_timeout(settings, alice, bob, receiver):
    """The timeout is one deadline for the whole delivery: a receiver sending its answer a byte
    at a time (each byte well within the timeout of one read) is cut off, not waited for."""
    settings.WEBHOOKS_TIMEOUT_SECONDS = 0.5
    receiver.trickle = 0.05  # the whole answer would take 100 s
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    attempt = DeliveryAttempt.objects.get()
    assert not attempt.ok and attempt.status_code is None and "timed out" in attempt.error
    assert receiver.cut_off.wait(30), "the site kept reading the trickled answer"
    assert 0 < receiver.trickled < TRICKLE_BYTES
    assert Delivery.objects.get().status == DeliveryStatus.PENDING  # retried later, as any failure


def test_the_name_is_sent_but_the_checked_address_is_connected(alice, bob, receiver, stub_dns, no_private_packets):
    """The endpoint names a host; the delivery connects to the address checked for it, with the
    name in the Host header."""
    stub_dns["receiver.test"] = ["127.0.0.1"]
    endpoint = register(alice, receiver, host="receiver.test")
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    assert receiver.requests[0].headers["Host"] == "receiver.test:%d" % receiver.port
    assert receiver.accepted


def test_messages_respect_blocks_as_the_page_does(alice, bob, receiver, no_mail_pictures):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    endpoint = register(alice, receiver, events=["message"])
    message_create(game_id=game.pk, author=bob, text="before the block")
    message_create(game_id=game.pk, author=alice, text="my own: not an event for me")
    block_create(blocker=alice, blocked=bob)
    # Written after the block (the service refuses it; a row that slipped past, as a race would
    # leave it, is hidden from the page and so from the webhook).
    late = Message.objects.create(game=game, author=bob, text="after the block", ply=game.ply)
    sync_and_send(endpoint)
    assert [r.payload["data"]["text"] for r in receiver.accepted] == ["before the block"]
    page = [m.text for m in conversation_for(game_id=game.pk, user=alice).messages]
    assert "before the block" in page and late.text not in page


def test_the_readmes_signature_check_accepts_a_real_delivery(alice, bob, receiver):
    """The README's example, run as written, on what the receiver got."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Outbound webhooks", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(code, scope)  # noqa: S102  (our own README)
    endpoint = register(alice, receiver)
    games_services.challenge_create(challenger=bob, opponent=alice, kind="onitama")
    sync_and_send(endpoint)
    (got,) = receiver.requests
    verify = scope["verify"]
    assert verify(receiver.secret, got.headers["Maatasite-Signature"], got.body)
    assert not verify(receiver.secret, got.headers["Maatasite-Signature"], got.body + b" ")
    assert not verify("whsec_other", got.headers["Maatasite-Signature"], got.body)
