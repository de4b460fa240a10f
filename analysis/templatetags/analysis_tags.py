"""``{% game_analysis game %}``: the analysis panel of the game page, once the game is over."""

from django import template
from django.utils.html import format_html

from ..models import AnalysisStatus
from ..presentation import analysis_chart, chart_description, mark_rows
from ..selectors import analysis_for_viewer

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def game_analysis(context, game):
    shown = analysis_for_viewer(game=game, user=context["request"].user)
    chart, description, rows = "", "", []
    if shown is not None and shown.analysis is not None and shown.analysis.status == AnalysisStatus.DONE:
        rows = mark_rows(shown.analysis)
        chart = analysis_chart(shown.analysis, rows)
        description = chart_description(shown.analysis)
    return {
        "game": game,
        "shown": shown,
        "analysis": shown.analysis if shown else None,
        "chart": chart,
        "description": description,
        # the version (Latin letters and digits) isolated, so that it reads whole in Arabic too
        "version": format_html('<bdi class="notation">{}</bdi>', shown.analysis.bot_version)
        if shown and shown.analysis
        else "",
        "rows": rows,
        "csrf_token": context.get("csrf_token"),
    }
