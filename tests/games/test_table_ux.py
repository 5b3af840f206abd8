"""The table as a player wants it: what a newcomer stumbled on, outside the browser.

Mail links follow the address ``make run`` serves at; the header's "Your turn" count comes with every
refresh of the table; a finished table shows the result, not live play; the export says how it counts
seats; a refused request is one warning line; and the site says "Log in" everywhere.
"""

from __future__ import annotations

import html as html_lib
import json
import logging
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core import mail as django_mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from engine.replay import verify
from games import tasks
from games.models import Mail, Match, Seat
from games.selectors import awaiting_count
from games.services import move_submit
from tests.games.conftest import login
from tests.games.factories import PASSWORD, UserFactory, game_names, make_match, play_engine_moves, quick_options

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
HTMX = {"HTTP_HX_REQUEST": "true"}
# The header link as a refresh sends it, out of band; group 1 is what it says.
OOB_BADGE = re.compile(r'<a class="your-turn[^"]*" href="[^"]*" id="your-turn" hx-swap-oob="true">(.*?)</a>', re.S)


def _text(page: str) -> str:
    body = page[page.find("<article") : page.find("</article>")] if "<article" in page else page
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", body)))


# --- mail links ------------------------------------------------------------------


def _make_run(*args: str, **env: str) -> str:
    """The commands ``make run`` would run (``make -n``: nothing is started or installed)."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("needs make")
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(ROOT), **env}
    done = subprocess.run(
        [make, "-n", "-C", str(ROOT), "run", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=True,
    )
    honcho = [line for line in done.stdout.splitlines() if "honcho" in line]
    assert len(honcho) == 1, done.stdout
    return honcho[0]


def test_make_run_gives_the_worker_the_address_it_serves_at() -> None:
    assert "SITE_URL='http://127.0.0.1:8611'" in _make_run("PORT=8611")
    # Listening on every address, the site is still reached at localhost.
    assert "SITE_URL='http://localhost:8611'" in _make_run("PORT=8611", "HOST=0.0.0.0")
    # A SITE_URL of one's own (a tunnel, a proxy) wins.
    assert "SITE_URL='https://cards.example.org'" in _make_run("PORT=8611", SITE_URL="https://cards.example.org")


def test_mail_queued_outside_a_request_links_to_site_url(settings, eager, django_capture_on_commit_callbacks) -> None:
    """A turn mail written by a bot's move (a Celery task, no request anywhere) links to SITE_URL."""
    settings.SITE_URL = "http://127.0.0.1:8611"
    human = UserFactory(notify=User.Notify.EACH_TURN, auto_forced_moves=False)
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match("karnoffel", users=[human], bots=3)
    for _ in range(10):  # the human plays; the bots answer in their tasks until it is the human's turn again
        match.refresh_from_db()
        if match.is_over or 0 not in match.engine.to_act(match.state):
            break
        first = Mail.objects.filter(user=human).count()
        action = match.engine.legal_actions(match.state, 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            move_submit(match=match, user=human, seat=0, action=action, version=match.version)
        if Mail.objects.filter(user=human).count() > first:
            break
    assert eager.played > 0, "the set-up needs bot moves, which run as tasks"
    mail = Mail.objects.filter(user=human).latest("pk")
    # Its text is written when it goes, after the grace period (games.tasks.mail_send): cut that short.
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now())
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    mail.refresh_from_db()
    link = f"http://127.0.0.1:8611{match.get_absolute_url()}"
    assert link in mail.body and link in mail.html and "localhost:8000" not in mail.body


# --- the header's count -------------------------------------------------------------


def _humans_match(game: str) -> tuple[Match, Seat]:
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    seat = match.seats.select_related("user").get(number=match.engine.to_act(match.state)[0])
    return match, seat


def _first_legal(match: Match, number: int) -> str:
    action = match.engine.legal_actions(match.state, number)[0]
    return json.dumps(action)


@pytest.mark.parametrize("game", game_names())
def test_a_move_brings_the_header_count_up_to_date(game: str) -> None:
    match, seat = _humans_match(game)
    me = seat.user
    # A second table awaits the same player, so the count goes from 2 to 1, not just away.
    other = make_match(game, users=[me], bots=match.players - 1)
    Seat.objects.filter(match=other, user=me).update(awaiting=True)
    assert awaiting_count(user=me) == 2
    client = login(me)
    assert '<span class="badge">2</span>' in client.get(match.get_absolute_url()).content.decode()

    answer = client.post(
        reverse("games-play", args=[match.pk]),
        {"action": _first_legal(match, seat.number), "version": match.version},
        **HTMX,
    )

    assert answer.status_code == 200
    badge = OOB_BADGE.search(answer.content.decode())
    assert badge, "the move's answer must carry the header's count"
    expected = awaiting_count(user=me)
    assert expected == 1 + Seat.objects.filter(match=match, user=me, awaiting=True).count()
    assert f'<span class="badge">{expected}</span>' in badge.group(1)


def test_a_refresh_of_a_finished_match_clears_the_header_count() -> None:
    match, seat = _humans_match(game_names()[0])
    client = login(seat.user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert '<span class="badge">1</span>' in page
    poll = reverse("games-poll", args=[match.pk])
    unchanged = client.get(poll, {"v": match.version, "c": match.chat_mark}, **HTMX)
    assert unchanged.status_code == 204 and not unchanged.content  # nothing new: still nothing sent
    play_engine_moves(match, 0, until_over=True)

    answer = client.get(poll, {"v": 0, "c": 0}, **HTMX)

    badge = OOB_BADGE.search(answer.content.decode())
    assert badge, "the last refresh must carry the header's count"
    assert "badge" not in badge.group(1) and _text(badge.group(1)).strip() == "Your turn"
    # Outside htmx the whole page has the header already: no second copy of the link.
    assert client.get(match.get_absolute_url()).content.decode().count('id="your-turn"') == 1


# --- a finished table ------------------------------------------------------------------

# Words of a table in play: whose lead, the trick under way, the hand to play from, what is still to come.
LIVE = re.compile(
    r"to lead|Trick \d|Your hand|Your move|this hand|this round|Still to play|is choosing the game|"
    r"Cards in hand:|Waiting for|to play\b|The centre|round \d+ of|Hand \d+ of|· playing|no cards"
)


def _finished(game: str) -> Match:
    match = make_match(game, options=quick_options(game))
    play_engine_moves(match, 0, until_over=True)
    match.refresh_from_db()
    assert match.is_over
    return match


@pytest.mark.parametrize("game", game_names())
def test_a_finished_table_shows_the_result_not_live_play(game: str) -> None:
    match = _finished(game)
    for client in (login(match.seats.get(number=0).user), login(UserFactory())):
        page = client.get(match.get_absolute_url()).content.decode()
        text = _text(page)
        assert "The match is over." in text
        found = LIVE.search(text)
        assert found is None, f"{game}: a finished table reads {found.group(0)!r}: {text}"
        assert 'class="actions' not in page, f"{game}: a finished table offers moves"
        assert 'data-turn="over"' in page


@pytest.mark.parametrize("game", game_names())
def test_the_live_play_words_are_there_while_the_match_is_played(game: str) -> None:
    """The check above would pass on an empty page: the same words are found on a table in play."""
    match = make_match(game, options=quick_options(game))
    play_engine_moves(match, 2)
    text = _text(login(UserFactory()).get(match.get_absolute_url()).content.decode())
    assert LIVE.search(text), text


# --- the export --------------------------------------------------------------------------


def test_the_export_says_how_it_counts_seats_and_still_verifies() -> None:
    match = _finished(game_names()[0])
    seat = match.seats.select_related("user").get(number=0)
    client = login(seat.user)
    page = _text(client.get(match.get_absolute_url()).content.decode())
    assert f"you are {seat.name} (seat 1)" in page

    log = json.loads(client.get(reverse("games-export", args=[match.pk])).content)

    assert log["seat_numbers"].startswith("0-based")
    assert log["seats"][0] == {"seat": 0, "table_seat": 1, "name": seat.name}
    assert [s["seat"] for s in log["seats"]] == list(range(match.players))
    assert verify(log)[0], verify(log)


# --- a refused request is one warning line ----------------------------------------------------


def test_a_refused_request_for_a_table_is_a_warning_line_not_a_traceback(caplog) -> None:
    private = make_match(game_names()[0], private=True)
    public = make_match(game_names()[0])
    outsider = login(UserFactory())
    requests = [
        lambda: outsider.get(private.get_absolute_url()),  # 404: not yours to see
        lambda: outsider.get(reverse("games-poll", args=[private.pk]), **HTMX),
        lambda: outsider.post(reverse("games-play", args=[private.pk]), {"action": "{}", "version": 0}),
        lambda: outsider.post(reverse("games-play", args=[public.pk]), {"action": "{}", "version": 0}),  # 403
        lambda: outsider.post(reverse("games-chat", args=[public.pk]), {"text": "hello"}),
    ]
    with caplog.at_level(logging.INFO, logger="django.request"):
        statuses = [request().status_code for request in requests]
    assert statuses == [404, 404, 404, 403, 403]
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == len(requests)
    for record in records:
        assert record.levelno == logging.WARNING and record.exc_info is None, record.getMessage()
        assert "\n" not in record.getMessage()


# --- one wording for logging in -----------------------------------------------------------------

OTHER_WORDING = re.compile(r"sign[ -]?(in|out)\b|signed (in|out)", re.I)


def test_every_template_says_log_in() -> None:
    templates = sorted(path for path in (ROOT / "templates").rglob("*") if path.is_file())
    assert templates, "no templates found: the check would pass on nothing"
    for path in templates:
        found = OTHER_WORDING.search(path.read_text())
        assert found is None, f"{path.relative_to(ROOT)} says {found.group(0)!r}; the site says 'Log in'"


def test_the_account_pages_and_mails_say_log_in(client: Client) -> None:
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/login/code/"):
        text = _text(client.get(path).content.decode())
        assert "Log in" in text and not OTHER_WORDING.search(text), (path, text)
    user = UserFactory()
    client.post("/accounts/login/code/", {"email": user.email})
    code_mail = django_mail.outbox[-1]
    assert "login code" in code_mail.subject and not OTHER_WORDING.search(code_mail.subject + code_mail.body)
    client = Client()  # a fresh browser: the code request above left a login half done in the session
    answer = client.post("/accounts/login/", {"login": user.email, "password": PASSWORD}, follow=True)
    assert "You are logged in as" in _text(answer.content.decode())
    assert not OTHER_WORDING.search(_text(client.get(reverse("games-dashboard")).content.decode()))
    page = client.get("/accounts/logout/").content.decode()
    assert "Log out" in _text(page) and not OTHER_WORDING.search(_text(page))
    answer = client.post("/accounts/logout/", follow=True)
    assert "You have logged out." in _text(answer.content.decode())
