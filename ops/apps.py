from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations and fair play: health check, task heartbeats, player reports."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = _("Operations and fair play")

    def ready(self) -> None:
        from . import personal_data  # app loading: it imports the models

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
