from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations and fair play: health check, task heartbeats, player reports."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = _("Operations and fair play")
