"""Clubs, leagues, seasons and fixtures will live here (a later issue)."""
