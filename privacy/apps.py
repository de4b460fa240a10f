from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrivacyConfig(AppConfig):
    """A player's own data: export it, delete the account. Sits above every other app
    (it may import any of them; none imports it)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"
    verbose_name = _("Privacy")
