from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Messages between the players of a game, respecting blocks."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Game messages")

    def ready(self) -> None:
        from . import events, live, personal_data, selectors  # app loading: they import the models

        personal_data.register()  # its part of the account export and erasure (maatasite.personal_data)
        events.register()  # its messages in the events feed (games.events)
        live.register()  # how a game page's socket shows a new message (games.live)
        selectors.register()  # whether a game has messages, read with its row (games.selectors)
