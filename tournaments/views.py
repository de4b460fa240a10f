"""Tournament pages: the list, one tournament (standings, crosstable or bracket,
rounds), registering and withdrawing (POST, then back to the page), and the
standings as JSON. A refused action shows its message with the error's status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.errors import GameActionError

from . import errors, selectors, services
from .models import TournamentStatus
from .serializers import tournament_standings_data


def tournament_list(request: HttpRequest) -> HttpResponse:
    shown = selectors.tournament_list_page(page=request.GET.get("page") or 1)
    return render(request, "tournaments/list.html", {"tournaments": list(shown.object_list), "tournaments_page": shown})


def _detail(request: HttpRequest, tournament_id: int, status: int = 200) -> HttpResponse:
    try:
        detail = selectors.tournament_page(
            tournament_id=tournament_id, user=request.user, page=request.GET.get("page") or 1
        )
    except GameActionError as error:
        return render(request, "tournaments/error.html", {"error": error}, status=error.status)
    if detail["tournament"].status == TournamentStatus.DRAFT and not request.user.is_staff:
        return render(request, "tournaments/error.html", status=404)
    return render(request, "tournaments/detail.html", detail, status=status)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _detail(request, tournament_id)


def tournament_round(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    try:
        shown = selectors.tournament_round_page(
            tournament_id=tournament_id, number=number, page=request.GET.get("page") or 1
        )
    except GameActionError as error:
        return render(request, "tournaments/error.html", {"error": error}, status=error.status)
    if shown["tournament"].status == TournamentStatus.DRAFT and not request.user.is_staff:
        return render(request, "tournaments/error.html", status=404)
    return render(request, "tournaments/round.html", shown)


def _act(request: HttpRequest, tournament_id: int, action, done: str) -> HttpResponse:
    try:
        action(tournament_id=tournament_id, user=request.user)
    except GameActionError as error:
        messages.error(request, error.message)
        return _detail(request, tournament_id, status=error.status)
    messages.success(request, done)
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from django.utils.translation import gettext as _

    return _act(request, tournament_id, services.tournament_register, _("You are registered."))


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from django.utils.translation import gettext as _

    return _act(request, tournament_id, services.tournament_withdraw, _("Your registration is withdrawn."))


def tournament_standings_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        data = tournament_standings_data(tournament_id=tournament_id)
    except GameActionError as error:
        return JsonResponse({"error": {"code": error.code, "message": error.message}}, status=error.status)
    if data["status"] == "draft":
        return JsonResponse(
            {"error": {"code": "tournament_not_found", "message": str(errors.MESSAGES["tournament_not_found"])}},
            status=404,
        )
    return JsonResponse(data)
