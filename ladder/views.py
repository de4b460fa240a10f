"""Ladder pages: the list, one ladder (positions, whom I can challenge, games, changes),
and the join / leave / challenge actions (POST, then back to the ladder page).

A refused action re-renders the ladder page with the translated message and
the error's HTTP status (400, 403, 404 or 409).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.errors import GameActionError

from . import selectors, services
from .models import Ladder


def ladder_list(request: HttpRequest) -> HttpResponse:
    return render(request, "ladder/list.html", {"ladders": selectors.ladders_list()})


def ladder_detail(
    request: HttpRequest, ladder_id: int, *, error: GameActionError | None = None, status: int = 200
) -> HttpResponse:
    try:
        page = selectors.ladder_page(ladder_id=ladder_id, user=request.user, page=request.GET.get("page") or 1)
    except Ladder.DoesNotExist:
        raise Http404(_("This ladder does not exist.")) from None
    return render(request, "ladder/detail.html", {"page": page, "ladder": page.ladder, "error": error}, status=status)


def _act(request: HttpRequest, ladder_id: int, action, success: str) -> HttpResponse:
    try:
        action()
    except GameActionError as error:
        return ladder_detail(request, ladder_id, error=error, status=error.status)
    messages.success(request, success)
    return redirect("ladder:detail", ladder_id=ladder_id)


@login_required
@require_POST
def ladder_join(request: AuthenticatedHttpRequest, ladder_id: int) -> HttpResponse:
    return _act(
        request,
        ladder_id,
        lambda: services.ladder_join(ladder_id=ladder_id, user=request.user),
        _("You joined the ladder at the bottom."),
    )


@login_required
@require_POST
def ladder_leave(request: AuthenticatedHttpRequest, ladder_id: int) -> HttpResponse:
    return _act(
        request,
        ladder_id,
        lambda: services.ladder_leave(ladder_id=ladder_id, user=request.user),
        _("You left the ladder; your ladder games were resigned."),
    )


@login_required
@require_POST
def ladder_challenge(request: AuthenticatedHttpRequest, ladder_id: int, user_id: int) -> HttpResponse:
    defender = get_user_model().objects.filter(pk=user_id).first()
    if defender is None:
        raise Http404(_("No such player."))
    try:
        challenge = services.ladder_challenge_create(ladder_id=ladder_id, challenger=request.user, defender=defender)
    except GameActionError as error:
        return ladder_detail(request, ladder_id, error=error, status=error.status)
    messages.success(request, _("The ladder game has started."))
    return redirect("games:game", game_id=challenge.game_id)
