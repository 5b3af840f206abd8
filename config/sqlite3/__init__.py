"""Django's SQLite backend, creating the database file's folder on first connection (see base.py)."""
