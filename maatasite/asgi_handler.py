"""The ASGI handler of the site's pages: its middleware chain and views run as one sync call.

Django's own ASGI handler runs the middleware chain in async mode. Every view of the site and
most of its middleware are sync only, so a request crossed between the event loop and a worker
thread at each change of mode: into a thread for the first middleware, back to the loop for
each async-capable one (``MiddlewareMixin.__acall__`` then sends each of its hooks to a thread
again), and once more for the view. Under the production server (gunicorn with uvicorn's worker)
these crossings cost the trivial view about 4 ms of CPU against 0.5 ms through Django's test
client (bench/: ``server CPU ms/op``).

Here the chain is built in sync mode, as under WSGI, and a request enters it once, through one
``sync_to_async`` in the request's own thread (thread-sensitive, as Django runs sync views, so
the connection handling of ``request_started`` and ``request_finished`` meets the same
connections). Reading the body and sending the answer stay on the event loop, and a client that
disconnects is still noticed there.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain in sync mode, entered once a request."""

    def __init__(self) -> None:  # Django's loads the chain in async mode
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: Any) -> Any:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
