"""The leaderboard page of one game."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.models import GameKind

from . import selectors


def leaderboard(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in GameKind.values:
        raise Http404(_("Unknown game."))
    return render(
        request,
        "ratings/leaderboard.html",
        {"kind": kind, "kind_label": GameKind(kind).label, "rows": selectors.leaderboard(kind=kind, limit=100)},
    )
