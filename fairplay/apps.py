from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairplayConfig(AppConfig):
    """Staff's fair-play checks: agreement with the strongest bot, beside similar players."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = _("Fair play")

    def ready(self) -> None:
        from . import personal_data  # app loading: it imports the models

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
