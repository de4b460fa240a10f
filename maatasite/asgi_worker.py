"""gunicorn's worker class for the ASGI site (Procfile, bench/): uvicorn's, with its proxy
headers off.

The site reads X-Forwarded-For itself, trusting TRUSTED_PROXY_COUNT proxies
(api/client_address.py), as it did under gunicorn's sync workers; uvicorn would otherwise put
the forwarded address in the client's place first, and a proxy would be counted twice.
"""

from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}
