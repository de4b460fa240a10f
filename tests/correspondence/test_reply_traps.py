"""Reply-by-mail that cannot trap a player (issue 16), over real SMTP both ways: the site's
mail goes to the SMTP sink (tests/conftest.py), replies come in through the site's own
inbound SMTP server (manage.py mail_inbound_smtp's handler, aiosmtpd), stored and played
as in production (tasks run at once here, so before the 250).

Each test states the case as sent and the answer the player gets."""

from __future__ import annotations

import smtplib
from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.utils import timezone, translation

import engine
from correspondence import services, tokens
from correspondence.models import InboundMail
from games import services as games_services
from games.errors import ENGINE_MESSAGES
from games.models import Game
from tests.conftest import SmtpSink, free_port
from tests.factories import to_move

from .conftest import first_legal, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inbound():
    """The site's inbound SMTP server on a free port; ``inbound(raw, to=..., mail_from=...)``
    delivers one message (``mail_from=""`` is the null sender ``<>``)."""
    from aiosmtpd.controller import Controller

    from correspondence.management.commands.mail_inbound_smtp import ReplyHandler

    port = free_port()
    controller = Controller(ReplyHandler(), hostname="127.0.0.1", port=port)
    controller.start()

    def deliver(raw: bytes, *, to: str, mail_from: str) -> None:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.sendmail(mail_from, [to], raw)

    yield deliver
    controller.stop()


def mail_to(sink: SmtpSink, user) -> list:
    return [m for m in sink.messages if m["To"] == user.email]


def compose(*, sender: str, to: str, body: str = "", html: str = "", headers: dict | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your turn"
    for name, value in (headers or {}).items():
        message[name] = value
    if body:
        message.set_content(body)
        if html:
            message.add_alternative(html, subtype="html")
    else:
        message.set_content(html, subtype="html")
    return bytes(message)


def turn_mail(sink: SmtpSink, user, now=None):
    """Send the due alarms; the last mail to ``user`` (its Reply-To is the move address)."""
    services.alarms_send_due(now=now or timezone.now())
    mails = mail_to(sink, user)
    assert mails, "no mail to %s" % user.email
    return mails[-1]


def outcomes() -> list[str]:
    return list(InboundMail.objects.order_by("pk").values_list("outcome", flat=True))


def multi_decision_turn(game: Game) -> Game:
    """Play the first legal decisions until the player to move has at least two decisions
    in a row in this turn (Maatatahay: e.g. a placement then a shrine or an order)."""
    rules = engine.get_game(game.kind)
    for _ in range(200):
        game.refresh_from_db()
        state = games_services.game_state(game)
        side = rules.to_move(state)
        after = rules.apply(state, rules.legal_moves(state)[0])
        if rules.outcome(after) is None and rules.to_move(after) == side:
            return game
        games_services.move_submit(
            game_id=game.pk, user=to_move(game), move_text=first_legal(game), expected_ply=game.ply
        )
    raise AssertionError("no turn of two decisions")


# ---------------------------------------------------------------- automatic mail


@pytest.mark.parametrize(
    "responder",
    [
        {"headers": {"Auto-Submitted": "auto-replied"}, "mail_from": "player"},
        {"headers": {"Precedence": "bulk"}, "mail_from": "player"},
        {"headers": {"Precedence": "auto_reply"}, "mail_from": "player"},
        {"headers": {"X-Autoreply": "yes"}, "mail_from": "player"},
        {"headers": {"X-Autorespond": "Out of office"}, "mail_from": "player"},
        {"headers": {"X-Auto-Response-Suppress": "All"}, "mail_from": "player"},
        {"headers": {}, "mail_from": ""},  # the null envelope sender <>
        {"headers": {}, "mail_from": "player"},  # a responder that slips past every check
    ],
    ids=[
        "auto-submitted",
        "precedence-bulk",
        "precedence-auto_reply",
        "x-autoreply",
        "x-autorespond",
        "x-auto-response-suppress",
        "null-sender",
        "naive",
    ],
)
def test_the_auto_responder_loop_stops(alice, bob, smtp_sink, inbound, responder):
    """Sent: the player's out-of-office answers every mail that has a Reply-To, at that
    address, for five rounds. Answered: nothing to a marked responder, one answer a day to a
    naive one; nothing is played, the address is not used up: the player's own reply plays."""
    game = start_game(alice, bob)
    user = to_move(game)
    first = turn_mail(smtp_sink, user)
    assert first["Auto-Submitted"] == "auto-generated"
    address = first["Reply-To"]
    answered: set[str] = set()
    for _ in range(5):
        for message in mail_to(smtp_sink, user):
            if message["Message-ID"] in answered or not message["Reply-To"]:
                continue
            answered.add(message["Message-ID"])
            raw = compose(
                sender=user.email,
                to=message["Reply-To"],
                body="I am out of the office until Monday.\nBest regards\n",
                headers=responder["headers"],
            )
            inbound(raw, to=message["Reply-To"], mail_from=user.email if responder["mail_from"] else "")
    answers = mail_to(smtp_sink, user)[1:]
    assert Game.objects.get(pk=game.pk).ply == 0
    if responder["headers"] or not responder["mail_from"]:
        assert answers == [] and outcomes() == ["automatic"]  # one auto-reply, to the turn mail
    else:
        # the naive responder got one answer ("nothing was played"), answered it, and got no more
        assert len(answers) == 1 and answers[0]["Auto-Submitted"] == "auto-replied"
        assert outcomes() == ["rejected", "rejected"]
    # the player's own reply to the same address plays
    move = first_legal(game)
    inbound(compose(sender=user.email, to=address, body=move + "\n"), to=address, mail_from=user.email)
    assert Game.objects.get(pk=game.pk).ply == 1 and outcomes()[-1] == "played"


# ---------------------------------------------------------------- one address per decision


def test_a_typo_then_a_correct_reply_to_the_reminder_plays(alice, bob, smtp_sink, inbound):
    """Sent: "crane:z9z9" to the turn mail, then the first legal move to the reminder.
    Answered: "Nothing was played" (with the legal moves and the same address), then
    "Played"; the turn mail, the answer and the reminder share one address."""
    game = start_game(alice, bob)
    user = to_move(game)
    address = turn_mail(smtp_sink, user)["Reply-To"]
    inbound(compose(sender=user.email, to=address, body="crane:z9z9\n"), to=address, mail_from=user.email)
    answer = mail_to(smtp_sink, user)[-1]
    assert "Nothing was played" in answer["Subject"] and answer["Reply-To"] == address
    assert first_legal(game) in SmtpSink.body(answer)
    assert game.turn_started_at is not None
    reminder = turn_mail(smtp_sink, user, now=game.turn_started_at + timedelta(days=2.4, seconds=1))
    assert reminder["Subject"].endswith(": time is running out") and reminder["Reply-To"] == address
    move = first_legal(game)
    inbound(compose(sender=user.email, to=address, body=move + "\n"), to=address, mail_from=user.email)
    assert Game.objects.get(pk=game.pk).ply == 1
    assert outcomes() == ["rejected", "played"]
    assert "Played in" in mail_to(smtp_sink, user)[-1]["Subject"]


def test_each_decision_of_a_turn_has_its_address_and_the_site_retires_it(alice, bob, smtp_sink, inbound):
    """Maatatahay, a turn of two decisions. Sent: the first decision is made on the site,
    then a reply arrives at its address. Answered: "This decision was already made (...)";
    the reminder carries the second decision's address, which plays."""
    game = multi_decision_turn(start_game(alice, bob, "maatatahay", {"variant": "first"}, seed=7))
    user = to_move(game)
    first_address = tokens.ReplyAddress(game_id=game.pk, user_id=user.pk, ply=game.ply).address
    decision = first_legal(game)
    games_services.move_submit(game_id=game.pk, user=user, move_text=decision, expected_ply=game.ply)
    game.refresh_from_db()
    assert to_move(game) == user  # the turn goes on
    smtp_sink.clear()
    inbound(compose(sender=user.email, to=first_address, body=decision + "\n"), to=first_address, mail_from=user.email)
    [answer] = mail_to(smtp_sink, user)
    assert "This decision was already made (%s)" % decision in SmtpSink.body(answer)
    second_address = answer["Reply-To"]
    second = tokens.ReplyAddress.read(second_address)
    assert second_address != first_address and second is not None and second.ply == game.ply
    assert game.deadline is not None
    reminder = turn_mail(smtp_sink, user, now=game.deadline - timedelta(hours=6))
    assert reminder["Reply-To"] == second_address
    inbound(
        compose(sender=user.email, to=second_address, body=first_legal(game) + "\n"),
        to=second_address,
        mail_from=user.email,
    )
    assert outcomes()[-1] == "played" and Game.objects.get(pk=game.pk).ply == game.ply + 1


def test_a_duplicate_delivery_says_the_move_was_already_played(alice, bob, smtp_sink, inbound):
    """Sent: a typo (answered: today's one answer to a reply that played nothing), then one
    reply delivered three times. Answered: "Played in ...", then "Your move X was already
    played" once (a duplicate is answered whatever else was today, once per mail); the game
    moved once."""
    game = start_game(alice, bob)
    user = to_move(game)
    address = turn_mail(smtp_sink, user)["Reply-To"]
    inbound(compose(sender=user.email, to=address, body="crane:z9z9\n"), to=address, mail_from=user.email)
    move = first_legal(game)
    raw = compose(sender=user.email, to=address, body=move + "\n", headers={"Message-ID": "<dup-1@example.org>"})
    for _ in range(3):
        inbound(raw, to=address, mail_from=user.email)
    assert Game.objects.get(pk=game.pk).ply == 1
    assert outcomes() == ["rejected", "played", "already_played", "already_played"]
    answers = mail_to(smtp_sink, user)[1:]
    assert [answer["Subject"].split(" in ")[0] for answer in answers] == ["Nothing was played", "Played", "Played"]
    assert "Your move %s was already played" % move in SmtpSink.body(answers[2])


# ---------------------------------------------------------------- who may play


def test_a_wrong_sender_plays_nothing_and_the_player_is_told_once(alice, bob, smtp_sink, inbound):
    """Sent: twice, from mallory@example.org to the player's address. Answered: nothing to
    mallory; one notice to the player's registered address."""
    game = start_game(alice, bob)
    user = to_move(game)
    address = turn_mail(smtp_sink, user)["Reply-To"]
    smtp_sink.clear()
    for _ in range(2):
        raw = compose(sender="mallory@example.org", to=address, body=first_legal(game) + "\n")
        inbound(raw, to=address, mail_from="mallory@example.org")
    assert Game.objects.get(pk=game.pk).ply == 0 and outcomes() == ["wrong_sender", "wrong_sender"]
    assert [m["To"] for m in smtp_sink.messages] == [user.email]
    notice = smtp_sink.messages[0]
    assert "was not played" in notice["Subject"] and "mallory@example.org" in SmtpSink.body(notice)


def test_with_a_trusted_server_only_its_dkim_or_dmarc_pass_plays(alice, bob, smtp_sink, inbound, settings):
    """CORRESPONDENCE_INBOUND_AUTHSERV_ID=mx.maata.example. Sent: no results; a pass from
    another server; the trusted server's fail above a forged pass in its name; the trusted
    server's pass. Answered: one notice (nothing played) for the first three; "Played"."""
    settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID = "mx.maata.example"
    game = start_game(alice, bob)
    user = to_move(game)
    address = turn_mail(smtp_sink, user)["Reply-To"]
    smtp_sink.clear()
    move = first_legal(game)

    def send(*results: str) -> None:
        message = EmailMessage()
        for value in results:  # top to bottom, as the receiving server prepends its own
            message["Authentication-Results"] = value
        message["From"], message["To"], message["Subject"] = user.email, address, "Re"
        message.set_content(move + "\n")
        inbound(bytes(message), to=address, mail_from=user.email)

    send()
    send("evil.example; dkim=pass header.d=example.org")
    send("mx.maata.example; dkim=fail; dmarc=fail", "mx.maata.example; dkim=pass; dmarc=pass")
    assert Game.objects.get(pk=game.pk).ply == 0 and outcomes() == ["unauthenticated"] * 3
    assert len(smtp_sink.messages) == 1 and "could not be verified" in SmtpSink.body(smtp_sink.messages[0])
    send("mx.maata.example (1.0); spf=pass smtp.mailfrom=example.org; dkim=pass (good) header.d=example.org")
    assert Game.objects.get(pk=game.pk).ply == 1 and outcomes()[-1] == "played"


# ---------------------------------------------------------------- reading the reply


def test_an_html_only_reply_is_read(alice, bob, smtp_sink, inbound):
    """Sent: an HTML-only reply holding the move, above a quoted block. Answered: "Played"."""
    game = start_game(alice, bob)
    user = to_move(game)
    address = turn_mail(smtp_sink, user)["Reply-To"]
    move = first_legal(game)
    html = (
        "<html><body><div dir='ltr'>%s</div><br><div class='gmail_quote'>On Tue, Maatasite wrote:"
        "<blockquote>It is your turn<br>d5</blockquote></div></body></html>" % move
    )
    inbound(compose(sender=user.email, to=address, html=html), to=address, mail_from=user.email)
    assert outcomes() == ["played"] and Game.objects.get(pk=game.pk).ply == 1


def test_a_phone_signature_and_a_wrapped_attribution_are_not_moves(alice, bob, smtp_sink, inbound, settings):
    """Maatatahay, a turn of two decisions. Sent: the first decision, "Sent from my iPhone",
    and a Gmail attribution wrapped before "<noreply@...> wrote:", then the quoted mail.
    Answered: "Played" with that one decision, no "Not played"."""
    settings.DEFAULT_FROM_EMAIL = "Maatasite <noreply@maata.example>"
    game = multi_decision_turn(start_game(alice, bob, "maatatahay", {"variant": "first"}, seed=7))
    user = to_move(game)
    address = tokens.ReplyAddress(game_id=game.pk, user_id=user.pk, ply=game.ply).address
    decision = first_legal(game)
    body = (
        "%s\n\nSent from my iPhone\n\nOn Tue, 1 Dec 2026 at 20:00, Maatasite\n<noreply@maata.example> wrote:\n\n"
        "> It is your turn in Maatatahay\n> place a1 r0\n" % decision
    )
    smtp_sink.clear()
    inbound(compose(sender=user.email, to=address, body=body), to=address, mail_from=user.email)
    assert outcomes() == ["played"]
    [answer] = mail_to(smtp_sink, user)
    text = SmtpSink.body(answer)
    assert decision in text and "Not played" not in text


def test_a_maatatahay_answer_groups_the_legal_decisions_and_translates_the_error(alice, bob, smtp_sink, inbound):
    """Indonesian player, a Maatatahay placement (hundreds of legal decisions). Sent:
    "place z9 r0". Answered in Indonesian: the engine's error translated, the legal
    decisions grouped in a few lines."""
    game = start_game(alice, bob, "maatatahay", {"variant": "first"}, seed=7)
    rules = engine.get_game(game.kind)
    for _ in range(40):
        game.refresh_from_db()
        if len(rules.legal_moves(games_services.game_state(game))) > 100:
            break
        games_services.move_submit(
            game_id=game.pk, user=to_move(game), move_text=first_legal(game), expected_ply=game.ply
        )
    user = to_move(game)
    user.language = "id"
    user.save(update_fields=["language"])
    address = tokens.ReplyAddress(game_id=game.pk, user_id=user.pk, ply=game.ply).address
    smtp_sink.clear()
    inbound(compose(sender=user.email, to=address, body="place z9 r0\n"), to=address, mail_from=user.email)
    [answer] = mail_to(smtp_sink, user)
    text = SmtpSink.body(answer)
    with translation.override("id"):
        expected = "place z9 r0: %s" % ENGINE_MESSAGES["bad_move_text"]
    with translation.override("en"):
        english = str(ENGINE_MESSAGES["bad_move_text"])
    assert expected != english and expected in text and english not in text
    assert first_legal(game) in text  # the example of the placements
    assert len(text.splitlines()) < 40 and len(text) < 3000
