"""Every kind of page, read by every kind of reader, shows no card its reader may not see, nor the seed.

For a seeded match of each game, after a few moves: the table, the poll fragment on a stale version,
the full log, the replay and the export (closed while the match is on), the dashboard, as each seat,
a spectator and a staff member; and the admin's pages of the match and its moves as staff. The reader
may see the strings of the engine's ``view(state, seat)`` (and its own legal moves); any other card
code of the state found in a page is a leak. The scan is tests/games/leaks.py's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import unescape

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from games.models import Match, Seat
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.games.leaks import card_codes, codes_found

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@dataclass
class Reader:
    name: str
    client: Client
    seat: int | None  # None: a spectator's view


def _table_pages(client: Client, match: Match) -> dict[str, str]:
    """Each page a reader of an active match can open, checked for its status on the way."""
    answers = {
        "table": (client.get(match.get_absolute_url()), 200),
        "poll (stale)": (client.get(reverse("games-poll", args=[match.pk]), {"v": -1, "c": -1}, **HTMX), 200),
        "log": (client.get(reverse("games-log", args=[match.pk])), 200),
        "replay": (client.get(reverse("games-replay", args=[match.pk])), 404),
        "export": (client.get(reverse("games-export", args=[match.pk])), 409),
        "dashboard": (client.get(reverse("games-dashboard")), 200),
    }
    for page, (response, status) in answers.items():
        assert response.status_code == status, f"{page}: {response.status_code}"
    return {page: response.content.decode() for page, (response, _status) in answers.items()}


def _admin_pages(staff: Client, match: Match) -> dict[str, str]:
    """The admin's views of a match: its change page (seats inline), its moves' pages, the lists."""
    urls = {
        "admin match": reverse("admin:games_match_change", args=[match.pk]),
        "admin matches": reverse("admin:games_match_changelist"),
        "admin moves": reverse("admin:games_move_changelist") + f"?match__id__exact={match.pk}",
    }
    for move in match.moves.order_by("ply"):
        urls[f"admin move {move.ply} ({move.action.get('type')})"] = reverse("admin:games_move_change", args=[move.pk])
    # Seats show inline on the match's page; should they get pages of their own, those are read too.
    if Seat in admin.site._registry:
        for seat in match.seats.all():
            urls[f"admin seat {seat.number}"] = reverse("admin:games_seat_change", args=[seat.pk])
    pages = {}
    for page, url in urls.items():
        response = staff.get(url)
        assert response.status_code == 200, f"{page}: {response.status_code}"
        pages[page] = response.content.decode()
    return pages


def _allowed(match: Match, seat: int | None) -> set[str]:
    game = match.engine
    # The options are public (chosen in the lobby, shown at the table): Renfield's wild cards are codes.
    allowed = card_codes(match.game, game.view(match.state, seat)) | card_codes(match.game, match.options)
    if seat is not None:
        allowed |= card_codes(match.game, game.legal_actions(match.state, seat))
    return allowed


def _seed_in(match: Match, html: str) -> bool:
    return re.search(rf"(?<!\d){match.seed}(?!\d)", html) is not None


def _leaks(match: Match, seat: int | None, pages: dict[str, str]) -> list[str]:
    hidden = card_codes(match.game, match.state) - _allowed(match, seat)
    found = []
    for page, html in pages.items():
        if leaked := codes_found(hidden, html):
            found.append(f"{page} shows {sorted(leaked)}")
        if _seed_in(match, html):
            found.append(f"{page} shows the seed")
    return found


def _readers(match: Match) -> list[Reader]:
    seats = [Reader(f"seat {s.number}", login(s.user), s.number) for s in match.seats.exclude(user=None)]
    return [*seats, Reader("spectator", login(UserFactory()), None)]


@pytest.mark.parametrize("game", game_names())
def test_no_page_of_an_active_match_shows_a_hidden_card_or_the_seed(game: str) -> None:
    module = Match(game=game).engine
    players = max(module.MIN_PLAYERS, min(module.MAX_PLAYERS, 3))
    match = make_match(game, players=players, humans=2, level="basic")
    readers = _readers(match)
    staff = Reader("staff", login(UserFactory(is_staff=True, is_superuser=True)), None)
    for checkpoint, moves in enumerate((3, 9)):
        play_engine_moves(match, moves, seed=checkpoint)
        assert match.status == Match.Status.ACTIVE, "precondition: the match is still on"
        problems = []
        for reader in [*readers, staff]:
            problems += [f"{reader.name}: {p}" for p in _leaks(match, reader.seat, _table_pages(reader.client, match))]
        own = readers[0]
        hand = match.engine.view(match.state, own.seat).get("hand") or []
        table = _table_pages(own.client, match)["table"]
        assert codes_found(set(hand), table) == set(hand), "control: the scan finds the reader's own cards"
        assert not problems, f"{game} after {moves} moves:\n" + "\n".join(problems)


@pytest.mark.parametrize("game", game_names())
def test_the_admin_shows_no_hidden_card_or_seed_of_an_active_match(game: str) -> None:
    """Staff read the admin as a spectator reads the table: no hand, no sealed move, no seed, no state."""
    module = Match(game=game).engine
    players = max(module.MIN_PLAYERS, min(module.MAX_PLAYERS, 3))
    match = make_match(game, players=players, humans=1, level="basic")
    play_engine_moves(match, 12, seed=7)
    assert match.status == Match.Status.ACTIVE, "precondition: the match is still on"
    staff = login(UserFactory(is_staff=True, is_superuser=True))
    pages = _admin_pages(staff, match)
    problems = _leaks(match, None, pages)
    # A move's action (a sealed bid's amount is no card code) stays out of its page until the end.
    for move in match.moves.order_by("ply"):
        page = unescape(pages[f"admin move {move.ply} ({move.action.get('type')})"])
        if json.dumps(move.action) in page or re.search(r"field-action\b(?!_)", page):
            problems.append(f"admin move {move.ply} shows its action {move.action}")
    assert not problems, f"{game}:\n" + "\n".join(problems)


def test_the_scan_of_the_admin_would_see_a_seed_and_a_hidden_card() -> None:
    """Controls: a hand or the seed in a page is found; a finished match's admin shows its seed and actions."""
    match = make_match("karnoffel", humans=1)
    play_engine_moves(match, 2)
    hidden = card_codes(match.game, match.state) - _allowed(match, None)
    assert hidden, "precondition: a spectator may not see every card"
    card = sorted(hidden)[0]
    assert _leaks(match, None, {"page": f'<td data-card="{card}">'}) == [f"page shows ['{card}']"]
    assert _leaks(match, None, {"page": f"<td>{match.seed}</td>"}) == ["page shows the seed"]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    staff = login(UserFactory(is_staff=True, is_superuser=True))
    html = staff.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert _seed_in(match, html), "the admin shows the seed once the match is over, so the scan can find it"
    move = match.moves.order_by("ply").first()
    assert move is not None
    html = staff.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    assert json.dumps(move.action) in unescape(html), "and a move's action, in the form the scan looks for"
