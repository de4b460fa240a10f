from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.archive import archive_tournaments_register  # reason: models load only once apps are ready
        from games.records import record_tags_register  # reason: models load only once apps are ready

        from . import mail, personal_data, receivers, records  # noqa: F401  (receivers connects to games.signals.game_finished)

        mail.register()  # the outbox's renderers of tournaments' mails
        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
        record_tags_register(records.tournament_tags)  # its tags in a game's record (games.records)
        archive_tournaments_register(records.archive_tournaments)  # its filter in the archive (games.archive)
