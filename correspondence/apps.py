from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorrespondenceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "correspondence"
    verbose_name = _("Correspondence")

    def ready(self) -> None:
        from . import mail

        mail.register()  # the outbox's renderers of correspondence's mails
