"""A rating history chart as server-rendered SVG (no script needed)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from .models import RatingChange

WIDTH, HEIGHT, PAD = 480, 160, 28


def rating_history_svg(changes: Sequence[RatingChange], *, title: str) -> SafeString:
    """A line through the rating after each rated game, the first point being the rating before it."""
    if not changes:
        return SafeString("")
    values = [changes[0].rating_before] + [c.rating_after for c in changes]
    low, high = min(values), max(values)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)

    def y(value: float) -> float:
        return PAD + (high - value) * (HEIGHT - 2 * PAD) / (high - low)

    points = " ".join("%.1f,%.1f" % (PAD + i * step, y(v)) for i, v in enumerate(values))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="2.5"><title>{}</title></circle>',
        (
            (
                "%.1f" % (PAD + (i + 1) * step),
                "%.1f" % y(c.rating_after),
                _("%(rating)d after game #%(game)s") % {"rating": round(c.rating_after), "game": c.game_id},
            )
            for i, c in enumerate(changes)
        ),
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{title}"><title>{title}</title>'
        '<text x="2" y="{top}" font-size="10">{high}</text>'
        '<text x="2" y="{bottom}" font-size="10">{low}</text>'
        '<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{points}"/>'
        "{dots}</svg>",
        w=WIDTH,
        h=HEIGHT,
        title=title,
        top=PAD,
        bottom=HEIGHT - PAD + 10,
        high=round(high),
        low=round(low),
        points=points,
        dots=dots,
    )
