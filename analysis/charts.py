"""The advantage chart of an analysis, drawn on the server as inline SVG.

No script and no style attribute (the site's strict CSP): shapes carry presentation
attributes and classes, whose colours are in static/analysis/analysis.css. The first
player's advantage is up, the second player's down; each marked move is a dot on the
position it led to, with its text in a ``<title>`` (and in the list under the chart).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 360, 160
LEFT, RIGHT, TOP, BOTTOM = 6, 6, 22, 22
"""Room around the plot: the labels of the two players sit in the top and bottom bands."""


def _x(ply: int, last: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * (ply / last if last else 0.0)


def _y(value: float) -> float:
    half = (HEIGHT - TOP - BOTTOM) / 2
    return TOP + half - max(-1.0, min(1.0, value)) * half


def advantage_chart_svg(
    *,
    positions: Sequence[Mapping[str, Any]],
    marks: Sequence[Mapping[str, Any]],
    mark_titles: Mapping[int, str],
    title: str,
    first_label: str,
    second_label: str,
) -> SafeString:
    """The chart: ``positions`` and ``marks`` as engine.analysis's ``as_dict`` holds them,
    ``mark_titles`` the text of each mark by its ply, the other texts already translated. Its
    description is the page's element ``#analysis-chart-desc`` (a caption under it)."""
    last = max((int(p["ply"]) for p in positions), default=0)
    points = " ".join("%.1f,%.1f" % (_x(int(p["ply"]), last), _y(float(p["value"]))) for p in positions)
    mid = _y(0.0)
    base = "%.1f,%.1f" % (_x(last, last), mid), "%.1f,%.1f" % (_x(0, last), mid)
    value_at = {int(p["ply"]): float(p["value"]) for p in positions}
    dots = format_html_join(
        "",
        '<circle class="chart-mark chart-mark-{}" cx="{}" cy="{}" r="6"><title>{}</title></circle>',
        (
            (
                m["kind"],
                "%.1f" % _x(int(m["ply"]), last),
                "%.1f" % _y(value_at.get(int(m["ply"]), 0.0)),
                mark_titles.get(int(m["ply"]), ""),
            )
            for m in marks
        ),
    )
    area = mark_safe(
        '<polygon class="chart-area" points="%s %s %s"></polygon>' % (points, base[0], base[1]) if points else ""
    )
    return format_html(
        '<svg class="analysis-chart" viewBox="0 0 {w} {h}" role="img" direction="ltr" '
        'aria-labelledby="analysis-chart-title" aria-describedby="analysis-chart-desc" '
        'xmlns="http://www.w3.org/2000/svg">'
        '<title id="analysis-chart-title">{title}</title>'
        '<rect class="chart-bg" x="0" y="0" width="{w}" height="{h}"></rect>'
        '<rect class="chart-band-first" x="{left}" y="{top}" width="{pw}" height="{ph}"></rect>'
        "{area}"
        '<line class="chart-mid" x1="{left}" y1="{mid}" x2="{right}" y2="{mid}"></line>'
        '<polyline class="chart-line" points="{points}"></polyline>'
        "{dots}"
        '<text class="chart-label" x="{left}" y="15">{first}</text>'
        '<text class="chart-label" x="{left}" y="{bottom_text}">{second}</text>'
        "</svg>",
        w=WIDTH,
        h=HEIGHT,
        title=title,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        pw=WIDTH - LEFT - RIGHT,
        ph="%.1f" % (mid - TOP),
        mid="%.1f" % mid,
        area=area,
        points=points,
        dots=dots,
        first=first_label,
        second=second_label,
        bottom_text=HEIGHT - 6,
    )
