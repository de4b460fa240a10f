from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from ..forms import CARD_CHOICES, VARIANT_CHOICES
from ..labels import reason_label, side_label
from ..models import GameKind, GameStatus, PlayerResult, player_result
from ..selectors import game_list_for_player

register = template.Library()

# How a player's result reads in the lists (a drawn game says "draw", as it always has).
RESULT_WORDS = {
    PlayerResult.WON: _lazy("won"),
    PlayerResult.LOST: _lazy("lost"),
    PlayerResult.DRAWN: _lazy("draw"),
    PlayerResult.ABORTED: _lazy("aborted"),
}


@register.filter
def timeleft(value: timedelta | None) -> str:
    """'2 days 3 hours', '40 minutes', 'time is up'."""
    if value is None:
        return ""
    seconds = int(value.total_seconds())
    if seconds <= 0:
        return _("time is up")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return _("%(days)s, %(hours)s") % {
            "days": ngettext("%d day", "%d days", days) % days,
            "hours": ngettext("%d hour", "%d hours", hours) % hours,
        }
    if hours:
        return ngettext("%d hour", "%d hours", hours) % hours
    return ngettext("%d minute", "%d minutes", max(minutes, 1)) % max(minutes, 1)


@register.filter
def side_name(side: str) -> str:
    return side_label(side)


@register.filter
def reason_name(reason: str) -> str:
    return reason_label(reason)


@register.filter
def variant_name(game_or_challenge) -> str:
    """The variant a game or challenge is played with, as the forms name it: Maatatahay's
    variant (First or Standard Game), Onitama's cards (Base game, Sensei's Path, both mixed)."""
    options = game_or_challenge.options or {}
    if game_or_challenge.kind == GameKind.MAATATAHAY:
        value, choices = options.get("variant") or "first", VARIANT_CHOICES
    else:
        value, choices = options.get("cards") or "base", CARD_CHOICES
    return str(dict(choices).get(value, value))


@register.simple_tag
def opponents_of(game, user) -> str:
    return ", ".join(s.player_name for s in game.seats.all() if s.user_id != getattr(user, "pk", None))


@register.simple_tag
def game_result_for(game, user) -> str:
    """The result as ``user`` saw it (games.models.player_result); a spectator sees the winning side."""
    mine = next((s for s in game.seats.all() if s.user_id == getattr(user, "pk", None)), None)
    if mine is None:
        if game.status == GameStatus.ABORTED:
            return _("aborted")
        return side_label_text(game.winner_side) if game.winner_side else _("draw")
    result = player_result(game, mine.side)
    return str(RESULT_WORDS[PlayerResult(result)]) if result else ""


def side_label_text(side: str) -> str:
    return _("%(side)s won") % {"side": side_label(side)}


@register.inclusion_tag("games/_player_games.html")
def player_games(player) -> dict:
    """The finished games on a player's public page: the games app plugs its part into the
    page of accounts (which imports nothing from games) through this tag."""
    return {"player": player, "player_games": game_list_for_player(user=player, finished=True)}
