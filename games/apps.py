from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from . import live, mail_kinds, personal_data, selectors, signals  # noqa: F401  (live: its post_save receivers)
        from .models import Game

        post_save.connect(selectors.games_waiting_on_save, sender=Game, dispatch_uid="games.waiting_count")

        mail_kinds.register()  # conditional_played (accounts.outbox)
        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
