"""The API's shapes of webhook endpoints and their delivery log."""

from __future__ import annotations

from rest_framework import serializers

from .models import URL_MAX_LENGTH, DeliveryAttempt, Endpoint, WebhookEvent


class EndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.ChoiceField(choices=WebhookEvent.choices))
    disabled_reason = serializers.CharField(help_text="Why it was switched off (empty while active).")

    class Meta:
        model = Endpoint
        fields = ["id", "url", "events", "active", "disabled_reason", "created_at"]


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField(help_text="The signing secret, shown this once: keep it.")

    class Meta(EndpointSerializer.Meta):
        fields = [*EndpointSerializer.Meta.fields, "secret"]  # documents the answer; filled by the view


class EndpointCreateSerializer(serializers.Serializer):
    url = serializers.CharField(
        max_length=URL_MAX_LENGTH, help_text="A public https:// address (private and local addresses are refused)."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookEvent.choices), min_length=1, max_length=len(WebhookEvent)
    )


class EndpointUpdateSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=URL_MAX_LENGTH, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WebhookEvent.choices),
        min_length=1,
        max_length=len(WebhookEvent),
        required=False,
    )
    active = serializers.BooleanField(
        required=False, help_text="Switched on again, the endpoint starts from the events of that moment."
    )


class SecretSerializer(serializers.Serializer):
    secret = serializers.CharField(help_text="The new signing secret, shown this once; the old one stops at once.")


class AttemptSerializer(serializers.ModelSerializer):
    event_id = serializers.CharField(source="delivery.event_id")
    event = serializers.CharField(source="delivery.kind")
    attempt = serializers.IntegerField(source="delivery.attempts", help_text="Tries of this delivery so far.")

    class Meta:
        model = DeliveryAttempt
        fields = ["at", "event_id", "event", "attempt", "ok", "status_code", "error", "duration_ms"]
        # The columns' bound as PostgreSQL has it, on every database (SQLite's is 2**63 - 1), so
        # the schema is one whatever serves it.
        extra_kwargs = {"status_code": {"max_value": 2147483647}, "duration_ms": {"max_value": 2147483647}}
