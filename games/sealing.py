"""Sealing what a database dump must not reveal: the seed and salt of a game and its
engine state (which holds Maatatahay's face-down piles and bag order).

The sealed text is ``v2:<hex of nonce || ciphertext || tag>``: AES-256-GCM (the
``cryptography`` package) with a fresh 12-byte nonce, keyed by HKDF-SHA256 of
``settings.GAMES_SEAL_KEY`` (its own setting: rotating ``SECRET_KEY`` never touches
sealed games). The *purpose* (``"seed"``, ``"state"``) is authenticated as associated
data, so one kind of sealed text is never read as another. Only :func:`seal` and
:func:`unseal` know the format; the ``v1`` format of earlier versions was sealed
again as ``v2`` by the migration games 0007.
"""

from __future__ import annotations

import functools
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

VERSION = "v2"
NONCE_BYTES = 12
PURPOSES = ("seed", "state", "webhook_secret", "conditional", "mail_turn")
# webhook_secret: webhooks.Endpoint's signing secret; conditional: queued conditional moves (games.conditional);
# mail_turn: the turn section of a player's "your turn" mail (correspondence.turn_text), with their picture


class SealError(Exception):
    """The sealed text is damaged, was sealed for another purpose or with another key."""


@functools.lru_cache(maxsize=4)
def _cipher(key: str) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"maatasite games seal v2").derive(
        key.encode("utf-8")
    )
    return AESGCM(derived)


def _current_cipher() -> AESGCM:
    key = settings.GAMES_SEAL_KEY
    if not key:
        raise SealError("GAMES_SEAL_KEY is not set")
    return _cipher(key)


def _purpose(purpose: str) -> bytes:
    if purpose not in PURPOSES:
        raise ValueError("unknown sealing purpose %r" % (purpose,))
    return purpose.encode("ascii")


def seal(plaintext: str, *, purpose: str) -> str:
    """``plaintext`` encrypted and authenticated with the seal key, for ``purpose``."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    cipher = _current_cipher().encrypt(nonce, plaintext.encode("utf-8"), _purpose(purpose))
    return "%s:%s" % (VERSION, (nonce + cipher).hex())


def unseal(sealed: str, *, purpose: str) -> str:
    """The plaintext of ``sealed``; SealError if damaged, of another purpose or key."""
    associated = _purpose(purpose)
    version, _, body = (sealed or "").partition(":")
    try:
        if version != VERSION:
            raise ValueError(version)
        data = bytes.fromhex(body)
    except ValueError as error:
        raise SealError("unreadable sealed text") from error
    if len(data) < NONCE_BYTES + 16:
        raise SealError("unreadable sealed text")
    try:
        plain = _current_cipher().decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], associated)
    except InvalidTag as error:
        raise SealError("sealed text does not match the key") from error
    return plain.decode("utf-8")
