"""``{% player_actions player %}``: block and report buttons for the player page (nothing
for anonymous visitors). The game page's report form is fairplay's ``game_report_form``."""

from django import template

from accounts.selectors import is_blocked
from fairplay.forms import ReportForm

register = template.Library()


@register.inclusion_tag("ops/_player_actions.html", takes_context=True)
def player_actions(context, player):
    user = context["request"].user
    show = user.is_authenticated and user.pk != player.pk
    return {
        "show": show,
        "player": player,
        "form": ReportForm(auto_id="id_player_report_%s"),
        "blocked": show and is_blocked(blocker=user, blocked=player),
        "csrf_token": context.get("csrf_token"),
    }
