"""The game page's "Analyse this game" button: POST, then back to the game page (PRG). A
refusal re-renders the game page with its message and status (409 while the game runs,
403 for a visitor who does not play in it, 429 over the player's budget, with Retry-After)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from api.ratelimits import RateLimited
from games.errors import GameActionError
from games.views import game_detail

from . import services
from .models import AnalysisStatus


@login_required
@require_POST
def analysis_request(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    try:
        row, _queued = services.game_analysis_request(game_id=game_id, user=request.user)
    except GameActionError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        messages.error(request, error.message)
        return game_detail(request, game_id, status=error.status)
    except RateLimited as limit:
        messages.error(request, limit.message)
        response = game_detail(request, game_id, status=429)
        response["Retry-After"] = str(limit.retry_after)
        return response
    if row.status in (AnalysisStatus.PENDING, AnalysisStatus.RUNNING):
        messages.success(request, _("The analysis is queued: it takes a few minutes."))
    return redirect(reverse("games:game", kwargs={"game_id": game_id}) + "#analysis")
