"""``{% game_report_form game %}``: the report form of the game page (nothing for anonymous
visitors). It posts to ops' report page (ops.views.report_game), which calls
fairplay.services.report_create."""

from django import template

from ..forms import ReportForm

register = template.Library()


@register.inclusion_tag("fairplay/_game_report.html", takes_context=True)
def game_report_form(context, game):
    user = context["request"].user
    return {
        "show": user.is_authenticated,
        "game": game,
        "form": ReportForm(auto_id="id_game_report_%s"),
        "csrf_token": context.get("csrf_token"),
    }
