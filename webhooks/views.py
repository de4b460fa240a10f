"""The page /settings/webhooks/: a player's webhook endpoints, their secrets and delivery logs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import GameActionError

from . import selectors, services
from .forms import EndpointForm
from .models import WebhookEvent


def _context(request: HttpRequest, form: EndpointForm, **extra: object) -> dict:
    return {
        "form": form,
        "endpoints": list(selectors.endpoints_of(user=request.user)),
        "event_labels": dict(WebhookEvent.choices),
        "max_endpoints": services.MAX_ENDPOINTS,
        **extra,
    }


def _endpoint_id(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("endpoint", ""))
    except ValueError:
        raise Http404 from None


@login_required
def webhook_settings(request: HttpRequest) -> HttpResponse:
    form = EndpointForm()
    if request.method != "POST":
        return render(request, "webhooks/settings.html", _context(request, form))
    action = request.POST.get("action", "")
    user = request.user
    assert isinstance(user, User)  # login_required
    try:
        if action == "create":
            form = EndpointForm(request.POST)
            if not form.is_valid():
                return render(request, "webhooks/settings.html", _context(request, form), status=400)
            endpoint, secret = services.endpoint_create(
                user=user, url=form.cleaned_data["url"], events=form.cleaned_data["events"]
            )
            return render(
                request,
                "webhooks/settings.html",
                _context(request, EndpointForm(), new_secret=secret, secret_for=endpoint),
                status=201,
            )
        if action == "rotate":
            endpoint, secret = services.secret_rotate(user=user, endpoint_id=_endpoint_id(request))
            return render(
                request, "webhooks/settings.html", _context(request, form, new_secret=secret, secret_for=endpoint)
            )
        if action in ("on", "off"):
            services.endpoint_update(user=user, endpoint_id=_endpoint_id(request), active=action == "on")
            messages.success(request, _("The webhook is switched on.") if action == "on" else _("The webhook is off."))
            return redirect("webhooks:settings")
        if action == "delete":
            services.endpoint_delete(user=user, endpoint_id=_endpoint_id(request))
            messages.success(request, _("The webhook is deleted."))
            return redirect("webhooks:settings")
    except GameActionError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        form.add_error("url" if error.code.startswith("url_") else None, error.message)
        return render(request, "webhooks/settings.html", _context(request, form), status=error.status)
    return HttpResponse(_("Unknown action."), status=400)


@login_required
def webhook_log(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    try:
        endpoint = selectors.endpoint_of(user=request.user, endpoint_id=endpoint_id)
    except GameActionError:
        raise Http404 from None
    return render(
        request,
        "webhooks/log.html",
        {"endpoint": endpoint, "attempts": selectors.delivery_log(endpoint=endpoint), "log_size": services.LOG_SIZE},
    )
