from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from . import live, personal_data, signals  # noqa: F401  (live: its post_save receivers)

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
