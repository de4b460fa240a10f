from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from . import mail_kinds, personal_data

        mail_kinds.register()  # the outbox's renderers of accounts' mails
        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
