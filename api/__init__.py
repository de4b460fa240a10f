"""The REST API for mobile apps and web clients, under /api/v1/ (see api/urls.py)."""
