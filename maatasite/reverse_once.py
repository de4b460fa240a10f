"""``reverse_once``: an address every page links, reversed once per process.

Django's ``reverse`` works an address out again at each call, about a twentieth of a
millisecond: a game page reversed about a dozen. The same name, arguments and script prefix
always give the same address for the life of the process (the URL configuration is fixed), so
it is worked out once; bounded, since arguments may vary (a game's addresses use one sentinel
id: games.views.game_urls).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import get_script_prefix, reverse


@lru_cache(maxsize=1024)
def _reversed(prefix: str, name: str, args: tuple[Any, ...]) -> str:
    return reverse(name, args=list(args) or None)


def reverse_once(name: str, *args: Any) -> str:
    """``reverse(name, args=args)``, worked out once per process and script prefix."""
    return _reversed(get_script_prefix(), name, args)
