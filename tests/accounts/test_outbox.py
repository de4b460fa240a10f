"""The outbox (accounts.outbox): every mail is a row, claimed, sent and marked one by one.

With the real services (PostgreSQL, Redis, real SMTP servers, a real prefork worker):
three kills of the whole worker while it sends 500 mails lose nothing and double at most
one mail per sending process and kill; an SMTP outage (down, 421, 451) loses nothing and
sends all once it is back; a 550 marks the address failing and is not retried. In-process:
a task run again sends nothing, tasks carry only a row id, rows hold no signed link or
reply address, done rows are purged, and the outbox imports no app above accounts.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts import outbox
from accounts.models import OutgoingMail
from accounts.tasks import outbox_send
from tests.conftest import SmtpSink, free_port, serving
from tests.factories import make_user, to_move
from tests.helpers import wait_for

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


def use_smtp(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False


# ---------------------------------------------------------------- real SMTP servers


class SlowSink(SmtpSink):
    """The SMTP sink, answering each message a few ms late (like a real server writing it
    to disk), so that a batch of 500 takes seconds and a kill falls in the middle of it."""

    delay = 0.008

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture(scope="module")
def slow_sink():
    yield from serving(SlowSink())


class MoodySmtp:
    """A real SMTP server whose answers the test sets: ``refuse_sender`` (MAIL FROM),
    ``rcpt`` (e.g. "451 ..." or "421 ..."), ``data``, and per-address refusals in
    ``refuse``; 250 otherwise. ``hang_up_after``: the server closes each connection after
    that many messages (as servers that cap messages per connection do); ``peers``: the
    client address of every message accepted, one per connection."""

    def __init__(self):
        self.hang_up_after = 0
        self.peers: list = []
        self.rcpt = ""
        self.data = ""
        self.refuse: dict[str, str] = {}
        self.refuse_sender = ""
        self.delivered: list[str] = []
        self.lock = threading.Lock()
        self.port = 0  # the controller's, once started (moody_smtp)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.refuse_sender:
            return self.refuse_sender
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        if self.rcpt:
            return self.rcpt
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.data:
            return self.data
        with self.lock:
            self.delivered.extend(envelope.rcpt_tos)
            self.peers.append(session.peer)
            if self.hang_up_after and self.peers.count(session.peer) >= self.hang_up_after:
                asyncio.get_running_loop().call_soon(server.transport.close)  # after the 250 is written
        return "250 Message accepted for delivery"


@pytest.fixture
def moody_smtp(settings):
    from aiosmtpd.controller import Controller

    handler = MoodySmtp()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.port = controller.port
    use_smtp(settings, controller.port)
    try:
        yield handler
    finally:
        controller.stop()


# ---------------------------------------------------------------- due alarms in bulk


def due_your_turn_alarms(count: int) -> list[str]:
    """``count`` players, each with a game waiting for their move and a due "your turn"
    alarm; returns their addresses."""
    from games import services as games_services
    from games.models import Alarm, Game, Seat

    User = get_user_model()
    host = make_user("host")
    User.objects.bulk_create(
        [
            User(username="p%04d" % i, email="p%04d@example.org" % i, is_active=True, email_confirmed=True)
            for i in range(count)
        ]
    )
    players = list(User.objects.filter(username__startswith="p").order_by("username"))
    template = games_services.game_create(
        kind="onitama", seats={"red": host, "blue": players[0]}, options={"cards": "base"}
    )
    now = timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(
                kind=template.kind,
                options=template.options,
                sealed_state=template.sealed_state,
                data_version=template.data_version,
                days_per_move=3,
                seed_commitment=template.seed_commitment,
                sealed_seed=template.sealed_seed,
                to_move_side="blue",
                to_move_user=user,
                turn=1,
                ply=0,
                turn_started_at=now,
                deadline=now + timedelta(days=3),
            )
            for user in players
        ]
    )
    Seat.objects.bulk_create(
        [
            seat
            for game, user in zip(games, players, strict=True)
            for seat in (
                Seat(game=game, side="red", position=0, user=host),
                Seat(game=game, side="blue", position=1, user=user),
            )
        ]
    )
    Alarm.objects.all().delete()
    Alarm.objects.bulk_create(
        [
            Alarm(game=game, user=user, kind=Alarm.Kind.YOUR_TURN, turn=1, due_at=now - timedelta(minutes=1))
            for game, user in zip(games, players, strict=True)
        ]
    )
    return [user.email for user in players]


# ---------------------------------------------------------------- kill -9 of the whole worker


@pytest.mark.services
def test_three_whole_worker_kills_while_sending_lose_no_mail_and_double_at_most_one_per_process(
    prefork_worker, slow_sink
):
    from games.models import Alarm

    count, kills, processes = 500, 3, 2
    addresses = due_your_turn_alarms(count)
    slow_sink.clear()
    prefork_worker.env.update({"EMAIL_URL": slow_sink.url, "OUTBOX_CLAIM_LEASE_SECONDS": "6", "OUTBOX_BATCH": "50"})
    prefork_worker.start(concurrency=processes)
    prefork_worker.beat_start(CORRESPONDENCE_SWEEP_SECONDS="1", OUTBOX_SWEEP_SECONDS="1")
    kill_figures = []
    for _ in range(kills):
        received_before = len(slow_sink.messages)
        # wait until this worker has sent some mail of its own, then kill it mid-batch
        target = received_before + 40
        wait_for(lambda target=target: len(slow_sink.messages) >= target, "the worker to send mail", timeout=60)
        prefork_worker.kill()
        claimed_unsent = OutgoingMail.objects.filter(done_at__isnull=True, claimed_at__isnull=False).count()
        unacked = prefork_worker.unacked()
        kill_figures.append(
            {"received_at_kill": len(slow_sink.messages), "claimed_unsent": claimed_unsent, "unacked_tasks": unacked}
        )
        # the kill really left work claimed and undone: rows claimed by the dead worker, not
        # sent, and its tasks unacknowledged in the broker
        assert claimed_unsent > 0 and unacked > 0, kill_figures
        assert len(slow_sink.messages) < count
        prefork_worker.start(concurrency=processes)
    wait_for(
        lambda: (
            not Alarm.objects.filter(sent_at__isnull=True).exists()
            and not OutgoingMail.objects.filter(done_at__isnull=True).exists()
        ),
        "every alarm queued and every outbox row done",
        timeout=90,
        interval=0.2,
    )
    received = Counter(message["To"] for message in slow_sink.messages)
    lost = [address for address in addresses if received[address] == 0]
    doubled = sum(n - 1 for n in received.values() if n > 1)
    print(
        "\noutbox under %d whole-worker kills (%d processes): %d mails due, %d received, %d distinct, "
        "lost %d, doubled %d; at each kill: %s"
        % (kills, processes, count, len(slow_sink.messages), len(received), len(lost), doubled, kill_figures)
    )
    assert set(received) == set(addresses)
    assert lost == []
    assert doubled <= kills * processes
    assert OutgoingMail.objects.filter(kind="alarm", outcome="sent").count() == count


# ---------------------------------------------------------------- SMTP outages and refusals


@pytest.mark.services
def test_an_smtp_outage_loses_nothing_and_a_550_is_not_retried(moody_smtp, settings, alice, bob, carol):
    from correspondence import services as correspondence_services
    from tests.games.conftest import play, start_game

    games = [start_game(alice, bob), start_game(carol, bob), start_game(bob, alice)]
    for game in games:
        if game.to_move_user == bob:
            play(game, 1)  # every "your turn" goes to alice or carol
    now = timezone.now()
    queued = correspondence_services.alarms_queue_due(now=now).queued
    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": bob}], now=now)
    total = queued + 1
    rows = OutgoingMail.objects.filter(done_at__isnull=True)
    assert rows.count() == total >= 4
    step = timedelta(seconds=settings.OUTBOX_RETRY_MAX_SECONDS + 1)

    def unsent_after(result, attempts):
        assert result.sent == 0 and moody_smtp.delivered == []
        assert rows.count() == total and not rows.filter(claimed_at__isnull=False).exists()
        assert set(rows.values_list("attempts", flat=True)) == {attempts}
        assert all(row.due_at > now for row in rows.all())  # a backoff, not at once

    # the server is down: connection refused
    settings.EMAIL_PORT = free_port()
    result = outbox.outbox_send_due(now=now)
    assert result.outage
    unsent_after(result, 1)
    assert outbox.outbox_send_due(now=now).claimed == 0  # nothing is due during the backoff
    # the server answers 451 to every recipient, then 421 (closing) to the message
    settings.EMAIL_PORT = moody_smtp.port
    moody_smtp.rcpt = "451 4.3.0 Temporary failure, try later"
    now += step
    unsent_after(outbox.outbox_send_due(now=now), 2)
    moody_smtp.rcpt, moody_smtp.data = "", "421 4.3.2 Service shutting down"
    now += step
    result = outbox.outbox_send_due(now=now)
    assert result.outage
    unsent_after(result, 3)
    # it comes back; alice's mailbox is gone for good (550)
    moody_smtp.data = ""
    moody_smtp.refuse[alice.email] = "550 5.1.1 No such user here"
    now += step
    result = outbox.outbox_send_due(now=now)
    to_alice = OutgoingMail.objects.filter(user=alice)
    assert result.sent == total - to_alice.count() and result.outcomes.get("failing") == to_alice.count() >= 1
    assert sorted(moody_smtp.delivered) == sorted([row.user.email for row in OutgoingMail.objects.exclude(user=alice)])
    assert Counter(moody_smtp.delivered).most_common(1)[0][1] == 1  # each once
    alice.refresh_from_db()
    assert alice.email_failure == "bounce" and "550" in alice.email_failure_detail
    assert set(to_alice.values_list("outcome", flat=True)) == {"failing"}
    assert not rows.exists()
    # nothing is retried: not the 550, not what was sent
    assert outbox.outbox_send_due(now=now + step).claimed == 0
    assert len(moody_smtp.delivered) == total - to_alice.count()


def test_a_message_refused_for_good_ends_refused_and_a_refused_sender_loses_nothing(moody_smtp, bob):
    [row] = outbox.outbox_add_many([{"kind": "signup_confirmation", "user": bob}])
    moody_smtp.data = "554 5.7.1 Message content rejected"
    assert outbox.outbox_send_due().outcomes == {"refused": 1}
    row.refresh_from_db()
    assert row.outcome == "refused" and row.done_at is not None
    bob.refresh_from_db()
    assert not bob.email_is_failing  # the content was refused, not the address
    # our own sender address refused (a setting to fix): kept for a later try, not dropped
    [row] = outbox.outbox_add_many([{"kind": "signup_confirmation", "user": bob}])
    moody_smtp.data = ""
    moody_smtp.refuse_sender = "553 5.7.1 Sender address rejected"
    result = outbox.outbox_send_due()
    assert result.sent == 0 and result.outage
    row.refresh_from_db()
    assert row.done_at is None and row.attempts == 1
    moody_smtp.refuse_sender = ""
    assert outbox.outbox_send_due(now=row.due_at).sent == 1 and moody_smtp.delivered == [bob.email]


def test_a_server_that_drops_the_kept_open_connection_is_reconnected_once(moody_smtp, bob, carol):
    """Servers cap messages per connection or close idle ones: the sender opens the
    connection again and goes on, instead of holding the batch back."""
    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": user} for user in (bob, carol)])
    moody_smtp.hang_up_after = 1  # the server hangs up after each message
    result = outbox.outbox_send_due()
    assert result.sent == 2 and not result.outage and result.retried == 0
    assert sorted(moody_smtp.delivered) == sorted([bob.email, carol.email])
    assert len(set(moody_smtp.peers)) == 2  # the second message went over a new connection


# ---------------------------------------------------------------- tasks run again send nothing


def test_a_task_carries_only_the_row_id(alice, monkeypatch, django_capture_on_commit_callbacks):
    calls = []
    monkeypatch.setattr(outbox_send, "delay", lambda *args, **kwargs: calls.append((args, kwargs)))
    with django_capture_on_commit_callbacks(execute=True):
        row = outbox.outbox_add(kind="signup_confirmation", user=alice)
    assert row is not None  # alice's address is deliverable
    assert calls == [((row.pk,), {})]


def test_a_broker_that_cannot_take_the_task_loses_no_mail(alice, monkeypatch, django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(outbox_send, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        row = outbox.outbox_add(kind="signup_confirmation", user=alice)  # no error for the page
    assert row is not None  # alice's address is deliverable
    monkeypatch.undo()
    mail.outbox.clear()
    assert outbox.outbox_send_due().sent == 1  # the outbox sweep sends it
    assert [m.to for m in mail.outbox] == [[alice.email]] and OutgoingMail.objects.get(pk=row.pk).outcome == "sent"


def test_a_task_run_again_for_a_row_already_sent_sends_nothing(alice, smtp_sink):
    [row] = outbox.outbox_add_many([{"kind": "signup_confirmation", "user": alice}])
    assert outbox_send.apply(args=[row.pk]).get() == 1
    # redelivered after its worker died, retried after a database error, or run by a
    # sweep at the same time: the row is done, nothing more goes out
    assert outbox_send.apply(args=[row.pk]).get() == 0
    assert outbox.outbox_send_due(now=timezone.now() + timedelta(days=1)).claimed == 0
    assert len(smtp_sink.wait_for(1)) == 1
    assert OutgoingMail.objects.get(pk=row.pk).outcome == "sent"
    assert len(smtp_sink.messages) == 1


def test_a_task_for_a_row_another_sender_holds_sends_nothing_until_the_lease_ends(alice, settings):
    [row] = outbox.outbox_add_many([{"kind": "signup_confirmation", "user": alice}])
    now = timezone.now()
    assert [r.pk for r in outbox._claim(now=now, limit=5)] == [row.pk]  # another sender holds it
    mail.outbox.clear()
    assert outbox.outbox_send(mail_id=row.pk, now=now + timedelta(seconds=1)).sent == 0
    assert mail.outbox == []
    after_lease = now + timedelta(seconds=settings.OUTBOX_CLAIM_LEASE_SECONDS + 1)
    assert outbox.outbox_send(mail_id=row.pk, now=after_lease).sent == 1
    assert len(mail.outbox) == 1


def test_a_sender_hands_back_its_batch_before_its_lease_ends(alice, bob, monkeypatch):
    """A slow sender stops when half its lease is used and hands the rest back, due at
    once, so that it never sends a row whose lease another sender may have taken."""
    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": user} for user in (alice, bob)])
    now = timezone.now()
    first, second = outbox._claim(now=now, limit=10)
    # when sending starts, before the first row and before its send; then the lease is half gone
    ticks = [0.0, 0.0, 0.0]
    monkeypatch.setattr(outbox.time, "monotonic", lambda: ticks.pop(0) if ticks else 10_000.0)
    mail.outbox.clear()
    result = outbox.SendResult()
    outbox._send_rows([first, second], now=now, cache={}, result=result)
    assert result.sent == 1 and [m.to for m in mail.outbox] == [[alice.email]]
    second.refresh_from_db()
    assert second.done_at is None and second.claimed_at is None and second.attempts == 0
    assert second.due_at == now  # due again at once, for any sender
    monkeypatch.undo()
    assert outbox.outbox_send_due(now=now).sent == 1 and len(mail.outbox) == 2


def _slowed_signup_kind(monkeypatch, clock: list[float], *, load_takes: float = 0.0, render_takes: float = 0.0):
    """The sign-up mails' kind, with its batch load and each render taking that long on a
    fake monotonic clock (the outbox's ``time.monotonic``), as on a loaded machine."""
    kind = outbox._KINDS["signup_confirmation"]

    def load(rows):
        clock[0] += load_takes
        return kind.load(rows) if kind.load is not None else {}

    def render(row, loaded, sending):
        clock[0] += render_takes
        return kind.render(row, loaded, sending)

    monkeypatch.setitem(outbox._KINDS, "signup_confirmation", outbox.MailKind(render=render, load=load))
    monkeypatch.setattr(outbox.time, "monotonic", lambda: clock[0])


@pytest.mark.parametrize("slow_step", ["load", "render"])
def test_a_sender_that_used_half_its_lease_since_the_claim_sends_nothing_more(
    alice, bob, carol, settings, monkeypatch, slow_step
):
    """Half the lease counts from the claim: a batch whose load used it up (counted from after
    the load, the sender went on past its lease while another sender could claim the same rows
    and send them too) is handed back whole, unsent; and the lease is asked again between a
    row's render and its send, so a render that used it up sends nothing either."""
    users = (alice, bob, carol)
    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": user} for user in users])
    clock = [100.0]
    slow = {"%s_takes" % slow_step: settings.OUTBOX_CLAIM_LEASE_SECONDS / 2 + 0.5}
    _slowed_signup_kind(monkeypatch, clock, **slow)
    mail.outbox.clear()
    now = timezone.now()
    result = outbox.outbox_send_due(now=now)
    assert result.claimed == 3 and result.sent == 0 and mail.outbox == []
    rows = OutgoingMail.objects.filter(kind="signup_confirmation", user__in=users)
    assert [(row.done_at, row.claimed_at, row.due_at) for row in rows] == [(None, None, now)] * 3
    monkeypatch.undo()  # a sender that keeps to its lease sends them, once each
    assert outbox.outbox_send_due(now=now).sent == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in users)


def test_the_outbox_sweep_and_purge_are_scheduled_by_beat(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["accounts-outbox-sweep"]["task"] == "accounts.tasks.outbox_drain"
    assert schedule["accounts-outbox-sweep"]["schedule"].total_seconds() == settings.OUTBOX_SWEEP_SECONDS
    assert schedule["accounts-outbox-purge"]["task"] == "accounts.tasks.outbox_purge"


def test_the_outbox_sweep_sends_rows_whose_task_was_lost(alice, bob):
    from accounts.tasks import outbox_drain

    # rows whose outbox_send task never ran (lost with a broker or a worker)
    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": user} for user in (alice, bob)])
    mail.outbox.clear()
    assert outbox_drain.apply().get()["sent"] == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([alice.email, bob.email])
    assert outbox_drain.apply().get()["sent"] == 0 and len(mail.outbox) == 2


# ---------------------------------------------------------------- what a row holds

SIGNED = re.compile(r"http://testserver(/\S+?)(?=[\s>\"']|$)")


def _secrets_of(message) -> set[str]:
    """The signed parts of a sent mail: each long segment of its links, its reply address."""
    text = "\n".join(
        [
            message.body,
            *[part for part, _type in getattr(message, "alternatives", [])],
            json.dumps(message.extra_headers),
            " ".join(message.reply_to),
        ]
    )
    found = set(re.findall(r"play-[\w-]+@[\w.]+", text))
    for path in SIGNED.findall(text):
        found.update(segment for segment in path.split("/") if len(segment) >= 20)
    return found


def test_rows_hold_no_signed_link_or_reply_address(
    client, alice, bob, carol, django_capture_on_commit_callbacks, settings
):
    from correspondence import services as correspondence_services
    from tests.correspondence.test_reply_by_mail import address_for, reply
    from tests.games.conftest import start_game
    from tests.tournaments.conftest import started

    settings.SITE_URL = "http://testserver"
    settings.CORRESPONDENCE_REPLY_DOMAIN = "reply.example.org"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("accounts:signup"),
            {
                "username": "dora",
                "email": "dora@example.org",
                "password1": "pw-dora-123456!",
                "password2": "pw-dora-123456!",
            },
        )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:password_reset"), {"email": alice.email})
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("accounts:email_change"), {"new_email": "alice@new.example.org", "password": "pw-alice-123456"}
        )
    game = start_game(alice, bob)
    correspondence_services.alarms_send_due(now=timezone.now())
    mover = to_move(game)
    with django_capture_on_commit_callbacks(execute=True):
        correspondence_services.mail_reply_receive(
            raw=reply(sender=mover.email, address=address_for(game, mover), lines=["nonsense"])
        )
    with django_capture_on_commit_callbacks(execute=True):
        correspondence_services.vacation_start(user=bob, days=2)
    with django_capture_on_commit_callbacks(execute=True):
        started([make_user("t1"), make_user("t2")])
    kinds = set(OutgoingMail.objects.values_list("kind", flat=True))
    assert kinds >= {
        "signup_confirmation",
        "password_reset",
        "email_change",
        "alarm",
        "reply_answer",
        "vacation_notice",
        "tournament_round_paired",
    }
    assert set(OutgoingMail.objects.values_list("outcome", flat=True)) == {"sent"}
    assert len(mail.outbox) == OutgoingMail.objects.count()
    secrets = set().union(*(_secrets_of(message) for message in mail.outbox))
    # the links of the confirmation, the reset, the address change, open-game and
    # unsubscribe, and a reply address: all made when the mail was sent
    assert any(s.startswith("play-") for s in secrets) and len(secrets) >= 6
    stored = json.dumps(list(OutgoingMail.objects.values()), default=str)
    assert [s for s in secrets if s in stored] == []
    assert "play-" not in stored and "/accounts/" not in stored and "http" not in stored


# ---------------------------------------------------------------- purge


def test_done_rows_are_purged_after_the_documented_time_and_unsent_rows_never(alice, bob, settings):
    settings.OUTBOX_KEEP_DAYS = 7
    now = timezone.now()
    old, recent, unsent = outbox.outbox_add_many(
        [{"kind": "signup_confirmation", "user": user} for user in (alice, bob, alice)], now=now - timedelta(days=30)
    )
    OutgoingMail.objects.filter(pk=old.pk).update(done_at=now - timedelta(days=8), outcome="sent")
    OutgoingMail.objects.filter(pk=recent.pk).update(done_at=now - timedelta(days=6), outcome="sent")
    from accounts.tasks import outbox_purge

    assert outbox_purge.apply().get() == 1
    assert set(OutgoingMail.objects.values_list("pk", flat=True)) == {recent.pk, unsent.pk}


def test_a_deleted_account_leaves_no_outbox_row(alice):
    from privacy import services as privacy_services

    outbox.outbox_add_many([{"kind": "signup_confirmation", "user": alice}])
    privacy_services.account_delete(user=alice, password="pw-alice-123456")
    assert not OutgoingMail.objects.filter(user=alice).exists()


# ---------------------------------------------------------------- the registry and the layers


def test_an_unknown_kind_is_refused_and_every_app_registers_its_kinds(alice):
    with pytest.raises(ValueError):
        outbox.outbox_add(kind="no_such_mail", user=alice)
    assert set(outbox.mail_kinds()) == {
        "signup_confirmation",
        "email_change",
        "password_reset",
        "alarm",
        "digest",
        "vacation_notice",
        "vacation_back",
        "reply_answer",
        "reply_notice",
        "tournament_round_paired",
        "tournament_ended_early",
        "webhook_disabled",
        "conditional_played",
    }


def test_the_outbox_imports_no_app_above_accounts():
    for name in ("outbox.py", "mail.py", "mail_kinds.py", "tasks.py"):
        tree = ast.parse((ROOT / "accounts" / name).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        above = {
            m
            for m in imported
            if m.split(".")[0]
            in {
                "correspondence",
                "games",
                "tournaments",
                "ladder",
                "api",
                "privacy",
                "ops",
                "chat",
                "ratings",
                "fairplay",
            }
        }
        assert above == set(), (name, above)


def test_no_mail_leaves_but_through_the_outbox():
    """Every module that builds or sends mail does it through accounts.outbox."""
    senders = []
    for path in ROOT.glob("*/*.py"):
        if path.parts[-2] in {"tests", ".venv", "bench"} or path.name.startswith("test"):
            continue
        text = path.read_text()
        if re.search(
            r"\bsend_mail\(|EmailMessage\(|EmailMultiAlternatives\(|SiteMail\(|\.send_messages\(|email_send\b", text
        ):
            senders.append("%s/%s" % (path.parts[-2], path.name))
    # accounts.mail builds the message the outbox sends; forms.py overrides Django's send_mail hook
    assert sorted(senders) == ["accounts/forms.py", "accounts/mail.py"]
