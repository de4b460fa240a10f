"""ASGI entry point: the site's pages (Django) and the game pages' WebSockets (Channels).

Production serves it with gunicorn and uvicorn's worker (Procfile). It sits with maatasite.urls
on the top layer ([tool.importlinter]): like the URL root, it mounts the apps' routes.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")

# Django is set up (apps loaded) before the consumers' modules import models, as
# django.core.asgi.get_asgi_application sets it up; the pages are served by Django's handler with
# its middleware chain run as one sync call (maatasite/asgi_handler.py).
django.setup(set_prefix=False)

from maatasite.asgi_handler import SyncChainASGIHandler  # noqa: E402

django_application = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

# The sockets read the session cookie themselves (games/consumers.py), as the pages do.
websocket_application = SessionMiddlewareStack(URLRouter(websocket_urlpatterns))

application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application})
