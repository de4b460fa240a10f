from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """Post-game analysis: the strongest bot's evaluation of every position of a game that is over."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Post-game analysis")
