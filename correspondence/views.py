"""Pages and endpoints of correspondence; thin: they call services and selectors."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from api.json_body import JsonBodyError, json_body_load

from . import bounces, calendar, selectors, services, tokens
from .errors import CorrespondenceError
from .forms import MailPreferencesForm, VacationForm


def game_open(request: HttpRequest, token: str) -> HttpResponse:
    """The signed link of a mail: opens the game (logging in first when needed)."""
    try:
        game_id, user_id = tokens.open_token_read(token)
    except signing.BadSignature:
        raise Http404(_("This link is not valid.")) from None
    target = reverse("games:game", args=[game_id])
    if not request.user.is_authenticated:
        return redirect("%s?next=%s" % (reverse(settings.LOGIN_URL), target))
    return redirect(target)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a confirmation button; POST (the button, or a mail client's RFC 8058
    one-click request) turns that kind of mail off. No login needed."""
    try:
        user_id, kind = tokens.unsubscribe_token_read(token)
    except signing.BadSignature:
        return render(request, "correspondence/unsubscribe.html", {"invalid": True}, status=404)
    if request.method == "POST":
        try:
            services.mail_unsubscribe(token=token)
        except CorrespondenceError as error:
            return render(
                request,
                "correspondence/unsubscribe.html",
                {"invalid": True, "error": error.message},
                status=error.status,
            )
        return render(request, "correspondence/unsubscribe.html", {"done": True, "kind": kind})
    return render(request, "correspondence/unsubscribe.html", {"kind": kind, "token": token})


@login_required
def mail_settings(request: HttpRequest) -> HttpResponse:
    """Mail preferences, quiet hours, vacation and the calendar feed of the logged-in user."""
    user = request.user
    form = MailPreferencesForm(instance=user)
    vacation_form = VacationForm()
    if request.method == "POST":
        action = request.POST.get("action", "preferences")
        try:
            if action == "preferences":
                form = MailPreferencesForm(request.POST, instance=user)
                if form.is_valid():
                    services.mail_preferences_update(
                        user=user, **{name: form.cleaned_data[name] for name in form.Meta.fields}
                    )
                    messages.success(request, _("Your mail settings are saved."))
                    return redirect("correspondence:settings")
            elif action == "vacation_start":
                vacation_form = VacationForm(request.POST)
                if vacation_form.is_valid():
                    services.vacation_start(user=user, days=vacation_form.cleaned_data["days"])
                    messages.success(request, _("Your vacation has started: your clocks stand still."))
                    return redirect("correspondence:settings")
            elif action == "vacation_end":
                services.vacation_end(user=user)
                messages.success(request, _("Welcome back: your clocks run again."))
                return redirect("correspondence:settings")
            elif action == "calendar_renew":
                services.calendar_feed_renew(user=user)
                return redirect("correspondence:settings")
            elif action == "calendar_revoke":
                services.calendar_feed_revoke(user=user)
                return redirect("correspondence:settings")
            else:
                return HttpResponse(_("Unknown action."), status=400)
        except CorrespondenceError as error:
            messages.error(request, error.message)
            status = error.status
            return render(
                request, "correspondence/settings.html", _settings_context(request, form, vacation_form), status=status
            )
        return render(
            request, "correspondence/settings.html", _settings_context(request, form, vacation_form), status=400
        )
    return render(request, "correspondence/settings.html", _settings_context(request, form, vacation_form))


def _settings_context(request, form, vacation_form) -> dict:
    feed = getattr(request.user, "calendar_feed", None) if hasattr(request.user, "calendar_feed") else None
    feed_url = request.build_absolute_uri(reverse("correspondence:calendar", args=[feed.secret])) if feed else None
    return {
        "form": form,
        "vacation_form": vacation_form,
        "vacation": selectors.running_vacation(user_id=request.user.pk),
        "balance_hours": selectors.vacation_balance_hours(user_id=request.user.pk),
        "feed_url": feed_url,
        "no_mail": selectors.user_gets_no_mail(request.user),
        "time_zone": request.user.time_zone or "UTC",
    }


def calendar_feed(request: HttpRequest, secret: str) -> HttpResponse:
    """The private iCal feed: each active game's move deadline."""
    feed = selectors.calendar_feed_for(secret=secret)
    if feed is None:
        raise Http404(_("This calendar address is not valid (it may have been replaced)."))
    games = selectors.calendar_games(user_id=feed.user_id)
    body = calendar.ical_text(user=feed.user, games=games, now=timezone.now())
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@csrf_exempt
@require_POST
def inbound_mail(request: HttpRequest) -> HttpResponse:
    """A mail provider's inbound webhook: the raw message (message/rfc822 body, or the
    form field ``email``), authenticated by the shared secret header X-Inbound-Secret.
    Optional: the envelope recipient (``X-Recipient`` or field ``recipient``) and sender
    (``X-Envelope-Sender`` or field ``sender``, "<>" for the null sender), and the provider's
    verdict on the sender (``X-Inbound-Authentication``, RFC 8601 results such as
    ``dkim=pass; dmarc=pass``). The 202 means the message is stored (committed); a task plays it."""
    secret = settings.CORRESPONDENCE_INBOUND_SECRET
    given = request.headers.get("X-Inbound-Secret", "")
    if not secret or not hmac.compare_digest(secret.encode(), given.encode()):
        return JsonResponse({"error": "forbidden"}, status=403)
    if request.content_type == "message/rfc822":
        raw = request.body
    else:
        raw = (request.POST.get("email") or "").encode("utf-8")
    if not raw.strip():
        return JsonResponse({"error": "empty", "message": _("No message was given.")}, status=400)
    form = request.content_type != "message/rfc822"
    recipient = request.POST.get("recipient") if form else None
    sender = request.POST.get("sender") if form else None
    services.inbound_mail_store(
        raw=raw,
        recipient=recipient or request.headers.get("X-Recipient"),
        envelope_sender=sender or request.headers.get("X-Envelope-Sender"),
        authentication=request.headers.get("X-Inbound-Authentication", ""),
    )
    return JsonResponse({"accepted": True}, status=202)


@csrf_exempt
@require_POST
def bounce_webhook(request: HttpRequest) -> HttpResponse:
    """The mail provider's bounce and complaint webhook (JSON, see correspondence.bounces),
    authenticated by the shared secret header X-Webhook-Secret; off (404) without one."""
    secret = settings.MAIL_WEBHOOK_SECRET
    if not secret:
        raise Http404()
    if not hmac.compare_digest(secret.encode(), request.headers.get("X-Webhook-Secret", "").encode()):
        return JsonResponse({"error": "forbidden"}, status=403)
    try:
        payload = json_body_load(request.body)  # too deep or garbage: a 400, never a RecursionError
    except JsonBodyError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=400)
    try:
        report = bounces.bounce_events_receive(payload=payload)
    except CorrespondenceError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=error.status)
    return JsonResponse(report.as_dict())
