"""What templates/base.html shows on every page: the failing-address banner of a signed-in
player, and the header's links and language choices (drawn once per process)."""

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from maatasite.reverse_once import reverse_once

# The header's links and the language switcher's choices are the same on every page for one
# player in one language: each is drawn once per process (a page drew them through some forty
# template nodes and a dozen reversed addresses). Bounded: emptied when it holds this many.
_DRAWN_KEPT = 10_000
_drawn: dict[tuple[object, ...], SafeString] = {}


def _drawn_once(key: tuple[object, ...], template: str, context: dict[str, object]) -> SafeString:
    found = _drawn.get(key)
    if found is None:
        if len(_drawn) >= _DRAWN_KEPT:
            _drawn.clear()
        found = _drawn[key] = mark_safe(render_to_string(template, context))  # noqa: S308  # a template's output
    return found


def site_nav(request):
    """``site_nav_links`` and ``site_language_options``: callables, drawn at most once per
    process for (language, the player's name and address on the site)."""
    user = getattr(request, "user", None)

    def links() -> SafeString:
        who: tuple[object, ...] = ()
        if user is not None and user.is_authenticated:
            who = (user.pk, user.username, user.public_name)
        return _drawn_once(("links", translation.get_language(), *who), "_nav_links.html", {"user": user})

    def language_options() -> SafeString:
        return _drawn_once(("languages", translation.get_language()), "_language_options.html", {})

    return {"site_nav_links": links, "site_language_options": language_options, "site_urls": _site_urls()}


# The addresses templates/base.html links on every page, reversed once per process instead of
# on each page.
_SITE_URL_NAMES = {
    "home": "games:home",
    "lobby": "games:lobby",
    "logout": "accounts:logout",
    "set_language": "set_language",
    "rules": "games:rules",
}


def _site_urls() -> dict[str, str]:
    return {key: reverse_once(name) for key, name in _SITE_URL_NAMES.items()}


def mail_failing(request):
    """``mail_failing_user``: the signed-in user when mail to their address fails, else None
    (a callable, so a page without the banner never loads the user for it)."""

    def failing_user():
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.email_is_failing:
            return user
        return None

    return {"mail_failing_user": failing_user}
