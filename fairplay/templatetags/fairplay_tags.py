"""``{% game_report_form game %}``: the report form of the game page (nothing for anonymous
visitors). It posts to ops' report page (ops.views.report_game), which calls
fairplay.services.report_create."""

from django import template
from django.core.cache import cache
from django.utils import translation
from django.utils.safestring import mark_safe

from ..forms import ReportForm

register = template.Library()

# The form's fields are the same on every game page: drawn once per language and kept.
FORM_CACHE_SECONDS = 6 * 3600


def _report_form_html() -> str:
    key = "fairplay:game-report-form:%s" % translation.get_language()
    html = cache.get(key)
    if html is None:
        html = str(ReportForm(auto_id="id_game_report_%s").as_p())
        cache.set(key, html, FORM_CACHE_SECONDS)
    return mark_safe(html)  # noqa: S308  # the form's own markup, kept as text


@register.inclusion_tag("fairplay/_game_report.html", takes_context=True)
def game_report_form(context, game):
    user = context["request"].user
    return {
        "show": user.is_authenticated,
        "game": game,
        "form_html": _report_form_html() if user.is_authenticated else "",
        "csrf_token": context.get("csrf_token"),
    }
