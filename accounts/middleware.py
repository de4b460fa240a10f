"""Activate a signed-in user's language and time zone for each request.

Placed after AuthenticationMiddleware (and after Django's LocaleMiddleware, which
has already chosen a language from the cookie or the browser). A user's saved
language wins; when a signed-in user picks a language in the switcher
(django.views.i18n.set_language), it is saved as their preference.
"""

import zoneinfo

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from .services import user_language_set


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.set_language_path = None

    def __call__(self, request):
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
