"""Django's SQLite backend, except that it creates the folder of the database file before connecting.

Settings must not create folders when they are imported (an import should have no side effects,
and `collectstatic` in the image build or a test that reads settings should leave the disk alone),
so the folder under ``PARLOUR_VAR_DIR`` is made here, by the code that first writes to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper


class DatabaseWrapper(SQLiteDatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        name = str(conn_params.get("database", ""))
        # In-memory databases (tests) have no folder: ":memory:" or a "file:...mode=memory" URI.
        if name and name != ":memory:" and not name.startswith("file:"):
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        return super().get_new_connection(conn_params)
