from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations: health check, task heartbeats, staff's queues and tools (reports live in fairplay)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = _("Operations and fair play")
