"""Moves from the mail: the short view, a signed link per move, a confirmation page, and nothing more."""

from __future__ import annotations

import base64
import json
import re
import time
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.maillinks import MAX_LINKS, SALT, link_read, link_token
from games.models import Mail, Match, Move
from games.outbox import move_choices
from games.presenters import presenter_for
from games.services import move_submit
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.games.leaks import card_codes, codes_found

pytestmark = pytest.mark.django_db
LINK = re.compile(r"https?://[^\s\"<>]+/mail/move/([^/\s\"<>]+)/")


def _players(game: str, count: int | None = None) -> list[User]:
    players = count or Match(game=game).engine.MIN_PLAYERS
    return [UserFactory(auto_forced_moves=False) for _ in range(players)]


def _sent(mail: Mail) -> Mail:
    """The turn mail as sent, its grace period cut short: its text is written when it goes (games.tasks.mail_send)."""
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now())
    tasks.mail_send.apply(args=[mail.pk])
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT, mail.last_error
    return mail


def _turn_mails(match: Match) -> list[Mail]:
    """The turn mails of the newest turn, sent: the outbox rows for the seats to act at the match's version."""
    match.refresh_from_db()
    mails = Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:", turn_version=match.version)
    return [_sent(mail) for mail in mails.order_by("seat_number")]


def _turn_mail(match: Match) -> Mail | None:
    """The turn mail of the newest turn, sent: the outbox row for the seat to act at the match's version."""
    return next(iter(_turn_mails(match)), None)


def _links(mail: Mail) -> dict[str, str]:
    """Each move link of the mail's text part, by its label: the line above the address."""
    lines = mail.body.splitlines()
    found = {}
    for i, line in enumerate(lines):
        hit = LINK.fullmatch(line.strip())
        if hit and i:
            found[lines[i - 1].rstrip(":")] = reverse("games-mail-move", args=[hit.group(1)])
    return found


def _named(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _snapshot(match: Match) -> tuple[int, int, dict]:
    match.refresh_from_db()
    return match.version, Move.objects.filter(match=match).count(), match.state


def _mail_with_links(game: str, *, seed: int = 0, limit: int = 60) -> tuple[Match, Mail]:
    """A match of humans played at random until the seat to act has a turn mail with links."""
    match = make_match(game, users=_players(game))
    for step in range(limit):
        mail = _turn_mail(match)
        if mail is not None and _links(mail):
            return match, mail
        play_engine_moves(match, 1, seed=seed * 1000 + step)
    raise AssertionError(f"{game}: no turn mail with links within {limit} moves")


# --- moves made through the links ------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_it_plays_a_move_through_each_kind_of_link_in_the_mail(game: str) -> None:
    """Several turns of every game played from the mails alone: open the link, confirm, the move is made."""
    match = make_match(game, users=_players(game))
    kinds: set[str] = set()
    for step in range(40):
        mail = _turn_mail(match)
        links = _links(mail) if mail is not None else {}
        if not links:  # a composed move (a bid of any amount, a suit order): the table's business
            play_engine_moves(match, 1, seed=step)
            if match.is_over:
                break
            continue
        label, url = sorted(links.items())[step % len(links)]
        client = Client()
        before = _snapshot(match)
        page = client.get(url)
        assert page.status_code == 200 and "Confirm" in page.content.decode()
        assert _snapshot(match) == before  # opening it changed nothing
        done = client.post(url)
        assert done.status_code == 302 and "sessionid" not in done.cookies
        match.refresh_from_db()
        move = Move.objects.get(match=match, ply=before[0])
        assert move.kind == Move.Kind.PLAYER and move.seat == mail.seat_number
        assert move.action == link_read(_token(url)).action
        assert f"Your move is made: <strong>{label}</strong>" in client.get(url).content.decode().replace("&amp;", "&")
        kinds.add(move.action["type"])
        if match.is_over:
            break
    assert kinds, f"{game}: no move was made from a mail"


def test_links_cover_every_kind_of_simple_move() -> None:
    """The kinds of link the four games offer between them: cards, mini-games, bids, takes, side bets."""
    offered: set[str] = set()
    for game in game_names():
        match = make_match(game, users=_players(game))
        for step in range(60):
            choices = move_choices(match=match, seat=match.engine.to_act(match.state)[0])
            offered |= {c["action"]["type"] for c in choices or []}
            play_engine_moves(match, 1, seed=step)
            if match.is_over:
                break
    assert {"play", "choose", "bid", "take", "side_bet"} <= offered


def test_composed_moves_and_long_lists_link_to_the_table_instead() -> None:
    match = make_match("renfield", users=_players("renfield"))
    seat = match.engine.to_act(match.state)[0]
    assert len(match.engine.legal_actions(match.state, seat)) > MAX_LINKS  # the opening bid: any amount
    assert move_choices(match=match, seat=seat) is None
    mail = _turn_mail(match)
    assert mail is not None and not _links(mail) and "Play here: " in mail.body
    assert match.get_absolute_url() in mail.html and "/mail/move/" not in mail.html


def test_the_html_part_has_the_same_links() -> None:
    _match, mail = _mail_with_links(game_names()[0])
    for url in _links(mail).values():
        assert url in mail.html


def test_a_sealed_bid_link_still_works_after_another_seat_bid() -> None:
    """Rapscallion's simultaneous steps: the table accepts a bid made on the version shown, so does the link."""
    match = make_match("rapscallion", users=_players("rapscallion"))
    assert len(match.engine.to_act(match.state)) == 2
    first, second = _turn_mails(match)
    url = next(iter(_links(second).values()))
    seat0 = match.seats.get(number=first.seat_number)
    move_submit(
        match=match,
        user=seat0.user,
        seat=seat0.number,
        action=match.engine.legal_actions(match.state, seat0.number)[0],
        version=match.version,
    )
    assert Client().post(url).status_code == 302
    assert Move.objects.filter(match=match, seat=second.seat_number, kind="player").exists()


# --- refusals, each changing nothing ---------------------------------------------------


def _refused(url: str, match: Match, *, status: int) -> str:
    before = _snapshot(match)
    client = Client()
    page = client.get(url)
    assert page.status_code in (200, 404)
    response = client.post(url)
    assert response.status_code == status, response.content
    assert _snapshot(match) == before
    return response.content.decode()


def test_a_stale_link_is_refused_and_offers_the_table() -> None:
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    seat = match.seats.select_related("user").get(number=mail.seat_number)
    action = match.engine.legal_actions(match.state, seat.number)[-1]
    move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
    assert "moved on" in Client().get(url).content.decode()
    text = _refused(url, match, status=409)
    assert "moved on" in text and match.get_absolute_url() in text


def test_an_expired_link_is_refused() -> None:
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    later = time.time() + 8 * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=later):
        text = _refused(url, match, status=404)
    assert "expired" in text


def _retoken(token: str, change) -> str:
    """The token with its payload changed and the old signature kept."""
    payload, rest = token.split(":", 1)
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    change(data)
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=") + ":" + rest


def _token(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


@pytest.mark.parametrize("field", ["a", "s", "m", "u", "v"])
def test_an_altered_link_is_refused(field: str) -> None:
    match, mail = _mail_with_links(game_names()[0])
    links = list(_links(mail).values())
    token = _token(links[0])
    other_action = link_read(_token(links[-1])).action if len(links) > 1 else {"type": "play", "card": "AS"}
    changes = {
        "a": lambda d: d.update(a=json.dumps(other_action, sort_keys=True, separators=(",", ":"))),
        "s": lambda d: d.update(s=(d["s"] + 1) % match.players),
        "m": lambda d: d.update(m=d["m"] + 1),
        "u": lambda d: d.update(u=d["u"] + 1),
        "v": lambda d: d.update(v=d["v"] + 1),
    }
    altered = _retoken(token, changes[field])
    assert altered != token
    text = _refused(reverse("games-mail-move", args=[altered]), match, status=404)
    assert "not valid" in text
    # The signature itself, one character changed.
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    _refused(reverse("games-mail-move", args=[flipped]), match, status=404)


def test_a_used_link_cannot_be_used_again() -> None:
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    client = Client()
    client.get(url)
    assert client.post(url).status_code == 302
    after = _snapshot(match)
    replay = client.post(url)  # the same POST again, as a double click or a resent form would
    assert replay.status_code == 409
    assert _snapshot(match) == after
    assert Client().post(url).status_code == 409
    assert _snapshot(match) == after


def test_another_seats_link_cannot_play_for_this_seat() -> None:
    """A link made for another seat (or signed for it by someone who had its key) plays only that seat's move."""
    game = game_names()[0]
    match, mail = _mail_with_links(game)
    to_act = mail.seat_number
    other = next(s for s in match.seats.select_related("user") if s.number != to_act)
    action = match.engine.legal_actions(match.state, to_act)[0]
    # A genuine token for the other seat with this seat's move: not its turn, so refused.
    token = link_token(
        match_id=match.pk, seat=other.number, user_id=other.user_id, version=match.version, action=action
    )
    assert "moved on" in _refused(reverse("games-mail-move", args=[token]), match, status=409)
    # The other seat's player named with this seat's number: the seat is not theirs.
    token = link_token(match_id=match.pk, seat=to_act, user_id=other.user_id, version=match.version, action=action)
    _refused(reverse("games-mail-move", args=[token]), match, status=404)


def test_a_token_signed_for_another_purpose_is_refused() -> None:
    match, mail = _mail_with_links(game_names()[0])
    data = signing.loads(_token(next(iter(_links(mail).values()))), salt=SALT)
    forged = signing.dumps(data, salt="games.something-else")
    _refused(reverse("games-mail-move", args=[forged]), match, status=404)


# --- opening a link changes nothing, and logs nobody in --------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_a_get_on_any_link_changes_nothing_and_creates_no_session(game: str) -> None:
    match, mail = _mail_with_links(game)
    before = _snapshot(match)
    for url in _links(mail).values():
        client = Client()
        response = client.get(url)
        assert response.status_code == 200
        assert "sessionid" not in response.cookies
        assert not response.wsgi_request.user.is_authenticated
        assert response["Referrer-Policy"] == "same-origin" and "noindex" in response["X-Robots-Tag"]
        assert client.get(match.get_absolute_url()).status_code == 302  # still not logged in
    assert _snapshot(match) == before


def test_the_confirmation_needs_the_pages_csrf_token() -> None:
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    client = Client(enforce_csrf_checks=True)
    before = _snapshot(match)
    assert client.post(url).status_code == 403
    assert _snapshot(match) == before
    page = client.get(url).content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert csrf is not None
    response = client.post(url, {"csrfmiddlewaretoken": csrf.group(1)})
    assert response.status_code == 302 and "sessionid" not in response.cookies
    assert _snapshot(match)[0] > before[0]


# What a browser sends as ``Origin`` with a same-origin form POST, by the referrer policy of the page the form is
# on (the Fetch standard, "append a request Origin header", for a request that is not CORS): "no-referrer" makes
# it "null"; the other policies send the page's origin to its own site. The test client sends no Origin at all,
# which is how a confirm page under "no-referrer" passed every test and failed in every browser.
NULL_ORIGIN_POLICIES = {"no-referrer"}


def _browser_origin(policy: str, origin: str) -> str:
    return "null" if policy.strip().lower() in NULL_ORIGIN_POLICIES else origin


def test_the_confirmation_is_accepted_with_the_origin_a_browser_sends() -> None:
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    assert csrf is not None
    origin = _browser_origin(page["Referrer-Policy"], "http://testserver")
    assert origin != "null", f"under Referrer-Policy {page['Referrer-Policy']} a browser posts Origin: null"
    before = _snapshot(match)
    response = client.post(url, {"csrfmiddlewaretoken": csrf.group(1)}, HTTP_ORIGIN=origin)
    assert response.status_code == 302, response.content.decode()[:500]
    assert _snapshot(match)[0] > before[0]


def test_a_confirmation_from_a_null_or_foreign_origin_is_refused() -> None:
    """The check that broke the links in browsers is kept: Django refuses a POST whose Origin is not the site's."""
    match, mail = _mail_with_links(game_names()[0])
    url = next(iter(_links(mail).values()))
    for origin in ("null", "https://evil.example"):
        client = Client(enforce_csrf_checks=True)
        page = client.get(url).content.decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert csrf is not None
        before = _snapshot(match)
        assert client.post(url, {"csrfmiddlewaretoken": csrf.group(1)}, HTTP_ORIGIN=origin).status_code == 403
        assert _snapshot(match) == before


# --- the short view leaks nothing --------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_no_turn_mail_shows_a_card_its_reader_may_not_see(game: str) -> None:
    """The leak scan (tests/games/leaks.py) over every turn mail: codes and card names outside the seat's view."""
    presenter = presenter_for(game)
    for seed in (1, 2):
        match = make_match(game, users=_players(game))
        seen_hand = False
        for step in range(30):
            for mail in _turn_mails(match):
                seat = mail.seat_number
                view = match.engine.view(match.state, seat)
                universe = card_codes(game, match.state)
                allowed = card_codes(game, view) | card_codes(game, match.engine.legal_actions(match.state, seat))
                text = mail.subject + mail.body + mail.html
                leaked = codes_found(universe - allowed, text)
                assert not leaked, f"{game}: seat {seat}'s mail shows {sorted(leaked)}"
                allowed_names = {presenter.card_text(c) for c in allowed}
                names = {presenter.card_text(c) for c in universe - allowed} - allowed_names
                # The log is public: the table shows every line of it, and its why lines, to everyone.
                log = "\n".join(_public_log(match))
                shown = {n for n in names if n and _named(n, mail.body) and not _named(n, log)}
                assert not shown, f"{game}: seat {seat}'s mail names {sorted(shown)}"
                hand = set(view.get("hand") or [])
                assert codes_found(hand, mail.html) == hand, "the scan must find the reader's own cards"
                seen_hand = seen_hand or bool(hand)
            play_engine_moves(match, 1, seed=seed * 100 + step)
            if match.is_over:
                break
        assert seen_hand


def _public_log(match: Match) -> list[str]:
    """The snapshot's log lines as the table shows them to every reader: each move's text and its why lines."""
    presenter, names = presenter_for(match.game), [s.name for s in match.seats.order_by("number")]
    lines = []
    for move in match.recent_moves:
        lines += [move["text"], *(why["text"] for why in presenter.log_reasons(move.get("reasons"), names))]
    return lines


def test_the_confirmation_page_shows_the_seats_view_only_while_the_move_can_be_made() -> None:
    game = game_names()[0]
    match, mail = _mail_with_links(game)
    url = next(iter(_links(mail).values()))
    hand = set(match.engine.view(match.state, mail.seat_number)["hand"])
    page = Client().get(url).content.decode()
    universe = card_codes(game, match.state)
    allowed = card_codes(game, match.engine.view(match.state, mail.seat_number))
    assert codes_found(hand, page) == hand and not codes_found(universe - allowed, page)
    Client().post(url)
    assert not codes_found(hand, Client().get(url).content.decode())  # the turn is over: the page shows no hand


def test_link_moves_count_towards_the_players_move_limit(settings) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.PARLOUR_RATE_LIMITS = {"move": [(1, 60)]}
    match, mail = _mail_with_links(game_names()[0])
    links = list(_links(mail).values())
    with mock.patch("games.ratelimit.time.time", return_value=1_000_000.0):  # one window, whatever the clock
        assert Client().post(links[0]).status_code == 302
        after = _snapshot(match)
        refused = Client().post(links[-1])
    assert refused.status_code == 429 and _snapshot(match) == after


def test_a_profile_form_without_the_choice_keeps_it() -> None:
    from tests.games.conftest import login

    user = UserFactory(notify_by=User.NotifyBy.PUSH)
    data = {"display_name": "Ann", "time_zone": "UTC", "notify": User.Notify.EACH_TURN}
    assert login(user).post(reverse("accounts-profile"), data).status_code == 302
    user.refresh_from_db()
    assert user.notify_by == User.NotifyBy.PUSH and user.display_name == "Ann"
