"""``{% live_socket_path game %}``: the path of the game page's WebSocket (games/consumers.py),
or nothing when push is off or nobody is signed in (the socket would refuse them), so that
the page opens no socket and polls (static/games/live.js, game.js)."""

from typing import Any

from django import template

from ..live import push_enabled
from ..routing import socket_path

register = template.Library()


@register.simple_tag(takes_context=True)
def live_socket_path(context: dict[str, Any], game: Any) -> str:
    request = context.get("request")
    signed_in = request is not None and request.user.is_authenticated
    return socket_path(game.pk) if push_enabled() and signed_in else ""
