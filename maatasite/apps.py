from django.apps import AppConfig


class MaatasiteConfig(AppConfig):
    """The project package as an app: settings, the Celery app and task policy, the URL root."""

    name = "maatasite"
    verbose_name = "Maatasite"

    def ready(self) -> None:
        from django.db.models import Field

        from .db_lookups import AnyOf

        Field.register_lookup(AnyOf)
