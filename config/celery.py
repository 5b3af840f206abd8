"""The Celery app: Redis in production, Kombu's SQLAlchemy transport on SQLite locally."""

import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("parlour")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def _register_the_apps_tasks(sender: Celery, **kwargs: Any) -> None:
    """Import every app's ``tasks`` module when the app is first used, in every process.

    The worker imports them when it starts, but a web process imports them only when something asks:
    the services queue tasks by name (they do not import the task modules), and the name must be
    registered there, to publish it and to run it inline in eager mode. Without Django ready there is
    no list of apps yet; the worker's own discovery covers that case.
    """
    from django.apps import apps

    if apps.ready:
        sender.autodiscover_tasks(force=True)
