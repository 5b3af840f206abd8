"""Threads that each use a database connection of their own, and the server sessions they leave behind.

Only the sessions of these threads are checked when a test ends (``no_connection_left``,
tests/games/conftest.py): other sessions (another test's live server, a worker) are not ours.
``together`` is the one way the race tests start their threads at the same moment.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection

THREAD_TIMEOUT = 30.0

# The server process ids of the connections the threads used: each thread adds its own before it closes it.
thread_pids: list[int] = []


def open_sessions(pids: list[int]) -> int:
    """How many of ``pids`` are still sessions on the server."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
        return cursor.fetchone()[0]


def together(
    calls: Sequence[Callable[[], Any]],
    *,
    refusals: tuple[type[BaseException], ...] = (),
    timeout: float = THREAD_TIMEOUT,
) -> list[Any]:
    """Run the calls in threads released at the same moment, each on a connection of its own; what each
    answered, in the order they finished.

    A call's answer is what it returned; the sentence (``str``) of an exception of one of the ``refusals``
    types (a refusal is an answer); any other exception itself, so that the assertion reports it instead
    of losing it in the thread. Every thread must finish within ``timeout`` (none hangs on a lock).
    """
    start = threading.Barrier(len(calls), timeout=timeout)
    answers: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            start.wait()
            answers.append(call())
        except refusals as exc:
            answers.append(str(exc))
        except Exception as exc:
            answers.append(exc)
        finally:
            if connection.connection is not None:
                thread_pids.append(connection.connection.info.backend_pid)
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a thread did not finish"
    return answers
