"""Threads that each use a database connection of their own, and the server sessions they leave behind.

Only the sessions of these threads are checked when a test ends (``no_connection_left``,
tests/games/conftest.py): other sessions (another test's live server, a worker) are not ours.
"""

from __future__ import annotations

from django.db import connection

# The server process ids of the connections the threads used: each thread adds its own before it closes it.
thread_pids: list[int] = []


def open_sessions(pids: list[int]) -> int:
    """How many of ``pids`` are still sessions on the server."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
        return cursor.fetchone()[0]
