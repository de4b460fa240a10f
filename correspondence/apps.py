from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorrespondenceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "correspondence"
    verbose_name = _("Correspondence")

    def ready(self) -> None:
        from . import mail, personal_data, receivers  # noqa: F401  (receivers connects to games.signals)

        mail.register()  # the outbox's renderers of correspondence's mails
        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
