"""No page, fragment, mail or export shows a card its reader may not see.

Cards are rendered with their codes (``data-card``, button values), so scanning
the HTML for every card code outside the reader's view is a real check: the
reader's own hand must be found by the same scan.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.models import Mail, Match
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.games.leaks import card_codes, codes_found

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _pages(client, match: Match) -> list[str]:
    table = client.get(match.get_absolute_url())
    poll = client.get(reverse("games-poll", args=[match.pk]), {"v": -1}, **HTMX)
    log = client.get(reverse("games-log", args=[match.pk]))
    export = client.get(reverse("games-export", args=[match.pk]))
    assert table.status_code == 200 and poll.status_code == 200 and export.status_code == 409
    return [table.content.decode(), poll.content.decode(), log.content.decode(), export.content.decode()]


def _check_reader(match: Match, client, seat: int | None) -> bool:
    """Check the reader's pages; True when the reader held cards, so the scan was shown to find them."""
    game = match.engine
    universe = card_codes(match.game, match.state)
    view = game.view(match.state, seat)
    allowed = card_codes(match.game, view)
    if seat is not None:
        allowed |= card_codes(match.game, game.legal_actions(match.state, seat))
    for html in _pages(client, match):
        leaked = codes_found(universe - allowed, html)
        assert not leaked, f"{match.game}: seat {seat} may not see {sorted(leaked)}"
    if seat is None or not view.get("hand"):
        return False
    table = _pages(client, match)[0]
    assert codes_found(set(view["hand"]), table) == set(view["hand"]), "the scan must find the reader's own cards"
    return True


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("seed", [1, 2])
def test_no_page_shows_a_card_its_reader_may_not_see(game: str, seed: int) -> None:
    module = Match(game=game).engine
    players = module.MIN_PLAYERS if seed == 1 else min(module.MAX_PLAYERS, module.MIN_PLAYERS + 1)
    match = make_match(game, players=players)
    seats = list(match.seats.select_related("user"))
    clients = [(login(s.user), s.number) for s in seats] + [(login(UserFactory()), None)]
    hands_found = 0
    for checkpoint in range(4):
        play_engine_moves(match, 7 * checkpoint + seed, seed=seed * 100 + checkpoint)
        if match.is_over:
            break
        for client, number in clients:
            hands_found += _check_reader(match, client, number)
    # Without this, a scan that finds no card at all would pass every leak check above.
    assert hands_found, "no reader held cards at a checkpoint: the scan was never shown to find a card"


def test_no_mail_shows_a_card_its_reader_may_not_see() -> None:
    """A turn mail shows its reader's own view in short (every game's: tests/games/test_mail_moves.py); no other
    mail shows a card."""
    game = game_names()[0]
    match = make_match(game)
    play_engine_moves(match, 5)
    universe = card_codes(game, match.state)
    current = Mail.objects.filter(dedupe_key__startswith="turn:", turn_version=match.version)
    assert current.exists()
    # A turn mail's text is written when it goes (games.tasks.mail_send): send these now, then scan them.
    current.update(send_after=timezone.now())
    for mail in current:
        assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    current = current.all()
    for mail in current:
        assert mail.body
        seat = mail.seat_number
        allowed = card_codes(game, match.engine.view(match.state, seat))
        allowed |= card_codes(game, match.engine.legal_actions(match.state, seat))
        assert not codes_found(universe - allowed, mail.subject + mail.body + mail.html)
    for mail in Mail.objects.exclude(dedupe_key__startswith="turn:"):
        assert not codes_found(universe, mail.subject + mail.body + mail.html)


def test_the_scan_catches_a_leak() -> None:
    """A control for the scan itself: another seat's hand in the page is found."""
    game = game_names()[0]
    match = make_match(game)
    other = match.engine.view(match.state, 1)["hand"]
    html = "".join(f'<span data-card="{c}">x</span>' for c in other)
    assert codes_found(set(other), html) == set(other)
    assert not codes_found({"KS"}, '<b data-card="KS2">') and not codes_found({"B1"}, "B13 R-B1")
