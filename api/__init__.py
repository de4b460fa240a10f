"""The REST API's shared infrastructure (base views, tokens, scopes, throttling, idempotency,
ETags, the error shape); the endpoints are each app's ``apis.py``, assembled under /api/v1/
by maatasite/api_urls.py."""
