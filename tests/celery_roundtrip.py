"""A Celery app for the broker round-trip test, so a real `celery worker` process can load it by module name.

It is not the project app: it has no Django fixup (the worker needs no database) and a private
queue, so it can never take work from, or give work to, a worker started by `make run`.
"""

from __future__ import annotations

import os

from celery import Celery


def make_app(*, broker: str, backend: str, queue: str) -> Celery:
    app = Celery("parlour-roundtrip", broker=broker, backend=backend, fixups=[], set_as_current=False)
    app.conf.update(task_default_queue=queue, worker_hijack_root_logger=False)
    import accounts.tasks  # noqa: F401  (shared tasks register on every app, this one included)

    return app


app = make_app(
    broker=os.environ.get("ROUNDTRIP_BROKER_URL", "memory://"),
    backend=os.environ.get("ROUNDTRIP_RESULT_BACKEND", "cache+memory://"),
    queue=os.environ.get("ROUNDTRIP_QUEUE", "roundtrip"),
)
