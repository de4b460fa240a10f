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


def task_prerun_reset_queries(task: object = None, **_signal: object) -> None:
    """Each task a worker runs starts with Django's debug query log empty, as each request
    does (Django empties it on request_started): under DEBUG a worker would otherwise hold
    the last 9,000 queries of each connection, their SQL text with it (bench/scale.py's
    Celery memory saw it grow). With DEBUG off the log stays empty. A task run in-process
    (eager) leaves the log of the request or test that ran it alone."""
    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    from django.db import reset_queries

    reset_queries()


task_prerun.connect(task_prerun_reset_queries, weak=False)
