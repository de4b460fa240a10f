"""ASGI entry point: the site's pages (Django) and the game pages' WebSockets (Channels).

Production serves it with gunicorn and uvicorn's worker (Procfile). It sits with maatasite.urls
on the top layer ([tool.importlinter]): like the URL root, it mounts the apps' routes.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")

# Django is set up (apps loaded) before the consumers' modules import models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

# The sockets read the session cookie themselves (games/consumers.py), as the pages do.
websocket_application = SessionMiddlewareStack(URLRouter(websocket_urlpatterns))

application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application})
