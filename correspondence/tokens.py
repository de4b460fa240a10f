"""Signed values in mail: the link that opens a game, one-click unsubscribe, reply addresses.

A reply address is ``play-<game>-<user>-<ply>-<attempt>-<signature>@<domain>``:
the signature (HMAC with SECRET_KEY) makes it unforgeable, the ply ties it to
the position the mail showed, and the attempt number lets the answer to a
reply carry a fresh address for the same ply (each address works once, see
correspondence.models.ReplyAddressUse).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

OPEN_SALT = "correspondence.open-game"
UNSUBSCRIBE_SALT = "correspondence.unsubscribe"
REPLY_SALT = "correspondence.reply-address"
REPLY_RE = re.compile(r"^play-(\d+)-(\d+)-(\d+)-(\d+)-([0-9a-f]{20})@", re.IGNORECASE)

# What one unsubscribe link turns off: the user's preference field for it.
UNSUBSCRIBE_FIELDS = {"turn": "email_on_your_turn", "reminders": "email_reminders", "game_over": "email_on_game_over"}


def open_token(*, game_id: int, user_id: int) -> str:
    return signing.dumps({"g": game_id, "u": user_id}, salt=OPEN_SALT, compress=True)


def open_token_read(token: str) -> tuple[int, int]:
    """(game id, user id); raises signing.BadSignature (or SignatureExpired)."""
    data = signing.loads(token, salt=OPEN_SALT, max_age=settings.CORRESPONDENCE_LINK_MAX_AGE)
    return int(data["g"]), int(data["u"])


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    if kind not in UNSUBSCRIBE_FIELDS:
        raise ValueError(kind)
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_token_read(token: str) -> tuple[int, str]:
    """(user id, kind); raises signing.BadSignature. Never expires: old mail keeps working."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if data.get("k") not in UNSUBSCRIBE_FIELDS:
        raise signing.BadSignature("unknown kind")
    return int(data["u"]), data["k"]


@dataclass(frozen=True)
class ReplyAddress:
    game_id: int
    user_id: int
    ply: int
    attempt: int

    def _signature(self) -> str:
        value = "%d-%d-%d-%d" % (self.game_id, self.user_id, self.ply, self.attempt)
        return salted_hmac(REPLY_SALT, value, algorithm="sha256").hexdigest()[:20]

    @property
    def address(self) -> str:
        domain = settings.CORRESPONDENCE_REPLY_DOMAIN
        return "play-%d-%d-%d-%d-%s@%s" % (
            self.game_id,
            self.user_id,
            self.ply,
            self.attempt,
            self._signature(),
            domain,
        )

    @classmethod
    def read(cls, address: str) -> ReplyAddress | None:
        """The address's values, or None when it is not one of ours or its signature is wrong."""
        match = REPLY_RE.match((address or "").strip().strip("<>"))
        if match is None:
            return None
        found = cls(*(int(match.group(i)) for i in range(1, 5)))
        if not constant_time_compare(found._signature(), match.group(5).lower()):
            return None
        return found
