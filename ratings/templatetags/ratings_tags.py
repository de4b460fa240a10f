"""Template tags that put ratings on other apps' pages with a one-line include."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from .. import selectors
from ..charts import rating_history_svg

register = template.Library()


@register.inclusion_tag("ratings/_leaderboards_body.html")
def ratings_leaderboards(limit: int = 10) -> dict[str, Any]:
    """Every game's leaderboard (provisional players left out)."""
    return {"boards": selectors.leaderboards(limit=limit)}


@register.inclusion_tag("ratings/_player_ratings_body.html")
def ratings_of_player(player: Any) -> dict[str, Any]:
    """A player's rating in each game with its history chart."""
    rows = []
    for shown in selectors.ratings_for_player(user=player):
        history = selectors.rating_history(user=player, kind=shown.kind)
        title = _("%(game)s rating history") % {"game": shown.kind_label}
        rows.append({"rating": shown, "chart": rating_history_svg(history, title=title), "recent": history[-5:][::-1]})
    return {"player": player, "rows": rows}


@register.inclusion_tag("ratings/_game_rating_changes.html")
def ratings_of_game(game: Any, viewer: Any = None) -> dict[str, Any]:
    """The rating change each player of an ended rated game got, the viewer's first and
    named as theirs (the game page shows it at the game's end)."""
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    rows = []
    for change in selectors.game_rating_changes(game_id=game.pk):
        before, after = round(change.rating_before), round(change.rating_after)
        rows.append(
            {
                "mine": change.user_id == viewer_id,
                "name": change.user.public_name,
                "before": before,
                "after": after,
                "delta": "%+d" % (after - before),
            }
        )
    rows.sort(key=lambda row: not row["mine"])
    return {"rows": rows}
