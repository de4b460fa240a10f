"""Sealing the seed and salt of a running game so that a database dump does not reveal them.

The sealed text is ``v1:<nonce hex>:<ciphertext hex>:<tag hex>``. The key is
derived from ``settings.GAMES_SEAL_KEY`` (falling back on ``SECRET_KEY``): a
keystream of HMAC-SHA256(key, nonce || counter) blocks is XORed with the
plaintext, and an HMAC-SHA256 tag over nonce and ciphertext authenticates it.
Only :func:`seal` and :func:`unseal` know the format.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings


class SealError(Exception):
    """The sealed text is damaged or was sealed with another key."""


def _keys() -> tuple[bytes, bytes]:
    base = getattr(settings, "GAMES_SEAL_KEY", None) or settings.SECRET_KEY
    root = hashlib.sha256(("maatasite-games-seal:" + str(base)).encode("utf-8")).digest()
    enc = hmac.new(root, b"encrypt", hashlib.sha256).digest()
    mac = hmac.new(root, b"authenticate", hashlib.sha256).digest()
    return enc, mac


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hmac.new(key, nonce + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
    return bytes(out[:length])


def seal(plaintext: str) -> str:
    enc, mac = _keys()
    nonce = secrets.token_bytes(16)
    data = plaintext.encode("utf-8")
    cipher = bytes(a ^ b for a, b in zip(data, _keystream(enc, nonce, len(data))))
    tag = hmac.new(mac, nonce + cipher, hashlib.sha256).digest()
    return "v1:%s:%s:%s" % (nonce.hex(), cipher.hex(), tag.hex())


def unseal(sealed: str) -> str:
    enc, mac = _keys()
    try:
        version, nonce_hex, cipher_hex, tag_hex = sealed.split(":")
        if version != "v1":
            raise ValueError(version)
        nonce, cipher, tag = bytes.fromhex(nonce_hex), bytes.fromhex(cipher_hex), bytes.fromhex(tag_hex)
    except ValueError as error:
        raise SealError("unreadable sealed text") from error
    if not hmac.compare_digest(tag, hmac.new(mac, nonce + cipher, hashlib.sha256).digest()):
        raise SealError("sealed text does not match the key")
    data = bytes(a ^ b for a, b in zip(cipher, _keystream(enc, nonce, len(cipher))))
    return data.decode("utf-8")
