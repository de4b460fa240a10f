"""Moves by mail: the happy path, stopping at what reveals something, and every refusal;
both entries (HTTP webhook, SMTP server command) feed the one service."""

import smtplib
from email.message import EmailMessage

import pytest
from django.core import mail
from django.urls import reverse

import engine
from correspondence import services, tokens
from correspondence.models import InboundMail, ReplyAddressUse
from games import services as games_services
from games.models import Game, Move
from tests.factories import to_move

from .conftest import first_legal, play, start_game

pytestmark = pytest.mark.django_db


def reply(*, sender, address, lines, quoted=True) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = address
    message["Subject"] = "Re: Your turn"
    body = "\n".join(lines) + "\n\n"
    if quoted:
        body += "On Monday, Maatasite wrote:\n> It is your turn\n> d5\n"
    message.set_content(body)
    return bytes(message)


def address_for(game, user):
    return tokens.ReplyAddress(game_id=game.pk, user_id=user.pk, ply=game.ply).address


def answers_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


@pytest.fixture
def capture(django_capture_on_commit_callbacks):
    """Run the answer mail's on_commit callbacks."""

    def run(function, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(**kwargs)

    return run


def test_an_onitama_reply_plays_the_move_and_confirms_it(onitama_game, capture):
    game = onitama_game
    user = game.to_move_user
    move = first_legal(game)
    mail.outbox.clear()
    result = capture(
        services.mail_reply_receive,
        raw=reply(sender=user.email.upper(), address=address_for(game, user), lines=[move, move]),
    )
    assert result.status == "played" and result.played == [move]  # the turn ended after one decision
    game.refresh_from_db()
    assert game.ply == 1 and Move.objects.get(game=game).user == user
    [answer] = answers_to(user)
    assert answer.subject == "Played in Onitama #%d" % game.pk
    assert move in answer.body and answer.reply_to == []  # no fresh address: not their turn any more


def _turn_with_a_reveal(game):
    """Play on until the player to move has a turn in which a decision reveals
    something before the turn ends; returns that turn's decisions (shrines first)."""
    rules = engine.get_game(game.kind)
    for _ in range(120):
        game.refresh_from_db()
        state = games_services.game_state(game)
        side = rules.to_move(state)
        lines, reveal_at = [], None
        while rules.outcome(state) is None and rules.to_move(state) == side:
            moves = rules.legal_moves(state)
            shrines = [m for m in moves if rules.move_text(m).startswith("shrine")]
            move = (shrines or moves)[0]
            before = rules.view(state, side)
            state = rules.apply(state, move)
            lines.append(rules.move_text(move))
            after = rules.view(state, side)
            if reveal_at is None and (lines[-1].startswith("shrine") or before["round"] != after["round"]):
                reveal_at = len(lines)
        if reveal_at is not None and reveal_at < len(lines):
            return lines, reveal_at
        play(
            game,
            1,
            pick=lambda g: (
                lambda r, s: rules.move_text(
                    ([m for m in r.legal_moves(s) if r.move_text(m).startswith("shrine")] or r.legal_moves(s))[0]
                )
            )(rules, games_services.game_state(g)),
        )
    raise AssertionError("no turn with a reveal before its end")


def test_a_maatatahay_reply_stops_at_the_first_decision_that_reveals_something(alice, bob, capture):
    game = start_game(alice, bob, "maatatahay", {"variant": "first"})
    lines, reveal_at = _turn_with_a_reveal(game)
    game.refresh_from_db()
    user = to_move(game)
    first_address = address_for(game, user)
    mail.outbox.clear()
    result = capture(services.mail_reply_receive, raw=reply(sender=user.email, address=first_address, lines=lines))
    assert result.status == "played" and result.played == lines[:reveal_at] and result.revealed
    game.refresh_from_db()
    assert game.to_move_user == user  # the turn goes on
    [answer] = answers_to(user)
    assert "This revealed:" in answer.body
    fresh = answer.reply_to[0]
    read = tokens.ReplyAddress.read(fresh)
    # the next decision has an address of its own, the one its reminders would carry too
    assert fresh != first_address and fresh == address_for(game, user) and read is not None and read.ply == game.ply
    # the fresh address plays the rest of the turn
    rest = lines[reveal_at:]
    mail.outbox.clear()
    again = capture(services.mail_reply_receive, raw=reply(sender=user.email, address=fresh, lines=rest))
    assert again.played and again.played[0] == rest[0]


def test_an_illegal_decision_changes_nothing_and_the_answer_lists_the_legal_ones(onitama_game, capture):
    game = onitama_game
    user = game.to_move_user
    rules = engine.get_game(game.kind)
    legal = [rules.move_text(m) for m in rules.legal_moves(games_services.game_state(game))]
    mail.outbox.clear()
    result = capture(
        services.mail_reply_receive,
        raw=reply(sender=user.email, address=address_for(game, user), lines=["zz9 nonsense"]),
    )
    assert result.status == "rejected" and result.played == []
    assert Game.objects.get(pk=game.pk).ply == 0
    [answer] = answers_to(user)
    assert answer.subject == "Nothing was played in Onitama #%d" % game.pk
    assert all(text in answer.body for text in legal)
    # the answer carries the same address (the decision is still pending), and it still works
    assert answer.reply_to == [address_for(game, user)]
    assert answer.extra_headers["Auto-Submitted"] == "auto-replied"
    assert (
        capture(
            services.mail_reply_receive,
            raw=reply(sender=user.email, address=answer.reply_to[0], lines=[legal[0]]),
        ).status
        == "played"
    )


@pytest.mark.parametrize(
    "case", ["forged", "wrong_sender", "already_played", "stale", "game_over", "not_your_turn", "empty"]
)
def test_refusals_change_nothing(onitama_game, alice, bob, capture, case):
    game = onitama_game
    user = game.to_move_user
    other = bob if user == alice else alice
    address = address_for(game, user)
    sender = user.email
    lines = [first_legal(game)]
    if case == "forged":
        address = address.replace("play-%d-%d" % (game.pk, user.pk), "play-%d-%d" % (game.pk, other.pk))
    elif case == "wrong_sender":
        sender = "mallory@example.org"
    elif case == "already_played":  # the same mail delivered a second time
        capture(services.mail_reply_receive, raw=reply(sender=sender, address=address, lines=lines))
    elif case == "stale":
        play(game, 2)  # the game moved on: the address names an old ply
        user = Game.objects.get(pk=game.pk).to_move_user
    elif case == "game_over":
        games_services.game_resign(game_id=game.pk, user=other)
    elif case == "not_your_turn":
        address, sender = address_for(game, other), other.email
    elif case == "empty":
        lines = []
    before = Game.objects.get(pk=game.pk)
    moves = Move.objects.filter(game=game).count()
    mail.outbox.clear()
    result = capture(services.mail_reply_receive, raw=reply(sender=sender, address=address, lines=lines))
    assert result.status == case and result.played == (lines if case == "already_played" else [])
    after = Game.objects.get(pk=game.pk)
    assert (after.ply, after.status, after.sealed_state) == (before.ply, before.status, before.sealed_state)
    assert Move.objects.filter(game=game).count() == moves
    if case == "forged":
        assert mail.outbox == []  # no answer to a stranger
    elif case == "wrong_sender":  # the stranger is not answered; the player is told
        assert [m.to for m in mail.outbox] == [[user.email]] and "was not played" in mail.outbox[0].subject
        assert "mallory@example.org" in mail.outbox[0].body
    elif case == "already_played":
        assert len(mail.outbox) == 1 and "was already played" in mail.outbox[0].body
        assert lines[0] in mail.outbox[0].body
    else:
        assert len(mail.outbox) == 1 and "Nothing was played" in mail.outbox[0].subject


def test_the_http_webhook_feeds_the_service(client, onitama_game, django_capture_on_commit_callbacks):
    game = onitama_game
    user = game.to_move_user
    raw = reply(sender=user.email, address=address_for(game, user), lines=[first_legal(game)])
    url = reverse("correspondence:inbound")
    assert client.post(url, raw, content_type="message/rfc822").status_code == 403
    assert client.post(url, raw, content_type="message/rfc822", HTTP_X_INBOUND_SECRET="wrong").status_code == 403
    assert (
        client.post(url, b"", content_type="message/rfc822", HTTP_X_INBOUND_SECRET="inbound-test-secret").status_code
        == 400
    )
    assert not InboundMail.objects.exists()  # nothing refused is stored
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, raw, content_type="message/rfc822", HTTP_X_INBOUND_SECRET="inbound-test-secret")
    assert answer.status_code == 202
    assert Game.objects.get(pk=game.pk).ply == 1
    assert ReplyAddressUse.objects.get(game=game).result == "played"
    stored = InboundMail.objects.get()
    assert bytes(stored.raw) == raw and stored.user == user and stored.outcome == "played"


@pytest.mark.django_db(transaction=True)
def test_the_smtp_server_command_feeds_the_service(alice, bob):
    from aiosmtpd.controller import Controller

    from correspondence.management.commands.mail_inbound_smtp import ReplyHandler
    from tests.conftest import free_port

    game = start_game(alice, bob)
    user = to_move(game)
    port = free_port()
    controller = Controller(ReplyHandler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail(user.email, ["someone@example.org"], b"Subject: x\r\n\r\nhello\r\n")
            address = address_for(game, user)
            smtp.sendmail(user.email, [address], reply(sender=user.email, address=address, lines=[first_legal(game)]))
    finally:
        controller.stop()
    assert Game.objects.get(pk=game.pk).ply == 1
    # through the stored row, as the webhook (tasks run at once here, so before the 250)
    stored = InboundMail.objects.get()
    assert stored.recipient == address and stored.outcome == "played" and stored.processed_at is not None


def test_the_webhook_passes_the_envelope_sender_and_the_providers_verdict(
    client, onitama_game, settings, django_capture_on_commit_callbacks
):
    """The webhook's X-Envelope-Sender "<>" marks automatic mail (nothing played, no answer);
    with a trusted server named, its X-Inbound-Authentication verdict decides."""
    settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID = "mx.maata.example"
    game = onitama_game
    user = game.to_move_user
    raw = reply(sender=user.email, address=address_for(game, user), lines=[first_legal(game)])
    url = reverse("correspondence:inbound")
    headers = {"HTTP_X_INBOUND_SECRET": "inbound-test-secret"}
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, raw, content_type="message/rfc822", HTTP_X_ENVELOPE_SENDER="<>", **headers)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, raw, content_type="message/rfc822", HTTP_X_INBOUND_AUTHENTICATION="dkim=fail", **headers)
    assert Game.objects.get(pk=game.pk).ply == 0
    assert list(InboundMail.objects.order_by("pk").values_list("outcome", flat=True)) == [
        "automatic",
        "unauthenticated",
    ]
    assert [m.to for m in mail.outbox] == [[user.email]] and "was not played" in mail.outbox[0].subject
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            url, raw, content_type="message/rfc822", HTTP_X_INBOUND_AUTHENTICATION="dkim=pass; dmarc=pass", **headers
        )
    assert Game.objects.get(pk=game.pk).ply == 1
    stored = InboundMail.objects.order_by("pk")
    assert stored[0].envelope_sender == "<>" and stored[2].authentication == "dkim=pass; dmarc=pass"
