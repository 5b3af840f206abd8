"""Why it happened, in the app: each move keeps the engine's reasons (``Move.reasons``, the snapshot's log
lines too), the log (the full log page and the table's recent log) shows a why line under a move that settled
something and a hand separator with the hand's summary after a hand, and the table shows the latest why."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine import karnoffel as K
from games.models import Move
from games.presenters import presenter_for
from tests.games.conftest import login
from tests.games.factories import make_match, play_engine_moves
from tests.games.table_pages import page_text, reader_of, seat_names, table_page

pytestmark = pytest.mark.django_db


def finished_karnoffel():
    match = make_match("karnoffel", humans=4, options={"target": 1})
    return play_engine_moves(match, 0, seed=7, until_over=True)


def test_it_keeps_the_engines_reasons_with_each_move() -> None:
    match = finished_karnoffel()
    moves = list(match.moves.order_by("ply"))
    state, expected = K.new_match(4, match.options, seed=match.seed), []
    for move in moves:
        after = K.apply(state, move.seat, move.action)
        expected.append(K.reasons(state, after))
        state = after
    assert [m.reasons for m in moves] == expected
    kinds = [r["kind"] for m in moves for r in m.reasons]
    assert kinds.count("hand") == 1 and kinds[-2:] == ["hand", "match"] and "trick" in kinds
    # Only moves that settled something carry reasons in the snapshot's log lines.
    lines = {line["ply"]: line for line in match.recent_moves}
    for move in moves:
        if move.ply in lines:
            assert lines[move.ply].get("reasons", []) == move.reasons


def test_it_shows_why_lines_a_hand_separator_and_a_summary_in_the_full_log() -> None:
    match = finished_karnoffel()
    _, client = reader_of_finished(match)
    page = client.get(reverse("games-log", args=[match.pk])).content.decode()
    names = seat_names(match)
    presenter = presenter_for("karnoffel")
    last = match.moves.order_by("ply").last()
    assert last is not None
    trick, hand, won = last.reasons
    for reason in (trick, hand, won):
        assert "Why: " + presenter.reason_text(reason, names) in html_text(page)
    assert page.count('<hr class="hand-end">') == 1
    assert presenter.hand_summary(hand, names) in html_text(page)
    first_trick = next(m for m in match.moves.order_by("ply") if m.reasons)
    assert first_trick.ply == 3 and presenter.reason_text(first_trick.reasons[0], names) in html_text(page)


def test_it_shows_the_latest_why_at_the_table_and_in_its_recent_log() -> None:
    match = make_match("karnoffel", humans=4, options={"target": 3})
    play_engine_moves(match, 4, seed=2)
    number, client = reader_of(match)
    text = page_text(table_page(client, match))
    reason = match.moves.get(ply=3).reasons[0]
    sentence = presenter_for("karnoffel").reason_text(reason, seat_names(match))
    assert text.count(sentence) == 2  # at the table (tables/_why.html) and under the move in the recent log
    assert f"Why: {sentence}" in text


def test_it_shows_a_log_line_stored_before_reasons_existed() -> None:
    match = make_match("rentz", humans=4)
    play_engine_moves(match, 5, seed=1)
    Move.objects.filter(match=match).update(reasons=[])
    match.recent_moves = [{k: v for k, v in line.items() if k != "reasons"} for line in match.recent_moves]
    match.save(update_fields=["recent_moves"])
    _, client = reader_of(match)
    assert client.get(reverse("games-log", args=[match.pk])).status_code == 200
    assert "Why:" not in page_text(table_page(client, match))


def reader_of_finished(match):
    seat = match.seats.select_related("user").get(number=0)
    return 0, login(seat.user)


def html_text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_it_reads_the_full_log_with_its_reasons_in_as_many_queries_however_long() -> None:
    short = make_match("karnoffel", humans=4, options={"target": 1})
    play_engine_moves(short, 4, seed=3)
    long = finished_karnoffel()
    counts = []
    for match in (short, long):
        _, client = reader_of_finished(match)
        client.get(reverse("games-log", args=[match.pk]))  # the session and the user, read once
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("games-log", args=[match.pk])).content.decode()
        assert "Why: " in page
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
