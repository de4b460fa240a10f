from django.apps import AppConfig


class MaatasiteConfig(AppConfig):
    """The project package as an app, only so that its system checks are registered at start."""

    name = "maatasite"
    verbose_name = "Maatasite"

    def ready(self) -> None:
        # Registers the proxy settings check (warns on runserver, migrate and `manage.py check`).
        from . import client_address  # noqa: F401
