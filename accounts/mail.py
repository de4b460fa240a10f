"""Rendering and delivering mail for users, in each user's own language.

Every mail goes through the outbox (``accounts.outbox``): a row naming what to render,
sent by a worker. This module is what the outbox and the renderers of each mail kind use:

``user_email_render`` renders a subject, a plain-text body and (optionally) an HTML body
in the recipient's language; the context gets ``user`` and ``site_url``
(settings.SITE_URL, for absolute links). ``user_email_build`` makes the message, with
extra headers (e.g. List-Unsubscribe), a Reply-To address and inline images (referenced
from the HTML as ``cid:<name>``). ``email_deliver`` sends a built message.

Every message has a ``Message-ID`` on the domain of settings.SITE_URL (``mail_domain``)
and a ``Date`` in UTC written ``+0000`` (Django's default writes ``-0000``, "zone
unknown"); a caller may give its own (threading headers such as ``In-Reply-To`` pass
through ``headers``).

No mail goes to a failing address (a hard bounce or a spam complaint):
``accounts.selectors.email_deliverable`` is the one gate; the outbox checks it when a
mail is queued and again when it is sent, and ``user_email_build`` refuses to build for
such a user. The one exception is a mail to an address the user asked mail at (``to=``:
the link confirming an address, a password reset): it is how a failing address gets
fixed. ``email_deliver`` turns an SMTP server's permanent refusal of a recipient (5xx)
into a hard bounce of that address instead of an error that would be retried for nothing.
"""

import base64
import functools
import logging
import random
import re
import smtplib
import sys
from datetime import UTC, datetime
from email import policy as email_policy
from email.header import Header
from email.message import Message
from email.mime.nonmultipart import MIMENonMultipart
from email.utils import format_datetime, make_msgid
from smtplib import SMTPRecipientsRefused, SMTPServerDisconnected
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.smtp import EmailBackend as SMTPBackend
from django.core.mail.message import SafeMIMEMultipart, SafeMIMEText, sanitize_address
from django.template import Context
from django.template.base import render_value_in_context
from django.template.loader import render_to_string
from django.utils import translation

from .deliverability import address_failure_record
from .selectors import email_deliverable

logger = logging.getLogger(__name__)


class AddressFailing(Exception):
    """A mail was built for a user whose address is failing: the caller must check first."""


def absolute_url(path: str) -> str:
    """An absolute link to a path of this site, for mail."""
    return settings.SITE_URL + path


def mail_domain() -> str:
    """The domain of the site's own mail identifiers: SITE_URL's host."""
    return _url_host(settings.SITE_URL)


@functools.lru_cache(maxsize=8)
def _url_host(url: str) -> str:
    return urlsplit(url).hostname or "localhost"


def message_id_make(*, local: str = "") -> str:
    """A new Message-ID on the site's domain (``local``: a readable prefix)."""
    return make_msgid(idstring=local or None, domain=mail_domain())


# ---------------------------------------------------------------- the message's bytes, made lean

# A header line longer than this is folded (RFC 5322's 78, as the email package does).
_FOLD_AT = 78
_BOUNDARY_WIDTH = len(repr(sys.maxsize - 1))


class _NotLean(Exception):
    """A message the lean writer does not write (the email package's generator does)."""


def _lean_header(name: str, value: str, nl: str) -> str:
    """One header line as the email package's compat32 generator writes it: a short plain
    value as it is, anything else folded by email.header.Header, as the generator does."""
    line = "%s: %s" % (name, value)
    plain = value.isascii() and value.isprintable() and "  " not in value and value == value.strip()
    if plain and len(line) <= _FOLD_AT:
        return line + nl
    return "%s: %s%s" % (name, Header(value, header_name=name).encode(linesep=nl, maxlinelen=_FOLD_AT), nl)


def _parts(msg: Message) -> list[Message]:
    payload = msg.get_payload()
    parts = [part for part in payload if isinstance(part, Message)] if isinstance(payload, list) else []
    if not isinstance(payload, list) or len(parts) != len(payload):
        raise _NotLean("parts")
    return parts


def _leaf_texts(msg: Message) -> list[str]:
    if msg.is_multipart():
        return [text for part in _parts(msg) for text in _leaf_texts(part)]
    payload = msg._payload  # type: ignore[attr-defined]  # the stored, encoded payload
    if not isinstance(payload, str):
        raise _NotLean("payload of type %s" % type(payload).__name__)
    return [payload]


def _lean_boundaries(msg: Message, texts: list[str], boundaries: dict[int, str]) -> None:
    """Give each multipart without a boundary one, of the email package's form, that no
    part's text holds (a substring search, where the generator compiles a regex per try);
    ``boundaries``: each multipart's, by id()."""
    if not msg.is_multipart():
        return
    boundary = msg.get_boundary()
    if boundary is None:
        while True:
            boundary = "=" * 15 + ("%0*d" % (_BOUNDARY_WIDTH, random.randrange(sys.maxsize))) + "=="
            if not any(boundary in text for text in texts):
                break
        msg.set_boundary(boundary)
    boundaries[id(msg)] = boundary
    for part in _parts(msg):
        _lean_boundaries(part, texts, boundaries)


def _lean_write(msg: Message, nl: str, out: list[str], boundaries: dict[int, str]) -> None:
    if msg.preamble is not None or msg.epilogue is not None:
        raise _NotLean("preamble or epilogue")
    for name, value in msg._headers:  # type: ignore[attr-defined]  # raw (name, value) pairs
        if not isinstance(value, str) or not name.isascii():
            raise _NotLean("header %r" % name)
        out.append(_lean_header(name, value, nl))
    out.append(nl)
    if msg.is_multipart():
        delimiter = "--" + boundaries[id(msg)]
        for index, part in enumerate(_parts(msg)):
            out.append((nl if index else "") + delimiter + nl)
            _lean_write(part, nl, out, boundaries)
        out.append(nl + delimiter + "--" + nl)
        return
    payload: str = msg._payload  # type: ignore[attr-defined]
    if "\r" in payload:
        payload = payload.replace("\r\n", "\n").replace("\r", "\n")
    out.append(payload.replace("\n", nl) if nl != "\n" else payload)


def lean_bytes(msg: Message, *, linesep: str = "\n") -> bytes:
    """``msg`` (a tree of the email package's compat32 messages, as Django builds them) as
    bytes: the very bytes its BytesGenerator writes (without mangling "From " lines, as
    Django asks), in a tenth of its time: plain header lines are written as they are, only
    long or encoded ones go through the email package's folding, and the boundaries are
    chosen with a substring search. A message it does not know how to write raises _NotLean."""
    if msg.policy is not email_policy.compat32:
        raise _NotLean("policy")
    boundaries: dict[int, str] = {}
    _lean_boundaries(msg, _leaf_texts(msg), boundaries)
    out: list[str] = []
    _lean_write(msg, linesep, out, boundaries)
    # 8bit text parts are stored with surrogate escapes for their UTF-8 bytes (as the generator writes them)
    return "".join(out).encode("ascii", "surrogateescape")


class _LeanMixin:
    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:
        if not unixfrom:
            try:
                return lean_bytes(self, linesep=linesep)  # type: ignore[arg-type]
            except _NotLean:
                pass
        return super().as_bytes(unixfrom=unixfrom, linesep=linesep)  # type: ignore[misc]


class _LeanMultipart(_LeanMixin, SafeMIMEMultipart):  # type: ignore[misc]  # the stubs' as_bytes and as_string differ
    pass


class _LeanText(_LeanMixin, SafeMIMEText):  # type: ignore[misc]
    pass


_LEAN = {SafeMIMEMultipart: _LeanMultipart, SafeMIMEText: _LeanText}


class SiteMail(EmailMultiAlternatives):
    """Django's message, whose ``message()`` (the tree of MIME parts the SMTP backend
    sends) writes its bytes with ``lean_bytes``: the same bytes, at a fraction of the cost
    (the email package's generator was a third of the time of sending a mail)."""

    def message(self, *args: Any, **kwargs: Any) -> Any:  # as Django's (whose stubs know a later signature)
        msg = super().message(*args, **kwargs)
        lean = _LEAN.get(type(msg))
        if lean is not None:
            msg.__class__ = lean  # same layout: only as_bytes differs
        return msg


def png_part(data: bytes) -> MIMENonMultipart:
    """The MIME part of a PNG: what ``MIMEImage(data, "png")`` makes (the same headers, in
    the same order, and base64 lines of 76 characters), encoded in one C call and a split,
    without the email package's round trip of the bytes through a surrogate-escaped string
    and back (a tenth of the time of a reminder went to it)."""
    part = MIMENonMultipart("image", "png")
    encoded = base64.b64encode(data).decode("ascii")
    part.set_payload("".join(encoded[i : i + 76] + "\n" for i in range(0, len(encoded), 76)))
    part["Content-Transfer-Encoding"] = "base64"
    return part


def email_message(
    *,
    to: list[str],
    subject: str,
    body: str,
    html_body: str | None = None,
    headers: dict | None = None,
    images: dict[str, bytes] | None = None,
) -> EmailMultiAlternatives:
    """A ready message; ``images`` maps a content id to PNG bytes shown inline by the HTML.

    Every mail of the site is automatic (RFC 3834): ``Auto-Submitted: auto-generated`` unless
    ``headers`` say otherwise (``auto-replied`` on answers to a player's mail), so that
    auto-responders do not answer it."""
    headers = {"Auto-Submitted": "auto-generated", **(headers or {})}
    headers.setdefault("Message-ID", message_id_make())
    headers.setdefault("Date", format_datetime(datetime.now(UTC)))
    reply_to = [headers.pop("Reply-To")] if headers.get("Reply-To") else None
    message = SiteMail(
        subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL, to=to, headers=headers, reply_to=reply_to
    )
    if html_body:
        message.attach_alternative(html_body, "text/html")
    for name, data in (images or {}).items():
        image = png_part(data)
        image.add_header("Content-ID", "<%s>" % name)
        image.add_header("Content-Disposition", "inline", filename="%s.png" % name)
        message.attach(image)
    return message


def user_language(user):
    """The context in which text for ``user`` is written: their language (the site's default
    when they chose none), e.g. ``with user_language(user): ...``."""
    return translation.override(user.language or settings.LANGUAGE_CODE)


def user_email_render(
    *,
    user,
    subject_template: str,
    body_template: str,
    html_template: str | None = None,
    context: dict | None = None,
    fill: dict[str, Any] | None = None,
    moulds: dict | None = None,
) -> tuple[str, str, str | None]:
    """(subject, text body, HTML body or None) rendered in ``user``'s language.

    ``fill``: context values that the templates only print (no filter, no lookup into
    them; an ``{% if %}`` on them is fine): with ``moulds`` (a dict kept by the caller
    across many mails, e.g. an outbox drain's cache), the templates are rendered once per
    language and shape (``context``, and which ``fill`` values are empty) with markers in
    their place, and each mail fills the markers in: the same text, without running the
    template engine for every mail of a batch (``MailMould``)."""
    full_context = {"user": user, "site_url": settings.SITE_URL, **(context or {})}
    with user_language(user):
        if fill is not None and moulds is not None:
            filled = MailMould.render(
                moulds,
                templates=(subject_template, body_template, html_template),
                context=full_context,
                fill=fill,
            )
            if filled is not None:
                subject, body, html = filled
                return " ".join(subject.split()), body, html
        if fill:
            full_context.update(fill)
        subject = " ".join(render_to_string(subject_template, full_context).split())
        body = render_to_string(body_template, full_context)
        html = render_to_string(html_template, full_context) if html_template else None
    return subject, body, html


# Markers stand in for the filled values while a mould is rendered: private-use characters
# around a number and a "<", which an autoescaping template writes as "&lt;", so the place
# tells whether the value goes in escaped (HTML) or as it is (text, autoescape off).
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"
_ESCAPING_CONTEXT = Context(autoescape=True)
_PLAIN_CONTEXT = Context(autoescape=False)


def _shape_key(value: Any) -> Any:
    """A hashable key equal for equal plain values (strings, numbers, None, and lists,
    tuples and dicts of them); TypeError for anything else, whose printing or truth a
    key could not vouch for (a mould is then not used)."""
    if value is None or isinstance(value, str | int | float):  # (bool is an int; a str enum is a str)
        return (type(value).__name__, value)
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_shape_key(item) for item in value))
    if isinstance(value, dict):
        return ("dict", tuple((_shape_key(k), _shape_key(v)) for k, v in value.items()))
    raise TypeError("not a plain value: %s" % type(value).__name__)


class MailMould:
    """A mail's templates rendered once with markers, for one language and shape.

    Rendering Django templates was a third of the CPU time of sending a reminder; the
    reminders of a drain differ only in a few printed values (the name, the game, the
    links, the time left). A mould is keyed by the templates, the active language, every
    context value that is not filled (plain values only: they decide the branches) and which
    filled values are empty (an ``{% if %}`` may test them). Filling a marker writes the
    value as the template would have (``render_value_in_context``: localized, escaped
    where the template escapes). A mould that still holds a marker after filling (a filter
    or lookup touched one) is not used: the caller renders the templates instead."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[str, str, str | None]) -> None:
        self.parts = parts

    @classmethod
    def render(
        cls,
        moulds: dict,
        *,
        templates: tuple[str, str, str | None],
        context: dict[str, Any],
        fill: dict[str, Any],
    ) -> tuple[str, str, str | None] | None:
        names = sorted(fill)
        try:
            key = (
                templates,
                translation.get_language(),
                tuple(sorted((name, _shape_key(value)) for name, value in context.items() if name != "user")),
                tuple(bool(fill[name]) for name in names),
                tuple(names),
            )
        except TypeError:
            return None
        mould = moulds.get(key)
        if mould is None:
            marked = dict(context)
            for index, name in enumerate(names):
                # an empty value keeps its emptiness (its {% if %} branch) and is printed as ""
                marked[name] = "%s%d<%s" % (_MARK_OPEN, index, _MARK_CLOSE) if fill[name] else fill[name]
            subject_template, body_template, html_template = templates
            mould = moulds[key] = cls(
                (
                    render_to_string(subject_template, marked),
                    render_to_string(body_template, marked),
                    render_to_string(html_template, marked) if html_template else None,
                )
            )
        values = [fill[name] for name in names]
        written: dict[tuple[int, bool], str] = {}  # each value as written, plain and escaped
        filled = tuple(None if part is None else cls._fill(part, values, written) for part in mould.parts)
        if any(part is not None and _MARK_OPEN in part for part in filled):
            return None
        return filled  # type: ignore[return-value]

    @staticmethod
    def _fill(text: str, values: list[Any], written: dict[tuple[int, bool], str]) -> str:
        if _MARK_OPEN not in text:
            return text
        pieces = text.split(_MARK_OPEN)
        out = [pieces[0]]
        for piece in pieces[1:]:
            index_text, sep, rest = piece.partition(_MARK_CLOSE)
            number, escaped = (index_text[:-4], True) if index_text.endswith("&lt;") else (index_text[:-1], False)
            if not sep or not number.isdigit() or int(number) >= len(values):
                out.append(_MARK_OPEN + piece)  # not a marker of ours: left, so the caller renders instead
                continue
            key = (int(number), escaped)
            value = written.get(key)
            if value is None:
                context = _ESCAPING_CONTEXT if escaped else _PLAIN_CONTEXT
                value = written[key] = str(render_value_in_context(values[key[0]], context))
            out.append(value)
            out.append(rest)
        return "".join(out)


# An address that Django's sanitize_address gives back as it is: a dot-atom local part and
# domain of ASCII letters, digits and a few marks, no display name (tested against it).
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")


@functools.lru_cache(maxsize=16)
def _sender_sanitized(address: str, encoding: str) -> str:
    return sanitize_address(address, encoding)


def address_sanitized(address: str, encoding: str) -> str:
    """``sanitize_address(address, encoding)``, without parsing a plain address (the
    parser was a tenth of the time of sending a mail)."""
    if _PLAIN_ADDRESS.fullmatch(address):
        return address
    return sanitize_address(address, encoding)


def dot_stuffed(data: bytes) -> bytes:
    """``data`` with a dot added before every line that starts with one (RFC 5321 4.5.2), as
    smtplib's ``_quote_periods`` writes it, by one ``bytes.replace`` instead of its regular
    expression (which took a twentieth of a mail's CPU time)."""
    stuffed = data.replace(b"\n.", b"\n..")
    return b"." + stuffed if stuffed.startswith(b".") else stuffed


def _lean_data(smtp: smtplib.SMTP, msg: Any) -> tuple[int, bytes]:
    """``smtplib.SMTP.data`` with ``dot_stuffed``: the same commands and bytes."""
    smtp.putcmd("data")
    code, reply = smtp.getreply()
    if code != 354:
        raise smtplib.SMTPDataError(code, reply)
    if isinstance(msg, str):  # as smtplib does (the outbox sends bytes, lines ending in CRLF)
        msg = re.sub(r"(?:\r\n|\n|\r(?!\n))", "\r\n", msg).encode("ascii")
    stuffed = dot_stuffed(bytes(msg))
    if stuffed[-2:] != b"\r\n":
        stuffed += b"\r\n"
    smtp.send(stuffed + b".\r\n")
    return smtp.getreply()


class _LeanSMTP(smtplib.SMTP):
    def data(self, msg: Any) -> tuple[int, bytes]:
        return _lean_data(self, msg)


class _LeanSMTPSSL(smtplib.SMTP_SSL):
    def data(self, msg: Any) -> tuple[int, bytes]:
        return _lean_data(self, msg)


_LEAN_SMTP: dict[type, type] = {smtplib.SMTP: _LeanSMTP, smtplib.SMTP_SSL: _LeanSMTPSSL}


def _smtp_sendmail(backend: SMTPBackend, message: EmailMultiAlternatives) -> None:
    """Send ``message`` over the SMTP backend's open connection, as its ``send_messages``
    would (Django's ``_send``: the same envelope, the same bytes), with the sender's
    address sanitized once per drain and plain recipients taken as they are."""
    recipients = message.recipients()
    if not recipients:
        return
    encoding = message.encoding or settings.DEFAULT_CHARSET
    smtp = backend.connection
    if smtp is None:
        raise SMTPServerDisconnected("the backend's connection is closed")
    lean = _LEAN_SMTP.get(type(smtp))
    if lean is not None:
        smtp.__class__ = lean  # same layout: only data() differs
    data: bytes = message.message().as_bytes(linesep="\r\n")  # type: ignore[call-arg]  # Django's as_bytes
    with backend._lock:  # the backend's own lock, as its send_messages takes it
        smtp.sendmail(
            _sender_sanitized(message.from_email, encoding),
            [address_sanitized(address, encoding) for address in recipients],
            data,
        )


def email_deliver(message: EmailMultiAlternatives, *, connection=None) -> bool:
    """Send a built message (over ``connection`` when given); False when the server refused
    its recipients for good (5xx), which marks each such address as a hard bounce.

    A temporary refusal (4xx) still raises, so the caller's retry tries again later.
    """
    if connection is not None:
        message.connection = connection
    try:
        if isinstance(connection, SMTPBackend) and connection.connection is not None:
            _smtp_sendmail(connection, message)
        else:
            message.send()
    except SMTPRecipientsRefused as error:
        for address, (code, reply) in error.recipients.items():
            if code >= 500:
                text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
                address_failure_record(email=address, failure="bounce", detail="SMTP %s %s" % (code, text))
                logger.warning("email_refused to=%s code=%s", address, code)
        if any(code < 500 for code, _reply in error.recipients.values()):
            raise
        return False
    return True


def user_email_build(
    *,
    user,
    subject_template: str,
    body_template: str,
    html_template: str | None = None,
    context: dict | None = None,
    headers: dict | None = None,
    images: dict[str, bytes] | None = None,
    to: str = "",
    fill: dict[str, Any] | None = None,
    moulds: dict | None = None,
) -> EmailMultiAlternatives:
    """A message to ``user`` rendered in their language (a failing address raises
    AddressFailing). ``to``: an address the user asked mail at, sent to whatever the state
    of the account's own. ``fill`` and ``moulds``: see ``user_email_render``."""
    if not to and not email_deliverable(user=user):
        raise AddressFailing("no mail to user %s: no address or a failing one" % user.pk)
    subject, body, html = user_email_render(
        user=user,
        subject_template=subject_template,
        body_template=body_template,
        html_template=html_template,
        context=context,
        fill=fill,
        moulds=moulds,
    )
    return email_message(
        to=[to or user.email], subject=subject, body=body, html_body=html, headers=headers, images=images
    )
