"""correspondence.replies: what counts as automatic mail, which Authentication-Results
count, and which lines of a reply are the player's decisions (no database)."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from correspondence import replies


def parsed(body: str = "", *, html: str = "", headers: dict | None = None, auth: list[str] | None = None):
    message = EmailMessage()
    for value in auth or []:
        message["Authentication-Results"] = value
    message["From"] = "bob@example.org"
    message["To"] = "play-1-2-0-00000000000000000000@reply.example.org"
    for name, value in (headers or {}).items():
        message[name] = value
    if body:
        message.set_content(body)
        if html:
            message.add_alternative(html, subtype="html")
    else:
        message.set_content(html, subtype="html")
    return message_from_bytes(bytes(message), policy=policy.default)


@pytest.mark.parametrize(
    ("headers", "envelope_sender", "automatic"),
    [
        ({}, "bob@example.org", False),
        ({}, None, False),
        ({"Auto-Submitted": "no"}, "bob@example.org", False),
        ({"Auto-Submitted": "No; comment"}, "bob@example.org", False),
        ({"Precedence": "first-class"}, "bob@example.org", False),
        ({"Auto-Submitted": "auto-replied"}, "bob@example.org", True),
        ({"Auto-Submitted": "auto-generated"}, "bob@example.org", True),
        ({"Auto-Submitted": "auto-notified; owner-email=x@example.org"}, "bob@example.org", True),
        ({"Precedence": "bulk"}, "bob@example.org", True),
        ({"Precedence": "JUNK"}, "bob@example.org", True),
        ({"Precedence": "list"}, "bob@example.org", True),
        ({"Precedence": "auto_reply"}, "bob@example.org", True),
        ({"X-Autoreply": "yes"}, "bob@example.org", True),
        ({"X-Autorespond": "vacation"}, "bob@example.org", True),
        ({"X-Auto-Response-Suppress": "All"}, "bob@example.org", True),
        ({}, "<>", True),
    ],
)
def test_automatic_mail(headers, envelope_sender, automatic):
    assert bool(replies.automatic_reason(parsed("d5", headers=headers), envelope_sender=envelope_sender)) is automatic


@pytest.mark.parametrize(
    ("results", "passes"),
    [
        ([], False),
        (["mx.maata.example; none"], False),
        (["mx.maata.example; dkim=fail; dmarc=fail; spf=pass"], False),  # SPF alone does not tell From
        (["other.example; dkim=pass; dmarc=pass"], False),
        (["mx.maata.example.evil; dkim=pass"], False),
        (["mx.maata.example; dkim=none", "mx.maata.example; dkim=pass"], False),  # the lower one is forged
        (["mx.maata.example; dkim=pass header.d=example.org"], True),
        (["MX.maata.example 1; dmarc=pass (p=reject) header.from=example.org"], True),
        (["other.example; dkim=pass", "mx.maata.example; dkim=pass"], True),
        (["mx.maata.example; dkim=fail (dkim=pass in a comment counts for nothing)"], False),
    ],
)
def test_only_the_trusted_servers_pass_counts(settings, results, passes):
    settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID = "mx.maata.example"
    assert replies.authentication_passes(parsed("d5", auth=results)) is passes


def test_without_a_trusted_server_every_sender_counts_and_a_webhook_verdict_decides(settings):
    settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID = ""
    assert replies.authentication_passes(parsed("d5"))
    settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID = "mx.maata.example"
    assert replies.authentication_passes(parsed("d5"), webhook_verdict="dkim=pass; dmarc=pass")
    assert not replies.authentication_passes(
        parsed("d5", auth=["mx.maata.example; dkim=pass"]), webhook_verdict="dkim=fail dmarc=fail"
    )


@pytest.mark.parametrize(
    ("body", "lines"),
    [
        ("cobra:c1b1\n", ["cobra:c1b1"]),
        ("cobra:c1b1\n\nSent from my iPhone\n", ["cobra:c1b1"]),
        ("cobra:c1b1\nSent from my Galaxy\n", ["cobra:c1b1"]),
        (
            (
                "place a1 r0\nshrine c3 pay 2e1s\n\nOn Tue, 1 Dec 2026 at 20:00, Maatasite\n"
                "<noreply@maata.example> wrote:\n\n> Your turn\n> place b2 r1\n"
            ),
            ["place a1 r0", "shrine c3 pay 2e1s"],
        ),
        (
            "cobra:c1b1\n\nOn Tue, Dec 1, 2026 at 8:00 PM Maatasite <\nnoreply@maata.example> wrote:\n> x\n",
            ["cobra:c1b1"],
        ),
        (
            "cobra:c1b1\n\nPada Sel, 1 Des 2026 pukul 20.00 Maatasite\n<noreply@maata.example> menulis:\n> x\n",
            ["cobra:c1b1"],
        ),
        ("cobra:c1b1\n\nفي الثلاثاء، 1 ديسمبر 2026، كتب Maatasite:\n> x\n", ["cobra:c1b1"]),
        ("cobra:c1b1\n-- \nBob\nbob@example.org\n", ["cobra:c1b1"]),
        (
            "cobra:c1b1\n\n________________________________\nFrom: Maatasite\nSent: Tuesday\n\nYour turn\n",
            ["cobra:c1b1"],
        ),
        ("cobra:c1b1\n> quoted d5\n", ["cobra:c1b1"]),
        ("", []),
    ],
)
def test_decision_lines_stop_at_the_quote_the_attribution_and_the_signature(settings, body, lines):
    settings.DEFAULT_FROM_EMAIL = "Maatasite <noreply@maata.example>"
    settings.CORRESPONDENCE_REPLY_DOMAIN = "reply.maata.example"
    assert replies.decision_lines(parsed(body or " ")) == lines


def test_an_html_only_reply_is_read_without_its_quoted_block():
    html = (
        "<html><head><style>p {color: red}</style></head><body><div>cobra:c1b1</div><div>horse:a1a2&nbsp;</div>"
        "<div class='gmail_quote'><div>On Tue, Maatasite wrote:</div><blockquote><p>d5</p></blockquote></div>"
        "</body></html>"
    )
    assert replies.decision_lines(parsed(html=html)) == ["cobra:c1b1", "horse:a1a2"]
    # with a plain part, the plain part is read
    assert replies.decision_lines(parsed("crane:b1b2\n", html=html)) == ["crane:b1b2"]
