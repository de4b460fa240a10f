"""Personal access tokens and stored answers of idempotent requests.

Tokens are stored as the SHA-256 of the secret: the secret itself is shown once,
when the token is made, and can never be read back. The events feed has no table:
it is derived from the games' own rows (see games/events.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

SCOPE_READ = "read"
SCOPE_PLAY = "play"
SCOPES = (SCOPE_READ, SCOPE_PLAY)


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(
        _("prefix"), max_length=12, editable=False, help_text=_("The first characters of the token, to recognise it.")
    )
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return "%s (%s...)" % (self.name, self.prefix)

    def __repr__(self) -> str:  # never the hash
        return "<ApiToken %s user=%s %s>" % (self.pk, self.user_id, self.prefix)

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class IdempotencyRecord(models.Model):
    """The first answer to a write request that carried an ``Idempotency-Key`` header.

    A repeat with the same key and the same request gets this answer again; the same
    key with another request is refused. Records expire (``API_IDEMPOTENCY_HOURS``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(default=0)
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="api_idempotency_unique_key")]

    def __str__(self) -> str:
        return "user %s, key %s: %s" % (self.user_id, self.key, self.status_code)
