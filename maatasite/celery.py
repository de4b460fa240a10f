"""The Celery application.

Configuration comes from Django settings whose names start with CELERY_
(e.g. CELERY_BROKER_URL -> broker_url). Tasks are found in every installed
app's tasks.py module.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")

app = Celery("maatasite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
