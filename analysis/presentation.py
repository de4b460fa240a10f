"""The analysis as the game page shows it: the chart and the marked moves, in the viewer's language."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext as _

from engine import get_game
from engine.analysis import DROP, MISSED_WIN, WALKED_INTO_LOSS
from games.labels import side_label

from .charts import advantage_chart_svg
from .models import GameAnalysis


def mark_kind_label(kind: str) -> str:
    return {
        MISSED_WIN: _("let a forced win slip"),
        WALKED_INTO_LOSS: _("walked into a forced loss"),
        DROP: _("a large drop in the evaluation"),
    }.get(kind, kind)


def signed(value: float) -> str:
    """``value`` with its sign, isolated so that the sign stays in front in Arabic too."""
    return format_html('<bdi class="advantage">{}</bdi>', "%+.2f" % value)


def mark_rows(analysis: GameAnalysis) -> list[dict[str, Any]]:
    return [
        {
            "ply": int(m["ply"]),
            "before_ply": int(m["ply"]) - 1,
            "side": side_label(str(m["side"])),
            "kind": m["kind"],
            "kind_label": mark_kind_label(str(m["kind"])),
            "played": m["played"],
            "best": m["best"],
            "before": signed(float(m["before"])),
            "after": signed(float(m["after"])),
        }
        for m in analysis.marks
    ]


def mark_title(row: dict[str, Any]) -> str:
    return _("Move %(ply)s (%(side)s): %(played)s, %(what)s; the bot plays %(best)s.") % {
        "ply": row["ply"],
        "side": row["side"],
        "played": row["played"],
        "what": row["kind_label"],
        "best": row["best"],
    }


def chart_description(analysis: GameAnalysis) -> str:
    first, second = (side_label(p) for p in get_game(analysis.game.kind).players)
    return _("Above the middle line %(first)s is ahead, below it %(second)s; dots mark the moves listed below.") % {
        "first": first,
        "second": second,
    }


def analysis_chart(analysis: GameAnalysis, rows: list[dict[str, Any]]) -> str:
    first, second = (side_label(p) for p in get_game(analysis.game.kind).players)
    return advantage_chart_svg(
        positions=analysis.positions,
        marks=analysis.marks,
        mark_titles={row["ply"]: mark_title(row) for row in rows},
        title=_("Advantage over the game"),
        first_label=first,
        second_label=second,
    )
