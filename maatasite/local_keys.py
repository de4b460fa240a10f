"""Random keys for local development, made on first run and kept out of git.

With ``DEBUG`` on and no key in the environment, the settings read the key from a
file in the project root (``.local-secret-key``, ``.local-seal-key``; both
gitignored, mode 0600). The first process to need a key makes it: it writes a
random key to a temporary file beside the target and hard-links it into place
(``os.link`` fails when the target exists), so of several processes starting at
once (web server, worker, beat, pytest-xdist workers, test subprocesses) the first
writer wins and every other one reads the winner's key. No process ever reads a
half-written file, and nobody overwrites a key once it exists.

These files are never read with ``DEBUG`` off: production keys come from the
environment (see README, Configuration).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# The development SECRET_KEY that settings.py used to spell out. It is public (it is in
# git), so it never signs or seals anything: settings refuse it as a key, and only the
# migration that re-seals existing games (games 0007) reads data sealed with it.
PUBLISHED_DEVELOPMENT_KEY = "django-insecure-local-development-key-do-not-use-in-production"

KEY_BYTES = 50  # as django.core.management.utils.get_random_secret_key: ~67 url-safe characters


def local_key(path: Path) -> str:
    """The key kept at ``path``, made at random (atomically, first writer wins) if missing."""
    path = Path(path)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    temporary = path.with_name("%s.%d.%s.tmp" % (path.name, os.getpid(), secrets.token_hex(4)))
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)  # atomic; refuses to replace a key another process made
        except FileExistsError:
            pass
    finally:
        os.unlink(temporary)
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text(encoding="ascii").strip()
    if not key:
        raise ImproperlyConfigured("The local key file %s is empty: delete it to make a new key." % path)
    return key


def refuse_published(name: str, value: str) -> str:
    """``value``, unless it is the published development key (then ImproperlyConfigured)."""
    if value == PUBLISHED_DEVELOPMENT_KEY:
        raise ImproperlyConfigured(
            "%s is the development key that was published in git: anyone can sign or read with it. "
            "Unset it (with DEBUG on a random local key is made) or set a random one." % name
        )
    return value
