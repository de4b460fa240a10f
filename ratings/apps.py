from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.records import record_tags_register  # reason: models load only once apps are ready

        from . import personal_data, receivers, records  # noqa: F401

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
        record_tags_register(records.rating_tags)  # its tags in a game's record (games.records)
