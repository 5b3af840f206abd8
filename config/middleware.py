"""Answers for when the database itself fails, so a player reads a sentence instead of a bare server error."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

SENTENCE = "We lost the connection to our database. Nothing was saved: if you made a move, it was not made. Please try again in a moment."


class DatabaseUnavailableMiddleware:
    """A lost or refused database connection answers 503 with a sentence, and never touches the database.

    The request's transaction was rolled back with the connection, so whatever it was doing (a move
    above all) is fully out; the player is told to try again. Every other exception is a bug and stays one.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("Database unavailable during %s %s: %s", request.method, request.path, exception)
        if request.headers.get("HX-Request"):  # the page shows a plain-text answer in its status area
            response = HttpResponse(SENTENCE, status=503, content_type="text/plain; charset=utf-8")
        else:
            response = HttpResponse(render_to_string("503.html", {"sentence": SENTENCE}), status=503)
        response["Retry-After"] = "30"
        return response
