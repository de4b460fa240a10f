"""Signed values in mail: the link that opens a game, one-click unsubscribe, reply addresses.

A reply address is ``play-<game>-<user>-<ply>-<signature>@<domain>``: the signature
(HMAC with SECRET_KEY) makes it unforgeable, and the ply names one pending decision of
the player (in Maatatahay a turn has several: one address each). The turn mail, its
reminders and every answer about that decision carry the same address; it works until
that decision is played, on the site, through the API or by mail, whatever was wrongly
sent to it before. Addresses of the earlier form ``play-<game>-<user>-<ply>-<attempt>-
<signature>`` (mail sent before the change) are read as the same decision.
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
REPLY_RE = re.compile(r"^play-(\d+)-(\d+)-(\d+)(?:-(\d+))?-([0-9a-f]{20})@", re.IGNORECASE)

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


def _reply_signature(value: str) -> str:
    return salted_hmac(REPLY_SALT, value, algorithm="sha256").hexdigest()[:20]


@dataclass(frozen=True)
class ReplyAddress:
    """One pending decision of a player: ``ply`` is the game's ply when it is to be made."""

    game_id: int
    user_id: int
    ply: int

    def _signature(self) -> str:
        return _reply_signature("%d-%d-%d" % (self.game_id, self.user_id, self.ply))

    @property
    def address(self) -> str:
        domain = settings.CORRESPONDENCE_REPLY_DOMAIN
        return "play-%d-%d-%d-%s@%s" % (self.game_id, self.user_id, self.ply, self._signature(), domain)

    @classmethod
    def read(cls, address: str) -> ReplyAddress | None:
        """The address's values, or None when it is not one of ours or its signature is wrong."""
        match = REPLY_RE.match((address or "").strip().strip("<>"))
        if match is None:
            return None
        game_id, user_id, ply = (int(match.group(i)) for i in range(1, 4))
        found = cls(game_id, user_id, ply)
        if match.group(4) is None:
            expected = found._signature()
        else:  # the earlier form, with an attempt number
            expected = _reply_signature("%d-%d-%d-%d" % (game_id, user_id, ply, int(match.group(4))))
        if not constant_time_compare(expected, match.group(5).lower()):
            return None
        return found
