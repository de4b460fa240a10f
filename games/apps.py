from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from . import live, mail_kinds, personal_data, signals  # noqa: F401  (live: its post_save receivers)

        mail_kinds.register()  # conditional_played (accounts.outbox)
        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
