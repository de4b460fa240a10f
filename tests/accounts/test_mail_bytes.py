"""The bytes of a mail (accounts.mail.lean_bytes): the outbox sends every mail as the very
bytes the email package's generator would write for it, at a fraction of the cost."""

from __future__ import annotations

import io
import os
from datetime import timedelta
from email import generator, message_from_bytes, policy

import hypothesis
import pytest
from django.core import mail
from django.core.mail.message import sanitize_address
from django.utils import timezone, translation
from hypothesis import strategies as st

from accounts import mail as mail_module
from accounts.mail import SiteMail, address_sanitized, email_message, lean_bytes
from correspondence import services

pytestmark = pytest.mark.django_db


def generated(msg, linesep: str) -> bytes:
    """What the email package's generator writes for ``msg`` (as Django's as_bytes does)."""
    out = io.BytesIO()
    generator.BytesGenerator(out, mangle_from_=False).flatten(msg, linesep=linesep)
    return out.getvalue()


def same_bytes(message) -> bytes:
    msg = message.message()
    for linesep in ("\r\n", "\n"):
        lean = msg.as_bytes(linesep=linesep)  # chooses the boundaries, which the generator then keeps
        assert lean == lean_bytes(msg, linesep=linesep) == generated(msg, linesep)
    return lean


LONG_URL = "<https://maatasite.example/correspondence/unsubscribe/%s/>" % ("x1:" * 60)


@pytest.mark.parametrize(
    ("subject", "body", "html", "headers"),
    [
        ("Onitama #12 with bob: time is running out", "Hello alice,\n\nYour move.\n", "<p>Hello</p>\n", {}),
        (
            "أونيتاما #12 مع bob: الوقت ينفد " * 3,  # encoded words, folded
            "مرحبا\r\nبك\rسطر\n" * 20,  # 8bit, every line end written as the line separator
            "<p dir=rtl>مرحبا</p>" * 40,
            {"X-Note": "ünïcode  with  runs of spaces", "List-Unsubscribe": LONG_URL},
        ),
        ("A long plain subject that goes on " * 6, "x" * 1200 + "\nshort\n", None, {}),  # quoted-printable
        ("Tab\tand  spaces ", "", None, {"Reply-To": "Zoë <zoe@example.org>", "References": "<a@b> <c@d>"}),
    ],
)
def test_a_message_is_written_as_the_email_package_writes_it(subject, body, html, headers):
    message = email_message(
        to=["alice@example.org"],
        subject=subject,
        body=body,
        html_body=html,
        headers=dict(headers),
        images={"board": os.urandom(5000)} if html else None,
    )
    assert isinstance(message, SiteMail)
    raw = same_bytes(message)
    parsed = message_from_bytes(raw, policy=policy.default)
    assert " ".join(str(parsed["Subject"]).split()) == " ".join(subject.split())
    if html:
        body = parsed.get_body(("html",))
        assert body is not None and body.get_content().strip() == html.strip()


@pytest.mark.parametrize("language", ["en", "id", "ar"])
def test_the_sweeps_mails_are_written_as_the_email_package_writes_them(onitama_game, language):
    """A "your turn" and a reminder of a real game, in each language, picture attached."""
    game = onitama_game
    for seat in game.seats.all():
        seat.user.language = language
        seat.user.save(update_fields=["language"])
    mail.outbox.clear()
    now = timezone.now()
    assert services.alarms_send_due(now=now).sent == 1
    assert services.alarms_send_due(now=game.turn_started_at + timedelta(days=2.4, seconds=1)).sent == 1
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        raw = same_bytes(message)
        parsed = message_from_bytes(raw, policy=policy.default)
        assert parsed["List-Unsubscribe"].strip() == message.extra_headers["List-Unsubscribe"]
        text = parsed.get_body(("plain",))
        assert text is not None and text.get_content().replace("\r\n", "\n") == message.body
        [image] = [part for part in parsed.iter_attachments() if part.get_content_type() == "image/png"]
        assert image.get_content().startswith(b"\x89PNG")
    translation.activate("en")


@pytest.mark.parametrize("size", [0, 1, 57, 58, 5000, 10001])
def test_an_image_is_encoded_as_the_email_package_encodes_it(size):
    from email.mime.image import MIMEImage

    from accounts.mail import png_part

    data = os.urandom(size)
    ours, theirs = png_part(data), MIMEImage(data, "png")
    assert ours.get_payload() == theirs.get_payload() and ours.items() == theirs.items()
    assert ours.get_payload(decode=True) == data
    assert ours.as_bytes() == theirs.as_bytes()


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(st.from_regex(mail_module._PLAIN_ADDRESS, fullmatch=True))
def test_a_plain_address_is_what_djangos_sanitizer_gives_back(address):
    assert address_sanitized(address, "utf-8") == sanitize_address(address, "utf-8") == address


@pytest.mark.parametrize(
    "address",
    [
        "Maatasite <noreply@example.org>",
        "Zoë <zoe@example.org>",
        "a..b@example.org",
        '"quoted local"@example.org',
        "user@bücher.example",
        "ünïcode@example.org",
        "a.b+tag@sub.example.org",
    ],
)
def test_any_other_address_is_sanitized_by_django(address):
    assert address_sanitized(address, "utf-8") == sanitize_address(address, "utf-8")


def test_a_mail_sent_over_a_kept_open_connection_is_what_djangos_backend_sends(smtp_sink):
    """The same envelope and the same bytes as Django's own SMTP backend sends."""
    from django.core.mail import get_connection

    from accounts.mail import email_deliver

    def message(to: str):
        built = email_message(
            to=[to],
            subject="Onitama #7 with bob: time is running out",
            body=".starts with a dot\nHello,\nthé end\n.\n..\n",
            html_body="<p>Hello</p>",
            headers={"Message-ID": "<fixed@example.org>", "Date": "Sat, 05 Dec 2026 08:00:00 +0000"},
            images={"board": os.urandom(300)},
        )
        return built

    for to in ("alice@example.org", "Zoë <zoe@example.org>"):
        ours, theirs = message(to), message(to)
        fixed = ours.message()  # one tree (its boundary chosen at random once) for both sends
        ours.message = theirs.message = lambda fixed=fixed: fixed
        connection = get_connection()
        connection.open()
        try:
            assert email_deliver(ours, connection=connection) is True
        finally:
            connection.close()
        theirs.send()  # Django's backend, a connection of its own
        first, second = smtp_sink.wait_for(2)[-2:]
        envelopes = smtp_sink.envelopes[-2:]
        assert envelopes[0].mail_from == envelopes[1].mail_from
        assert envelopes[0].rcpt_tos == envelopes[1].rcpt_tos
        assert envelopes[0].original_content == envelopes[1].original_content
        smtp_sink.clear()


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    st.binary(max_size=300) | st.lists(st.sampled_from([b".", b"\r\n", b"\n", b"\r", b"a", b".."])).map(b"".join)
)
def test_dot_stuffing_is_smtplibs(data):
    import smtplib

    from accounts.mail import dot_stuffed

    assert dot_stuffed(data) == smtplib._quote_periods(data)  # type: ignore[attr-defined]
