"""WSGI entry point (gunicorn maatasite.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")

application = get_wsgi_application()
