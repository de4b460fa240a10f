"""``{% player_actions player %}`` and ``{% game_report_form game %}``: block and report
buttons for the player and game pages (nothing for anonymous visitors)."""
from django import template

from accounts.selectors import is_blocked

from ..forms import ReportForm

register = template.Library()


@register.inclusion_tag("ops/_player_actions.html", takes_context=True)
def player_actions(context, player):
    user = context["request"].user
    show = user.is_authenticated and user.pk != player.pk
    return {"show": show, "player": player, "form": ReportForm(auto_id="id_player_report_%s"),
            "blocked": show and is_blocked(blocker=user, blocked=player), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("ops/_game_report.html", takes_context=True)
def game_report_form(context, game):
    user = context["request"].user
    return {"show": user.is_authenticated, "game": game, "form": ReportForm(auto_id="id_game_report_%s"),
            "csrf_token": context.get("csrf_token")}
