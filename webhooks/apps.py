from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    """Outbound webhooks: a player's events POSTed, signed, to their HTTPS endpoints."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from . import mail_kinds, personal_data, receivers  # app loading: they import the models

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
        mail_kinds.register()  # the mail "webhook switched off" (accounts.outbox)
        receivers.connect()  # games' and chat's changes nudge the deliveries
