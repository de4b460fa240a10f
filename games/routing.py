"""The games app's WebSocket routes (maatasite/asgi.py mounts them)."""

from django.urls import path

from .consumers import GamePageConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GamePageConsumer.as_asgi(), name="game_live"),
]


def socket_path(game_id: int) -> str:
    """The path of game ``game_id``'s socket (the Channels router is not Django's: no reverse())."""
    return "/ws/games/%d/" % int(game_id)
