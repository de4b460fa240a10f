"""Reading a reply by mail: is it automatic, is its sender authenticated, which lines are
the player's decisions. Pure functions of the message (no database): the service that
plays a reply (``services.mail_reply_receive``) decides with them.

- ``automatic_reason``: mail that no person wrote (RFC 3834: ``Auto-Submitted`` other than
  ``no``, ``Precedence: bulk/junk/list/auto_reply``, the null envelope sender ``<>``, the
  usual auto-responder headers). It never plays, never answers.
- ``authentication_passes``: with ``CORRESPONDENCE_INBOUND_AUTHSERV_ID`` set, the sender
  counts as authenticated only when the ``Authentication-Results`` header (RFC 8601) of
  that server, the topmost one naming it, reports a ``dkim`` or ``dmarc`` pass (or the
  provider webhook's verdict does). Every other such header is one anybody may write.
- ``decision_lines``: the reply's own text (the plain part, else the HTML part made
  text), cut before the quoted mail and the signature by mail-parser-reply, then by the
  attribution lines it does not know (Indonesian, Arabic, any line naming our own
  addresses, which a wrapped ``On ... <noreply@...> wrote:`` does).
"""

from __future__ import annotations

import re
from email.utils import parseaddr
from html.parser import HTMLParser
from typing import Any

from django.conf import settings
from mailparser_reply import EmailReplyParser

# Precedence values of mass or automatic mail (RFC 3834 section 2, RFC 2076).
AUTOMATIC_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
# Headers that auto-responders set (Microsoft Exchange, vacation(1), common responders).
AUTORESPONDER_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "X-Autorespond-Reason")
# Languages whose attribution and signature lines mail-parser-reply knows; English always.
PARSER_LANGUAGES = ["en", "de", "fr", "nl", "es", "it", "da", "sv", "pl", "cs", "ja", "ko", "zh"]
# Attribution lines of Indonesian and Arabic mail clients, which the library does not know,
# possibly wrapped over up to three lines: "Pada ... menulis:", "في ... كتب <name>:".
EXTRA_ATTRIBUTION = re.compile(
    r"^[ \t]*(?:Pada|Tanggal|في|بتاريخ)\b[^\n]*(?:\n[^\n]*){0,2}?(?:menulis|كتب)[^\n]*:[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
# How an attribution line begins, in the languages above and ours.
ATTRIBUTION_START = re.compile(r"^(?:on|am|le|el|il|op|den|dnia|pada|tanggal|في|بتاريخ)\b", re.IGNORECASE)
# A whole-line phone or client signature the library may leave after its own cut.
SENT_FROM = re.compile(r"^(?:sent from my |sent from |get outlook for |dikirim dari |أرسلت من )", re.IGNORECASE)


def automatic_reason(message: Any, *, envelope_sender: str | None) -> str:
    """Why ``message`` is automatic mail ("" when a person sent it). ``envelope_sender`` is
    SMTP's MAIL FROM, "<>" for the null sender; None when unknown."""
    if envelope_sender is not None and envelope_sender.strip() == "<>":
        return "null envelope sender"
    auto_submitted = str(message.get("Auto-Submitted", "") or "").split(";", 1)[0].strip().lower()
    if auto_submitted and auto_submitted != "no":
        return "Auto-Submitted: %s" % auto_submitted
    precedence = str(message.get("Precedence", "") or "").strip().lower()
    if precedence in AUTOMATIC_PRECEDENCE:
        return "Precedence: %s" % precedence
    for header in AUTORESPONDER_HEADERS:
        if message.get(header) is not None:
            return header
    return ""


# ---------------------------------------------------------------- authentication (RFC 8601)

_RESULT_RE = re.compile(r"(?:^|[;\s])(dkim|dmarc)\s*=\s*([a-z]+)", re.IGNORECASE)
_COMMENT_RE = re.compile(r"\([^()]*\)")


def _results_of(text: str) -> dict[str, set[str]]:
    """The method results of a resinfo list ("dkim=pass header.d=x; dmarc=fail"), comments removed."""
    found: dict[str, set[str]] = {}
    for method, result in _RESULT_RE.findall(_COMMENT_RE.sub(" ", text)):
        found.setdefault(method.lower(), set()).add(result.lower())
    return found


def _passes(text: str) -> bool:
    results = _results_of(text)
    return "pass" in results.get("dkim", set()) or "pass" in results.get("dmarc", set())


def authentication_header(message: Any, authserv_id: str) -> str | None:
    """The results (after the authserv-id) of the topmost Authentication-Results header that
    ``authserv_id`` wrote, or None. The receiving server prepends its header and removes
    any earlier one claiming its id (RFC 8601 section 5), so a lower one is a forgery."""
    for value in message.get_all("Authentication-Results", []) or []:
        server, separator, rest = _COMMENT_RE.sub(" ", str(value)).partition(";")
        words = server.split()
        if words and words[0].lower() == authserv_id.lower():
            return rest if separator else ""
    return None


def authentication_passes(message: Any, *, webhook_verdict: str = "") -> bool:
    """Whether the sender is authenticated, as the setting asks (True when it is unset)."""
    authserv_id = (settings.CORRESPONDENCE_INBOUND_AUTHSERV_ID or "").strip()
    if not authserv_id:
        return True
    if webhook_verdict:
        return _passes(webhook_verdict)
    results = authentication_header(message, authserv_id)
    return results is not None and _passes(results)


# ---------------------------------------------------------------- the reply's own text


class _HtmlText(HTMLParser):
    """The text of an HTML body, one line per block, without quoted blocks, styles or scripts."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table"}
    SKIPPED = {"blockquote", "style", "script", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(value or "" for name, value in attrs if name == "class")
        if tag in self.SKIPPED or (tag == "div" and ("gmail_quote" in classes or "moz-cite-prefix" in classes)):
            if tag != "br":
                self.skipping += 1
            return
        if self.skipping:
            if tag == "div":
                self.skipping += 1
            return
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and (tag in self.SKIPPED or tag == "div"):
            self.skipping -= 1
            return
        if not self.skipping and tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data.replace("\xa0", " "))


def html_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def message_text(message: Any) -> str:
    """The reply's body as text: its plain part, else its HTML part made text."""
    for kind in ("plain", "html"):
        part = message.get_body(preferencelist=(kind,))
        if part is None:
            continue
        try:
            content = part.get_content()
        except (LookupError, UnicodeError):
            continue
        return content if kind == "plain" else html_text(content)
    return ""


def _own_addresses() -> list[str]:
    """Addresses of the site that a quoted attribution names: our From and reply domain."""
    own = [parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()]
    domain = (settings.CORRESPONDENCE_REPLY_DOMAIN or "").lower()
    if domain:
        own.append("@" + domain)
    return [address for address in own if address]


def decision_lines(message: Any) -> list[str]:
    """The lines of the reply's own text, without quoted mail, attribution or signature."""
    text = message_text(message).replace("\r\n", "\n")
    match = EXTRA_ATTRIBUTION.search(text)
    if match is not None:
        text = text[: match.start()]
    body = EmailReplyParser(languages=list(PARSER_LANGUAGES)).read(text).replies[0].body if text.strip() else ""
    own = _own_addresses()
    lines: list[str] = []
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith(">") or raw.rstrip() == "--" or raw.startswith("-- "):
            break
        lowered = line.lower()
        if any(address in lowered for address in own):
            if lines and not ATTRIBUTION_START.match(line):
                lines.pop()  # "On <date>, Maatasite" wrapped before "<noreply@...> wrote:"
            break
        if SENT_FROM.match(line):
            break  # a phone's or a client's signature
        if line:
            lines.append(line)
    return lines
