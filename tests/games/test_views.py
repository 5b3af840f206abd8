"""The table, moves, chat, polling: every view that changes something refuses clearly and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from engine.replay import verify
from games.models import ChatMessage, Match, Seat
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, play_until_turn, quick_options

pytestmark = pytest.mark.django_db
GAMES = game_names()
HTMX = {"HTTP_HX_REQUEST": "true"}


def _to_act(match: Match) -> tuple[Seat, dict]:
    match.refresh_from_db()
    seat = match.seats.select_related("user").get(number=match.engine.to_act(match.state)[0])
    return seat, match.engine.legal_actions(match.state, seat.number)[0]


def _idle_seat(match: Match) -> Seat | None:
    return match.seats.select_related("user").exclude(number__in=match.engine.to_act(match.state)).first()


def _snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return match.version, match.state, match.moves.count(), ChatMessage.objects.filter(match=match).count()


def _post_move(client, match: Match, action, version) -> object:
    data = {"action": action if isinstance(action, str) else json.dumps(action), "version": version}
    return client.post(reverse("games-play", args=[match.pk]), data, follow=True)


@pytest.mark.parametrize("game", GAMES)
def test_it_renders_the_table_for_a_player_and_a_spectator(game: str) -> None:
    match = make_match(game)
    play_engine_moves(match, 3)
    seat, action = _to_act(match)
    page = login(seat.user).get(match.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert match.seed_hash in html and str(match.seed) not in html
    assert 'name="action"' in html and f'value="{match.version}"' in html
    for code in match.engine.view(match.state, seat.number)["hand"]:
        assert f'data-card="{code}"' in html
    watcher = login(UserFactory()).get(match.get_absolute_url())
    assert watcher.status_code == 200 and "you are watching" in watcher.content.decode()
    assert 'name="action"' not in watcher.content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_a_plain_form_move_redirects_back_and_htmx_gets_the_live_part(game: str) -> None:
    match = make_match(game)
    seat, action = _to_act(match)
    client = login(seat.user)
    response = client.post(
        reverse("games-play", args=[match.pk]), {"action": json.dumps(action), "version": match.version}
    )
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    assert match.moves.filter(seat=seat.number, ply=0, kind="player").exists()
    seat, action = _to_act(match)
    response = login(seat.user).post(
        reverse("games-play", args=[match.pk]), {"action": json.dumps(action), "version": match.version}, **HTMX
    )
    assert response.status_code == 200 and b'id="live"' in response.content and b"<html" not in response.content


def test_anonymous_users_are_sent_to_log_in_and_nothing_changes() -> None:
    match = make_match(GAMES[0])
    seat, action = _to_act(match)
    before = _snapshot(match)
    from django.test import Client

    for name, data in (("games-play", {"action": json.dumps(action), "version": 0}), ("games-chat", {"text": "hi"})):
        response = Client().post(reverse(name, args=[match.pk]), data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().get(match.get_absolute_url()).status_code == 302
    assert _snapshot(match) == before


def test_someone_not_seated_may_not_move_or_chat() -> None:
    match = make_match(GAMES[0])
    _seat, action = _to_act(match)
    before = _snapshot(match)
    stranger = login(UserFactory())
    assert (
        stranger.post(reverse("games-play", args=[match.pk]), {"action": json.dumps(action), "version": 0}).status_code
        == 403
    )
    assert stranger.post(reverse("games-chat", args=[match.pk]), {"text": "psst"}).status_code == 403
    assert _snapshot(match) == before


@pytest.mark.parametrize("game", GAMES)
def test_wrong_moves_get_a_clear_message_and_change_nothing(game: str) -> None:
    match = make_match(game)
    seat, action = _to_act(match)
    idle = _idle_seat(match)
    before = _snapshot(match)
    client = login(seat.user)
    cases = [
        (client, action, match.version + 1, "The table has changed"),
        (client, "{not json", match.version, "could not be read"),
        (client, '["play"]', match.version, "could not be read"),
        (client, {"type": "play", "card": "not-a-card"}, match.version, ""),
        (client, action, "", "This field is required"),
    ]
    if idle is not None:
        cases.append((login(idle.user), action, match.version, "not your turn"))
    for who, act, version, message in cases:
        page = _post_move(who, match, act, version)
        assert page.status_code == 200
        errors = [str(m) for m in page.context["messages"]]
        assert errors and message in errors[0]
        assert _snapshot(match) == before


def test_a_stale_page_cannot_play_even_when_it_is_your_turn_now() -> None:
    """Seat B loaded the page while A was to act; A moved; B's old form is refused."""
    match = make_match(GAMES[0])
    first, action = _to_act(match)
    seen = match.version
    _post_move(login(first.user), match, action, seen)
    second, second_action = _to_act(match)
    if second.number == first.number:
        pytest.skip("The same seat acts again.")
    before = _snapshot(match)
    page = _post_move(login(second.user), match, second_action, seen)
    assert "The table has changed" in str(list(page.context["messages"])[0])
    assert _snapshot(match) == before


def test_private_matches_are_for_their_seats_only() -> None:
    match = make_match(GAMES[0], private=True)
    seat, _ = _to_act(match)
    stranger = login(UserFactory())
    for name in ("games-match", "games-poll", "games-log", "games-export", "games-replay"):
        assert stranger.get(reverse(name, args=[match.pk])).status_code == 404
    assert login(seat.user).get(match.get_absolute_url()).status_code == 200


def test_polling_answers_204_until_something_changes_and_stops_at_the_end() -> None:
    match = make_match(GAMES[0])
    seat, action = _to_act(match)
    client = login(seat.user)
    url = reverse("games-poll", args=[match.pk])
    assert client.get(url, {"v": match.version, "c": 0}, **HTMX).status_code == 204
    _post_move(client, match, action, match.version)
    match.refresh_from_db()
    changed = client.get(url, {"v": 0, "c": 0}, **HTMX)
    assert changed.status_code == 200 and f"v={match.version}".encode() in changed.content
    login(seat.user).post(reverse("games-chat", args=[match.pk]), {"text": "hello"})
    assert b"hello" in client.get(url, {"v": match.version, "c": 0}, **HTMX).content
    play_engine_moves(match, 0, until_over=True)
    assert client.get(url, {"v": 0, "c": 0}, **HTMX).status_code == 286
    assert client.get(url, {"v": match.version, "c": 0}, **HTMX).status_code == 286


def test_chat_is_open_to_the_table_and_refuses_empty_messages() -> None:
    match = make_match(GAMES[0])
    seats = list(match.seats.select_related("user"))
    client = login(seats[0].user)
    client.post(reverse("games-chat", args=[match.pk]), {"text": "Partner, lead trumps!"})
    page = client.post(reverse("games-chat", args=[match.pk]), {"text": "  "}, follow=True)
    assert "Write" in str(list(page.context["messages"])[0])
    assert ChatMessage.objects.filter(match=match).count() == 1
    for reader in (seats[1].user, UserFactory()):
        assert "Partner, lead trumps!" in login(reader).get(match.get_absolute_url()).content.decode()


def test_a_spectator_reads_the_chat_is_told_why_they_cannot_write_and_cannot_post() -> None:
    match = make_match(GAMES[0])
    seated = login(match.seats.select_related("user")[0].user).get(match.get_absolute_url()).content.decode()
    assert 'class="chat-form"' in seated and "only the players at the table write" not in seated
    spectator = login(UserFactory())
    page = spectator.get(match.get_absolute_url()).content.decode()
    assert 'class="chat-form"' not in page and "only the players at the table write in it" in page
    assert spectator.post(reverse("games-chat", args=[match.pk]), {"text": "hello"}).status_code == 403
    assert not ChatMessage.objects.filter(match=match).exists()


def test_the_dashboard_lists_awaiting_matches_first_and_next_jumps_to_them() -> None:
    user = UserFactory(auto_forced_moves=False)
    mine = [make_match(GAMES[0], users=[user], bots=Match(game=GAMES[0]).engine.MIN_PLAYERS - 1) for _ in range(3)]
    for match in (mine[2], mine[0]):  # awaited in the other order than created
        play_until_turn(match, 0)
    awaiting = [m for m in mine if m.seats.get(number=0).awaiting]
    assert [m.pk for m in awaiting] == [mine[0].pk, mine[2].pk], "the test needs two of the three matches awaiting"
    client = login(user)
    page = client.get(reverse("games-dashboard"))
    assert [m.pk for m in page.context["awaiting"]] == [m.pk for m in sorted(awaiting, key=lambda m: m.updated_at)]
    target = client.get(reverse("games-next"))
    assert target["Location"] == page.context["awaiting"][0].get_absolute_url()
    # Nothing awaiting: "next" goes back to the dashboard.
    assert login(UserFactory()).get(reverse("games-next"))["Location"] == reverse("games-dashboard")


def test_next_match_goes_round_the_awaiting_matches() -> None:
    user = UserFactory(auto_forced_moves=False)
    game = GAMES[0]
    players = Match(game=game).engine.MIN_PLAYERS
    matches = [make_match(game, users=[user], bots=players - 1) for _ in range(2)]
    for match in matches:
        play_until_turn(match, 0)  # the bots play (engine-side, bounded) until it is the user's turn
        assert match.seats.get(number=0).awaiting
    client = login(user)
    first = client.get(reverse("games-next"))["Location"]
    second = client.get(reverse("games-next") + f"?after={first.strip('/').split('/')[-1]}")["Location"]
    assert first != second and {first, second} == {m.get_absolute_url() for m in matches}


def test_anonymous_visitors_see_the_landing_page() -> None:
    from django.test import Client

    page = Client().get(reverse("games-dashboard"))
    assert page.status_code == 200 and b"Log in" in page.content and b"Sign up" in page.content


def test_replay_and_export_open_only_at_the_end_and_the_export_verifies(tmp_path) -> None:
    game = GAMES[0]
    match = make_match(game, options=quick_options(game))
    user = match.seats.first().user
    client = login(user)
    assert client.get(reverse("games-replay", args=[match.pk])).status_code == 404
    refused = client.get(reverse("games-export", args=[match.pk]))
    assert refused.status_code == 409 and str(match.seed) not in refused.content.decode()
    play_engine_moves(match, 0, until_over=True)
    exported = client.get(reverse("games-export", args=[match.pk]))
    log = json.loads(exported.content)
    assert log["seed"] == match.seed and verify(log)[0] is True
    from engine.__main__ import main as engine_cli

    (tmp_path / "match.json").write_bytes(exported.content)
    assert engine_cli(["verify", str(tmp_path / "match.json")]) == 0
    tampered = {**log, "actions": log["actions"][:-1]}
    assert verify(tampered)[0] is False
    table = client.get(match.get_absolute_url()).content.decode()
    assert str(match.seed) in table and "hx-trigger" not in table
    for ply in (0, 1, match.version):
        page = client.get(reverse("games-replay", args=[match.pk]), {"ply": ply})
        assert page.status_code == 200 and page.context["ply"] == ply
    # Every hand is shown at the deal.
    start = client.get(reverse("games-replay", args=[match.pk]), {"ply": 0}).content.decode()
    state = match.engine.new_match(match.players, match.options, seed=match.seed)
    for seat in range(match.players):
        for code in match.engine.view(state, seat)["hand"]:
            assert f'data-card="{code}"' in start


# --- what the table tells each reader ----------------------------------


def _mark_forced(match: Match, ply: int) -> int:
    """Record the move at ``ply`` as played for its player because it was their only legal move."""
    from games.models import Move

    Move.objects.filter(match=match, ply=ply).update(kind=Move.Kind.FORCED)
    match.refresh_from_db()
    match.recent_moves = [{**m, "kind": "forced"} if m["ply"] == ply else m for m in match.recent_moves]
    match.save(update_fields=["recent_moves"])
    return match.moves.get(ply=ply).seat


def _table_pages(client, match: Match) -> dict[str, str]:
    return {
        "table": client.get(match.get_absolute_url()).content.decode(),
        "poll": client.get(reverse("games-poll", args=[match.pk]), {"v": -1}, **HTMX).content.decode(),
        "log": client.get(reverse("games-log", args=[match.pk])).content.decode(),
    }


@pytest.mark.parametrize("game", GAMES)
def test_only_the_mover_learns_that_a_move_was_forced_until_the_end(game: str) -> None:
    # Nobody has moves played for them here, so the one forced move is the one marked below.
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    play_engine_moves(match, 3, seed=2)
    mover = _mark_forced(match, 1)
    seats = {s.number: s for s in match.seats.select_related("user")}
    other = next(n for n in seats if n != mover)
    for name, page in _table_pages(login(seats[mover].user), match).items():
        assert "(forced)" in page, f"the mover's own {name} says the move was forced"
    assert 'class="kind-forced"' in _table_pages(login(seats[mover].user), match)["table"]
    for reader in (seats[other].user, UserFactory()):
        for name, page in _table_pages(login(reader), match).items():
            assert "forced" not in page.lower(), f"the {name} page tells another reader a move was forced"
    play_engine_moves(match, 0, until_over=True)
    # The whole log, forced moves included, is open once the match is over.
    assert "(forced)" in _table_pages(login(UserFactory()), match)["log"]


def test_an_open_invitation_shows_its_address_to_the_creator_only_and_never_an_account_name() -> None:
    from games.services import SeatSpec, match_create

    creator, known = UserFactory(), UserFactory(display_name="Quentin Known")
    outsider = "outsider@example.org"
    match = match_create(
        game="karnoffel",
        players=4,
        options={},
        created_by=creator,
        seats=[SeatSpec(user=creator), SeatSpec(email=known.email), SeatSpec(email=outsider), SeatSpec(bot="random")],
    )
    assert match.status == Match.Status.WAITING
    mine = _table_pages(login(creator), match)["table"]
    assert f"Invited: {known.email}" in mine and f"Invited: {outsider}" in mine
    assert "Quentin Known" not in mine
    for name, page in _table_pages(login(UserFactory()), match).items():  # any member may watch
        assert known.email not in page and outsider not in page, f"an address on the {name} page"
        assert "Quentin Known" not in page, f"the {name} page tells that the address has an account"
    watched = _table_pages(login(UserFactory()), match)["table"]
    assert "Seat 2 (invited)" in watched and "Seat 3 (invited)" in watched
    assert outsider not in _table_pages(login(known), match)["table"], "nor to another invitee"
    dashboard = login(UserFactory()).get(reverse("games-dashboard")).content.decode()
    assert outsider not in dashboard and "Quentin Known" not in dashboard


def test_each_seat_shows_whether_it_is_a_bot_apart_from_its_name() -> None:
    import re

    pretender = UserFactory()
    # Saved past the profile form's checks on purpose: the table must not rely on them.
    type(pretender).objects.filter(pk=pretender.pk).update(display_name="Bot 2 (basic)")
    pretender.refresh_from_db()
    match = make_match(GAMES[0], users=[pretender], bots=Match(game=GAMES[0]).engine.MIN_PLAYERS - 1, level="basic")
    page = login(UserFactory()).get(match.get_absolute_url()).content.decode()
    seats = re.findall(r'<li class="seat[^"]*">(.*?)</li>', page, re.S)
    assert len(seats) == match.players
    badges = ['<span class="seat-kind"' in s for s in seats]
    assert badges == [s.is_bot for s in match.seats.order_by("number")] == [False] + [True] * (match.players - 1)
    assert "Bot 2 (basic)" in seats[0]
