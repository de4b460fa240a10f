"""Pages of the ops app: /healthz/, blocking players, reporting games and players. Thin:
writes go through accounts.services and fairplay.services, reads through selectors."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.http import AuthenticatedHttpRequest
from fairplay import services as fairplay_services
from fairplay.forms import ReportForm
from games.errors import GameActionError

from . import selectors

FLOOR_BODY = b'{"ok": true}'


def floor(request: HttpRequest) -> HttpResponse:
    """The framework's floor for the benches (bench/pages.py, bench/api.py): constant JSON
    through the middleware only; no DRF, throttle, database, session or template. Nothing
    else may be added here, or the benches stop measuring the floor."""
    return HttpResponse(FLOOR_BODY, content_type="application/json")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and monitoring: 200 when everything configured answers, else 503."""
    report = selectors.health_report()
    return JsonResponse(report, status=200 if selectors.health_is_ok(report) else 503)


def _player_or_404(username: str):
    player = account_selectors.user_get_public(username=username)
    if player is None:
        raise Http404(_("No such player."))
    return player


@login_required
def block_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    blocks = account_selectors.blocks_of_user(user=request.user)
    return render(request, "ops/block_list.html", {"blocks": blocks})


@login_required
@require_POST
def block_toggle(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Block the player (``action=block``) or lift the block (``action=unblock``)."""
    player = _player_or_404(username)
    if request.POST.get("action") == "unblock":
        account_services.block_delete(blocker=request.user, blocked=player)
        messages.success(request, _("You unblocked %(name)s.") % {"name": player.public_name})
    else:
        try:
            account_services.block_create(blocker=request.user, blocked=player)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request, _("You blocked %(name)s: they cannot challenge you.") % {"name": player.public_name}
            )
    target = request.POST.get("next") or ""
    return redirect(target if target == reverse("ops:blocks") else player.get_absolute_url())


def _report(request: AuthenticatedHttpRequest, back: str, **target: Any) -> HttpResponse:
    form = ReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what happened and say why."))
        return redirect(back)
    try:
        fairplay_services.report_create(
            reporter=request.user, kind=form.cleaned_data["kind"], reason=form.cleaned_data["reason"], **target
        )
    except GameActionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Thank you: staff will look at your report."))
    return redirect(back)


@login_required
@require_POST
def report_player(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    player = _player_or_404(username)
    return _report(request, player.get_absolute_url(), player=player)


@login_required
@require_POST
def report_game(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    return _report(request, reverse("games:game", kwargs={"game_id": game_id}), game_id=game_id)
