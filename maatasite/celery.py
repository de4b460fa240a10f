"""The Celery application.

Configuration comes from Django settings whose names start with CELERY_
(e.g. CELERY_BROKER_URL -> broker_url). Tasks are found in every installed
app's tasks.py module.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maatasite.settings")

app = Celery("maatasite", task_cls="maatasite.task_policy:AfterCommitTask")  # delay_on_commit: task_policy
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Structured logs (maatasite.logs): a task logs with the request id that sent it and its game id.
from celery.signals import before_task_publish, task_postrun, task_prerun  # noqa: E402

from maatasite import logs  # noqa: E402

before_task_publish.connect(logs.task_publish_add_request_id, weak=False)
task_prerun.connect(logs.task_prerun_bind, weak=False)
task_postrun.connect(logs.task_postrun_unbind, weak=False)
