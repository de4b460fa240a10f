"""Activate a signed-in user's language and time zone for each request.

Placed after AuthenticationMiddleware (and after Django's LocaleMiddleware, which
has already chosen a language from the cookie or the browser). A user's saved
language wins; when a signed-in user picks a language in the switcher
(django.views.i18n.set_language), it is saved as their preference.

A view whose answer depends on neither (``reads_no_user``: the game status poll) skips
them, and so the session and user reads they would cost on every poll.
"""

import zoneinfo

from django.conf import settings
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone, translation

from .services import user_language_set


def reads_no_user(view):
    """Mark ``view`` as one whose answer needs neither the user's language nor time zone nor
    the user at all (UserPreferencesMiddleware then reads neither the session nor the user)."""
    view.reads_no_user = True
    return view


def _view_reads_no_user(request) -> bool:
    try:
        return bool(getattr(resolve(request.path_info).func, "reads_no_user", False))
    except Resolver404:
        return False


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.set_language_path = None

    def __call__(self, request):
        if settings.SESSION_COOKIE_NAME in request.COOKIES and _view_reads_no_user(request):
            timezone.deactivate()
            return self.get_response(request)
        # without a session cookie the user is anonymous and reading it costs nothing
        user = getattr(request, "user", None)
        if user is not None and not user.is_authenticated:
            user = None  # anonymous: the site's defaults
        if user is not None and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
        if user is not None and user.time_zone:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()

        response = self.get_response(request)

        if user is not None and request.method == "POST" and settings.LANGUAGE_COOKIE_NAME in response.cookies:
            if self.set_language_path is None:
                self.set_language_path = reverse("set_language")
            chosen = response.cookies[settings.LANGUAGE_COOKIE_NAME].value
            if request.path == self.set_language_path and chosen != user.language:
                user_language_set(user=user, language=chosen)
        return response
