"""``{% game_messages game %}``: the messages panel of the game page, for the game's
seated players only (spectators, anonymous visitors and bot games get nothing)."""

from django import template

from ..models import MESSAGE_MAX_LENGTH
from ..selectors import conversation_or_none

register = template.Library()


@register.inclusion_tag("chat/_panel.html", takes_context=True)
def game_messages(context, game):
    return {
        "conversation": conversation_or_none(game=game, user=context["request"].user),
        "max_length": MESSAGE_MAX_LENGTH,
        "csrf_token": context.get("csrf_token"),
    }
