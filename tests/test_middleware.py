"""A failing database answers 503 with a sentence; any other error stays a 500 (a bug is a bug)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from config.middleware import DatabaseUnavailableMiddleware


def _answer(exc: Exception, **headers: str) -> object:
    middleware = DatabaseUnavailableMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]
    return middleware.process_exception(RequestFactory().post("/m/1/play/", headers=headers), exc)


def test_it_answers_a_lost_database_with_a_page_that_says_the_move_was_not_made() -> None:
    response = _answer(OperationalError("server closed the connection unexpectedly"))
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "it was not made" in response.content.decode() and "try again" in response.content.decode()


def test_it_answers_htmx_in_plain_text_for_the_status_area() -> None:
    response = _answer(OperationalError("gone"), HX_Request="true")
    assert response.status_code == 503 and response["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize("exc", [ValueError("a bug"), KeyError("x")])
def test_it_leaves_every_other_error_alone(exc: Exception) -> None:
    assert _answer(exc) is None
