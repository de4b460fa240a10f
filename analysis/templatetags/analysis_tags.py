"""``{% game_analysis game %}``: the analysis panel of the game page, once the game is over."""

from django import template

from ..models import AnalysisStatus
from ..presentation import analysis_chart, mark_rows
from ..selectors import analysis_for_viewer

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def game_analysis(context, game):
    shown = analysis_for_viewer(game=game, user=context["request"].user)
    chart, rows = "", []
    if shown is not None and shown.analysis is not None and shown.analysis.status == AnalysisStatus.DONE:
        rows = mark_rows(shown.analysis)
        chart = analysis_chart(shown.analysis, rows)
    return {
        "game": game,
        "shown": shown,
        "analysis": shown.analysis if shown else None,
        "chart": chart,
        "rows": rows,
        "csrf_token": context.get("csrf_token"),
    }
