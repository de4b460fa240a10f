"""Staff pages of correspondence: the stored replies by mail, to look at (read-only: a
row changes only when a task plays it, and goes when it is purged)."""

from django.contrib import admin

from maatasite.admin_readonly import ReadOnlyModelAdmin

from .models import InboundMail


@admin.register(InboundMail)
class InboundMailAdmin(ReadOnlyModelAdmin):
    list_display = ("pk", "received_at", "user", "recipient", "outcome", "processed_at", "attempts")
    list_filter = ("outcome",)
    search_fields = ("=user__id", "recipient")
    fields = (
        "received_at",
        "user",
        "recipient",
        "envelope_sender",
        "authentication",
        "outcome",
        "processed_at",
        "attempts",
        "sweep_at",
        "message",
    )
    readonly_fields = fields

    @admin.display(description="message")
    def message(self, inbound: InboundMail) -> str:
        """The mail as received (the player's own reply; shown escaped, as text)."""
        return bytes(inbound.raw).decode("utf-8", "replace")
