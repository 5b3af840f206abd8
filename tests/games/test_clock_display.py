"""The table shows each seat's clock: the deadline in the reader's time zone with a countdown, the time control,
vacations, absent seats, and the reader's own way back to an absent seat."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from games.clocks import TimeControl
from games.models import Match, Seat
from games.services import SeatSpec, match_create
from games.vacation import vacation_start
from tests.games.conftest import login
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FISCHER = TimeControl(initial=timedelta(hours=24), increment=timedelta(hours=4), cap=timedelta(hours=72))


@pytest.fixture(autouse=True)
def frozen() -> object:
    with mock.patch("django.utils.timezone.now", return_value=START):
        yield


def _match(game: str = "karnoffel", *, clock: TimeControl | None = FISCHER, **fields: object) -> Match:
    users = [UserFactory(notify=User.Notify.NEVER, **fields) for _ in range(4)]
    return match_create(
        game=game,
        players=4,
        options={},
        created_by=users[0],
        seats=[SeatSpec(user=u) for u in users],
        time_control=clock,
    )


def _page(match: Match, reader: User, *, poll: bool = False) -> str:
    client = login(reader)
    if poll:
        answer = client.get(reverse("games-poll", args=[match.pk]), {"v": -1}, HTTP_HX_REQUEST="true")
    else:
        answer = client.get(match.get_absolute_url())
    assert answer.status_code == 200
    return answer.content.decode()


def _clocks(html: str) -> str:
    found = re.search(r'<section class="clocks".*?</section>', html, re.S)
    assert found, "the table has no clocks"
    return found.group(0)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_it_shows_the_deadline_in_the_readers_time_zone_with_a_countdown_and_the_time_control() -> None:
    match = _match()
    awaited = match.seats.select_related("user").get(awaiting=True)
    reader = match.seats.select_related("user").exclude(pk=awaited.pk).first().user
    User.objects.filter(pk=reader.pk).update(time_zone="America/New_York")
    reader.refresh_from_db()
    clocks = _clocks(_page(match, reader))
    assert "Time control: 24 hours, +4 hours a move, up to 3 days." in _text(clocks)
    # 09:00 UTC tomorrow is 04:00 in New York (EST), as the reader reads it.
    assert "time runs out 3 Mar, 04:00 EST" in _text(clocks)
    assert clocks.count("data-deadline=") == 1
    assert 'data-deadline="2026-03-03T04:00:00-05:00"' in clocks
    row = re.search(rf'<li[^>]*data-seat="{awaited.number}".*?</li>', clocks, re.S).group(0)
    assert "data-deadline" in row and "running" in row
    # The others' clocks hold their whole bank while they wait.
    assert _text(clocks).count("1 day on the clock") == 3


def test_a_simultaneous_step_runs_every_awaited_seats_clock() -> None:
    match = _match("rapscallion")
    awaited = list(match.seats.filter(awaiting=True))
    assert len(awaited) > 1, "the setup needs a sealed step"
    clocks = _clocks(_page(match, awaited[0].user))
    assert clocks.count("data-deadline=") == len(awaited)


def test_the_countdown_comes_from_our_own_script_and_the_page_works_without_it() -> None:
    match = _match()
    page = _page(match, match.seats.first().user)
    assert re.search(r'<script src="[^"]*js/clocks\.[^"]*js" defer></script>', page)
    assert not re.search(r"<script>(?!</script>)", page)  # no inline script: the CSP forbids it
    countdown = re.search(r'<span class="countdown" data-deadline="[^"]+" hidden></span>', _clocks(page))
    assert countdown, "without JavaScript the countdown stays hidden beside the absolute time"
    script = (Path(settings.BASE_DIR) / "static" / "js" / "clocks.js").read_text()
    assert "data-deadline" in script and "innerHTML" not in script


def test_the_poll_brings_the_clocks_too() -> None:
    match = _match()
    assert "data-deadline=" in _clocks(_page(match, match.seats.first().user, poll=True))


def test_a_casual_match_says_it_has_no_clock() -> None:
    match = _match(clock=None)
    clocks = _clocks(_page(match, match.seats.first().user))
    assert "A casual match: no clock." in _text(clocks) and "data-deadline" not in clocks


def test_the_others_see_who_is_on_vacation_until_when() -> None:
    match = _match()
    away = match.seats.select_related("user").get(awaiting=True)
    vacation_start(user=away.user, days=3)
    reader = match.seats.exclude(pk=away.pk).first().user
    clocks = _clocks(_page(match, reader))
    row = re.search(rf'<li[^>]*data-seat="{away.number}".*?</li>', clocks, re.S).group(0)
    assert "on vacation until 5 Mar, 09:00 UTC" in _text(row)
    assert "data-deadline" not in row and "(stopped)" in _text(row)  # the clock stands still


def test_an_absent_seat_is_played_by_a_bot_and_only_its_player_may_take_it_back() -> None:
    match = _match()
    absent = match.seats.select_related("user").get(number=1)
    Seat.objects.filter(pk=absent.pk).update(absent=True, deadline=None)
    other = match.seats.select_related("user").get(number=0).user
    theirs = _clocks(_page(match, other))
    assert "absent (played by a bot)" in _text(theirs) and "Take my seat back" not in theirs
    mine = _clocks(_page(match, absent.user))
    assert "absent (played by a bot)" in _text(mine)
    form = re.search(r'<form class="reclaim" method="post" action="([^"]+)">.*?</form>', mine, re.S)
    assert form and form.group(1) == reverse("games-reclaim", args=[match.pk])
    assert "csrfmiddlewaretoken" in form.group(0) and "Take my seat back" in form.group(0)
    client = login(absent.user)
    assert client.post(form.group(1)).status_code == 302
    assert not Seat.objects.get(pk=absent.pk).absent
    assert "absent (played by a bot)" not in _text(_clocks(_page(match, absent.user)))


def test_a_bot_to_act_has_no_clock_and_is_never_shown_stopped() -> None:
    users = [UserFactory(notify=User.Notify.NEVER) for _ in range(2)]
    specs = [SeatSpec(bot="random"), SeatSpec(user=users[0]), SeatSpec(bot="random"), SeatSpec(user=users[1])]
    match = match_create(
        game="karnoffel", players=4, options={}, created_by=users[0], seats=specs, time_control=FISCHER
    )
    bots = list(match.seats.filter(bot_level="random").order_by("number"))
    Seat.objects.filter(match=match).update(awaiting=False, deadline=None)
    Seat.objects.filter(pk=bots[0].pk).update(awaiting=True)  # a bot to act, as between its turn and its move
    clocks = _clocks(_page(match, users[0]))
    assert "(stopped)" not in clocks
    assert clocks.count("a bot: no clock") == len(bots)
