"""Outbound webhooks: a player's HTTPS endpoints, the deliveries of their events, the log of attempts.

An ``Endpoint`` keeps a cursor into its owner's events feed (games.events): every event after it,
of a kind the endpoint asked for, becomes one ``Delivery`` (unique per endpoint and event id, so
the feed read twice makes no second row), sent and retried until done or given up. Each try is a
``DeliveryAttempt``; an endpoint keeps its last WEBHOOKS_LOG_SIZE of them (the delivery log).
Written only by webhooks.services.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

URL_MAX_LENGTH = 500


class WebhookEvent(models.TextChoices):
    """The events an endpoint may ask for (the feed's kinds of the same names)."""

    YOUR_TURN = "your_turn", _("Your turn")
    CHALLENGE_RECEIVED = "challenge_received", _("Challenge received")
    GAME_OVER = "game_over", _("Game over")
    MESSAGE = "message", _("Message")


class Endpoint(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints", verbose_name=_("player")
    )
    url = models.CharField(_("address"), max_length=URL_MAX_LENGTH)
    events = models.JSONField(_("events"), default=list)
    # Sealed (games.sealing, purpose "webhook_secret"): a database dump does not show it.
    secret_sealed = models.CharField(_("signing secret"), max_length=300)
    active = models.BooleanField(_("active"), default=True)
    disabled_reason = models.CharField(_("why it was switched off"), max_length=200, blank=True)
    failures = models.PositiveIntegerField(_("failed attempts in a row"), default=0)
    cursor = models.CharField(_("feed cursor"), max_length=64)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return f"{self.url} of {self.user_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    DELIVERED = "delivered", _("delivered")
    FAILED = "failed", _("given up")


class Delivery(models.Model):
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.CharField(_("event id"), max_length=80)
    kind = models.CharField(_("event"), max_length=32)
    payload = models.JSONField(_("payload"))
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    due_at = models.DateTimeField(_("next try at"), default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["endpoint", "event_id"], name="webhooks_delivery_once")]
        indexes = [models.Index(fields=["due_at"], name="webhooks_delivery_due", condition=models.Q(status="pending"))]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")

    def __str__(self) -> str:
        return f"{self.event_id} to endpoint {self.endpoint_id}"


class DeliveryAttempt(models.Model):
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="attempts")
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="tries")
    at = models.DateTimeField(_("at"), default=timezone.now)
    ok = models.BooleanField(_("delivered"), default=False)
    status_code = models.PositiveIntegerField(_("HTTP status"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=200, blank=True)
    duration_ms = models.PositiveIntegerField(_("time taken (ms)"), default=0)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["endpoint", "-at"])]
        verbose_name = _("webhook attempt")
        verbose_name_plural = _("webhook attempts")

    def __str__(self) -> str:
        return f"attempt on delivery {self.delivery_id}"
