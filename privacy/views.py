"""Pages of the privacy app: download the export, delete the account. Thin: the work
is in privacy.services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.http import AuthenticatedHttpRequest
from games.errors import GameActionError

from . import services
from .forms import AccountDeleteForm


def export_json(user) -> str:
    """The export as the downloaded file holds it (sorted keys: the same data, the same bytes)."""
    return json.dumps(services.account_export(user=user), indent=2, sort_keys=True, ensure_ascii=False)


@never_cache
@login_required
@require_GET
def account_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    response = HttpResponse(export_json(request.user), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="maatasite-%s.json"' % request.user.username
    return response


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The confirm page (GET) and the deletion (POST, with the password typed again)."""
    form = AccountDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_delete(user=request.user, password=form.cleaned_data["password"])
        except GameActionError as error:
            form.add_error("password", error.message)
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Your games stay, under the name deleted player."))
            return redirect("games:home")
    return render(request, "privacy/delete_confirm.html", {"form": form}, status=400 if form.errors else 200)
