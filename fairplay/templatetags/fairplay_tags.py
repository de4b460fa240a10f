"""``{% game_report_form game %}``: the report form of the game page (nothing for anonymous
visitors). It posts to ops' report page (ops.views.report_game), which calls
fairplay.services.report_create."""

from functools import lru_cache

from django import template
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from ..forms import ReportForm

register = template.Library()


@lru_cache(maxsize=16)  # one per language the site speaks, with room for overrides in tests
def _report_form_drawn(language: str) -> str:
    """The form's fields, the same on every game page: drawn once per process and language
    (kept in the process, not the shared cache, so a page spends no round trip on them)."""
    with translation.override(language):
        return str(ReportForm(auto_id="id_game_report_%s").as_p())


def _report_form_html() -> SafeString:
    return mark_safe(_report_form_drawn(translation.get_language()))  # noqa: S308  # the form's own markup


@register.inclusion_tag("fairplay/_game_report.html", takes_context=True)
def game_report_form(context, game):
    user = context["request"].user
    return {
        "show": user.is_authenticated,
        "game": game,
        "form_html": _report_form_html() if user.is_authenticated else "",
        "csrf_token": context.get("csrf_token"),
    }
