"""The game page's message form: POST, then back to the game page (PRG); a refusal is
shown there as a message. Reading happens on the game page (``{% game_messages game %}``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.errors import GameActionError

from . import services


@login_required
@require_POST
def message_create(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    try:
        services.message_create(game_id=game_id, author=request.user, text=request.POST.get("text", ""))
    except GameActionError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        messages.error(request, error.message)
    return redirect(reverse("games:game", kwargs={"game_id": game_id}) + "#messages")
