"""Why it happened, in the replay and in the turn mails: the replay's step shows the why lines of the move at
that ply (and the hand summary where a hand ended); a turn mail's "Since your last move" says why a trick, a
hand or a showdown went as it did, in its text part and its HTML part, worded as the table words it, and shows
no card its reader may not see."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.models import Mail, Match
from games.outbox import MAX_SINCE
from games.presenters import presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options
from tests.games.leaks import card_codes, codes_found
from tests.games.table_pages import seat_names

pytestmark = pytest.mark.django_db


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def finished(game: str, seed: int = 3) -> Match:
    match = make_match(game, humans=get_players(game), options=quick_options(game))
    play_engine_moves(match, 0, seed=seed, until_over=True)
    assert match.is_over
    return match


def get_players(game: str) -> int:
    return Match(game=game).engine.MIN_PLAYERS


# --- the replay ------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_the_replay_shows_why_each_kind_of_reason_went_as_it_did_at_its_step(game: str) -> None:
    match = finished(game)
    names, presenter = seat_names(match), presenter_for(game)
    client = login(match.seats.get(number=0).user)
    first_of_kind: dict[str, Any] = {}
    for move in match.moves.order_by("ply"):
        for reason in move.reasons:
            first_of_kind.setdefault(reason["kind"], (move, reason))
    assert "hand" in first_of_kind, f"{game}: precondition: a hand ended"
    for kind, (move, reason) in first_of_kind.items():
        page = client.get(reverse("games-replay", args=[match.pk]), {"ply": move.ply + 1}).content.decode()
        text = text_of(page)
        assert "Why: " + presenter.reason_text(reason, names) in text, f"{game}: the {kind} reason at its step"
        if kind == "hand":
            assert '<hr class="hand-end">' in page and presenter.hand_summary(reason, names) in text
    quiet = next(m for m in match.moves.order_by("ply") if not m.reasons)
    page = client.get(reverse("games-replay", args=[match.pk]), {"ply": quiet.ply + 1}).content.decode()
    assert "Why: " not in page, "a step that settled nothing has no why line"
    assert "Why: " not in client.get(reverse("games-replay", args=[match.pk]), {"ply": 0}).content.decode()


# --- the turn mails ----------------------------------------------------------------------


def since_lines(match: Match, seat: int) -> list[dict[str, Any]]:
    """The snapshot's log lines after the seat's own last move, as the turn mail lists them."""
    moves = list(match.recent_moves)
    mine = [i for i, m in enumerate(moves) if m.get("seat") == seat and m.get("kind") != "forced"]
    return (moves[mine[-1] + 1 :] if mine else moves)[-MAX_SINCE:]


def sent_turn_mail(match: Match, seat: int) -> Mail:
    """The seat's newest turn mail, sent now (its text is written as it goes). In a simultaneous step (sealed
    bids) the mail was queued when the step began, a version or two back."""
    mails = Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:", seat_number=seat)
    mail = mails.order_by("-turn_version").first()
    assert mail is not None
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now())
    tasks.mail_send.apply(args=[mail.pk])
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT, mail.last_error
    return mail


def mail_after(game: str, kind: str, *, limit: int = 400) -> tuple[Match, int, list[dict[str, Any]]]:
    """A match of humans played at random until the seat to act has, since its last move, a line whose
    reasons include one of ``kind``: the match, the seat and those reasons."""
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(get_players(game))])
    for step in range(limit):
        seat = match.engine.to_act(match.state)[0]
        reasons = [r for line in since_lines(match, seat) for r in line.get("reasons", [])]
        if any(r["kind"] == kind for r in reasons):
            return match, seat, reasons
        play_engine_moves(match, 1, seed=step)
        assert not match.is_over, f"{game}: the match ended before a {kind} was settled"
    raise AssertionError(f"{game}: no {kind} within {limit} moves")


# Each game's reasons of a trick or a round, and of a showdown (engine.<game>.reasons; docs/engine.md).
KINDS = [("karnoffel", "trick"), ("rentz", "trick"), ("renfield", "trick"), ("rapscallion", "bids")]
KINDS += [("rapscallion", "showdown"), ("rapscallion", "side_bet")]


@pytest.mark.parametrize(("game", "kind"), [*KINDS, *[(g, "hand") for g in game_names()]])
def test_a_turn_mail_says_why_in_its_text_and_html_and_shows_no_hidden_card(game: str, kind: str) -> None:
    match, seat, reasons = mail_after(game, kind)
    mail = sent_turn_mail(match, seat)
    names, presenter = seat_names(match), presenter_for(game)
    body, page = mail.body, text_of(mail.html)
    for reason in reasons:
        sentence = "Why: " + presenter.reason_text(reason, names)
        assert sentence in body, f"{game}: the text part says why ({reason['kind']})"
        assert sentence in page, f"{game}: the HTML part says why ({reason['kind']})"
    # After a hand the trick's cards are in new hands: the why lines name them in words, never by code.
    universe = card_codes(game, match.state)
    allowed = card_codes(game, match.engine.view(match.state, seat))
    allowed |= card_codes(game, match.engine.legal_actions(match.state, seat))
    assert not codes_found(universe - allowed, mail.subject + mail.body + mail.html)


def test_a_turn_mail_without_anything_settled_has_no_why_line() -> None:
    match = make_match("karnoffel", users=[UserFactory(auto_forced_moves=False) for _ in range(4)])
    play_engine_moves(match, 1, seed=1)
    seat = match.engine.to_act(match.state)[0]
    assert not any(line.get("reasons") for line in since_lines(match, seat)), "precondition: no trick yet"
    mail = sent_turn_mail(match, seat)
    assert "Since your last move" in mail.body and "Why:" not in mail.body + mail.html
