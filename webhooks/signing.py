"""The signature of a webhook: HMAC-SHA256, keyed by the endpoint's secret, over
``"<unix time>.<body>"``, sent as ``Maatasite-Signature: t=<unix time>,v1=<hex digest>``.
A receiver recomputes it and refuses a time more than SIGNATURE_TOLERANCE_SECONDS away
(:func:`signature_verify` is the check the README shows, and the tests' receiver uses)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "Maatasite-Signature"
SIGNATURE_TOLERANCE_SECONDS = 300


def secret_new() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def signature_make(*, secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), b"%d." % timestamp + body, hashlib.sha256).hexdigest()
    return "t=%d,v1=%s" % (timestamp, mac)


def signature_verify(*, secret: str, header: str, body: bytes, now: float) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` at a time within 5 minutes of ``now``."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > SIGNATURE_TOLERANCE_SECONDS:
        return False
    expected = signature_make(secret=secret, timestamp=timestamp, body=body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, fields.get("v1", ""))
