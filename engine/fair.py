"""Provably fair randomness: how a seed becomes every shuffle and draw.

A game is set up from a seed, an integer ``0 <= seed < 2**256``. Every random
decision of a game reads a *stream*: the sequence of blocks

    block_i = SHA-256( seed as 32 big-endian bytes || label as UTF-8 || i as 8 big-endian bytes )

for i = 0, 1, 2, ... The stream is read as consecutive 8-byte big-endian words.
``below(n)`` takes the next word ``x`` and returns ``x % n``, rejecting (and
taking the next word) while ``x >= 2**64 - 2**64 % n``, so every value is
exactly equally likely. ``shuffle(items)`` is Fisher-Yates: for ``i`` from
``len(items) - 1`` down to 1, swap ``items[i]`` with ``items[below(i + 1)]``.
Each game documents its labels and the order of its draws (see
``engine/onitama`` and ``engine/maatatahay``), so anyone holding a revealed
seed can recompute every draw with a few lines of code in any language.

Commitment: before a game starts the site publishes
``sha256(salt || seed as 32 big-endian bytes)`` in hex, with 16 random salt
bytes. When the game ends it reveals the salt (32 hex digits) and the seed
(a decimal integer), and anyone can check both the commitment and the draws.

>>> a, b = SeedStream(7, "example"), SeedStream(7, "example")
>>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
True
>>> verify_commitment(commitment(b"\\x00" * 16, 1), "00" * 16, 1)
True
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from .errors import OptionsError

T = TypeVar("T")

SEED_BITS = 256
SEED_LIMIT = 1 << SEED_BITS
_WORD = 1 << 64


def check_seed(seed: object) -> int:
    """Return ``seed`` as an int, or raise OptionsError if it is not in [0, 2**256)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionsError("bad_seed", "The seed must be a whole number", seed=str(seed))
    if not 0 <= seed < SEED_LIMIT:
        raise OptionsError("bad_seed", "The seed must be between 0 and 2**256 - 1", seed=str(seed))
    return seed


class SeedStream:
    """A deterministic stream of fair random choices drawn from (seed, label)."""

    __slots__ = ("_prefix", "_counter", "_buffer")

    def __init__(self, seed: int, label: str) -> None:
        self._prefix = check_seed(seed).to_bytes(32, "big") + label.encode("utf-8")
        self._counter = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 8:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        word, self._buffer = self._buffer[:8], self._buffer[8:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = _WORD - _WORD % n
        while True:
            x = self._word()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates from the end, as documented above)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def new_seed() -> int:
    """A fresh 256-bit seed from the operating system's secure generator."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> bytes:
    """Fresh 16 random salt bytes for a commitment."""
    return secrets.token_bytes(16)


def commitment(salt: bytes, seed: int) -> str:
    """Hex SHA-256 of the 16 salt bytes followed by the seed as 32 big-endian bytes."""
    if len(salt) != 16:
        raise ValueError("the salt is 16 bytes")
    return hashlib.sha256(salt + check_seed(seed).to_bytes(32, "big")).hexdigest()


def verify_commitment(published: str, salt_hex: str, seed: int) -> bool:
    """True when ``published`` is the commitment of (salt given as 32 hex digits, seed)."""
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    return len(salt) == 16 and secrets.compare_digest(commitment(salt, seed), published.lower())
