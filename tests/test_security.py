"""What the security review found, each checked: the admin keeps hidden state hidden, bursts
are limited per player, crafted input gets a clear answer instead of a 500, and pages run under a strict
Content-Security-Policy."""

from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from config import settings as base_settings
from engine import get_game
from games.forms import MatchCreateForm
from games.models import ChatMessage, Mail, Match
from games.ratelimit import rate_hit
from games.services import SeatSpec, match_create
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent
HTMX = {"HTTP_HX_REQUEST": "true"}
HIDDEN = "Shown when the match is over."


@pytest.fixture
def staff() -> Client:
    return login(UserFactory(is_staff=True, is_superuser=True))


@pytest.fixture
def limits(settings: Any) -> Any:
    """Burst limits on, with a fresh count (the test settings turn them off)."""
    cache.clear()
    settings.PARLOUR_RATE_LIMITS = dict(base_settings.PARLOUR_RATE_LIMITS)
    yield settings
    cache.clear()


def _finished(game: str = "rentz") -> Match:
    match = make_match(game, options=quick_options(game))
    play_engine_moves(match, 0, until_over=True)
    match.refresh_from_db()
    return match


def _move_data(match: Match) -> dict[str, Any]:
    match.refresh_from_db()
    seat = match.engine.to_act(match.state)[0]
    return {"action": json.dumps(match.engine.legal_actions(match.state, seat)[0]), "version": match.version}


# --- finding 1: the admin ----------------------------------------------------------------------------


def test_the_match_admin_shows_no_seed_state_or_outcome_of_an_active_match(staff: Client) -> None:
    match = make_match("renfield", players=4)
    play_engine_moves(match, 5)
    html = staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert str(match.seed) not in html
    assert not re.search(r"field-(seed|state|outcome)\b(?!_)", html)
    assert HIDDEN in html and match.seed_hash in html


def test_the_match_admin_shows_the_seed_once_the_match_is_over(staff: Client) -> None:
    match = _finished()
    html = staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert str(match.seed) in html and HIDDEN not in html


def test_the_move_admin_hides_a_sealed_side_bet_until_the_end(staff: Client) -> None:
    match = make_match("rapscallion", players=3)
    for _ in range(60):
        if match.moves.filter(action__type__in=["side_bet", "bid"]).exists():
            break
        play_engine_moves(match, 1)
    move = match.moves.filter(action__type__in=["side_bet", "bid"]).first()
    assert move is not None, "precondition: a sealed move was played"
    html = staff.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert staff.get(f"/admin/games/move/{move.pk}/change/").status_code == 200
    assert not re.search(r"field-action\b(?!_)", html) and HIDDEN in html
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    html = staff.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert HIDDEN not in html and json.dumps(move.action) in unescape(html)


@pytest.mark.parametrize(
    "path",
    [
        "/admin/games/match/?seed__gt=1",
        "/admin/games/match/?seed=1",
        "/admin/games/match/?state__hands__1__0=7H",
        "/admin/games/match/?outcome__isnull=False",
        "/admin/games/match/?seats__invite_token=abc",
        "/admin/games/move/?action__card=7H",
        "/admin/games/move/?match__seed__gt=1",
        "/admin/games/chatmessage/?match__seed__gt=1",
        "/admin/games/mail/?body__contains=invite",
    ],
)
def test_the_admin_refuses_lookups_through_hidden_fields(staff: Client, path: str) -> None:
    make_match("renfield", players=3)
    assert staff.get(path).status_code == 400


def test_the_admin_still_filters_on_public_fields(staff: Client) -> None:
    make_match("renfield", players=3)
    assert staff.get("/admin/games/match/?game=renfield&status=active").status_code == 200
    assert staff.get("/admin/games/move/?kind=player").status_code == 200


def _full_change_form(match: Match, **changes: str) -> dict[str, str]:
    """Every field the admin's change form has ever offered, as a browser would post it, plus ``changes``."""
    match.refresh_from_db()
    seats = list(match.seats.order_by("number"))
    data = {
        "game": match.game, "players": str(match.players), "options": json.dumps(match.options),
        "status": match.status, "private": "", "created_by": str(match.created_by_id or ""),
        "recent_moves": json.dumps(match.recent_moves), "recent_chat": json.dumps(match.recent_chat),
        "seats-TOTAL_FORMS": str(len(seats)), "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for n, seat in enumerate(seats):
        data.update({
            f"seats-{n}-id": str(seat.pk), f"seats-{n}-match": str(match.pk), f"seats-{n}-number": str(seat.number),
            f"seats-{n}-user": str(seat.user_id or ""), f"seats-{n}-bot_level": seat.bot_level,
            f"seats-{n}-joined": "on" if seat.joined else "", f"seats-{n}-invite_email": seat.invite_email,
            f"seats-{n}-awaiting": "on" if seat.awaiting else "",
        })  # fmt: skip
    data.update(changes)
    return data


def test_the_admin_cannot_finish_an_active_match_to_open_its_replay(staff: Client) -> None:
    match = make_match("renfield", players=3)
    response = staff.post(f"/admin/games/match/{match.pk}/change/", _full_change_form(match, status="finished"))
    assert response.status_code == 302, "precondition: the admin accepted the form"
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_the_admin_cannot_seat_anyone_at_a_match(staff: Client) -> None:
    match = make_match("renfield", players=3, bots=2)
    snoop = UserFactory()
    response = staff.post(
        f"/admin/games/match/{match.pk}/change/", _full_change_form(match, **{"seats-1-user": str(snoop.pk)})
    )
    assert response.status_code == 302, "precondition: the admin accepted the form"
    assert not match.seats.filter(user=snoop).exists()


def test_the_admin_never_shows_an_invitation_token(staff: Client, django_capture_on_commit_callbacks: Any) -> None:
    creator = UserFactory()
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(
            game="renfield",
            players=3,
            options=None,
            created_by=creator,
            private=False,
            seats=[SeatSpec(user=creator), SeatSpec(email="guest@example.org"), SeatSpec(bot="random")],
        )
    token = match.seats.get(number=1).invite_token
    assert token, "precondition: the seat holds a token"
    assert token not in staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    for mail in Mail.objects.all():
        assert token not in staff.get(f"/admin/games/mail/{mail.pk}/change/").content.decode()
        assert token not in staff.get("/admin/games/mail/").content.decode()


# --- findings 6 and 7: burst limits -------------------------------------------------------------------


def test_a_player_moving_once_a_second_is_never_limited(limits: Any) -> None:
    start = 1_700_000_000.0
    assert all(rate_hit(kind="move", user_id=1, now=start + second) is None for second in range(1800))
    # A lively chat: a message every ten seconds for an hour.
    assert all(rate_hit(kind="chat", user_id=1, now=start + 10 * n) is None for n in range(360))


def test_a_burst_of_moves_is_limited(limits: Any) -> None:
    now = 1_700_000_000.0
    waits = [rate_hit(kind="move", user_id=2, now=now) for _ in range(60)]
    assert waits[0] is None and waits[-1] is not None and 1 <= waits[-1] <= 600


def test_a_move_past_the_limit_gets_a_sentence_and_changes_nothing(limits: Any) -> None:
    limits.PARLOUR_RATE_LIMITS = {"move": [(3, 60)]}
    match = make_match("karnoffel")
    match.refresh_from_db()
    player = match.seats.get(number=match.engine.to_act(match.state)[0]).user
    client = login(player)
    for _ in range(3):  # stale versions: refused by the table, but counted
        client.post(reverse("games-play", args=[match.pk]), {"action": "{}", "version": 999})
    before = (match.version, match.moves.count())
    response = client.post(reverse("games-play", args=[match.pk]), _move_data(match), **HTMX)
    assert response.status_code == 429 and "wait a few seconds" in response.content.decode()
    assert response["Content-Type"].startswith("text/plain") and int(response["Retry-After"]) >= 1
    match.refresh_from_db()
    assert (match.version, match.moves.count()) == before
    # The limit is the player's own: another player moves as usual.
    other = login(UserFactory())
    assert other.post(reverse("games-play", args=[match.pk]), {"action": "{}", "version": 0}).status_code != 429


def test_a_burst_of_chat_is_limited(limits: Any) -> None:
    limits.PARLOUR_RATE_LIMITS = {"chat": [(2, 60)]}
    match = make_match("karnoffel")
    client = login(match.seats.get(number=0).user)
    codes = [client.post(reverse("games-chat", args=[match.pk]), {"text": f"hello {n}"}).status_code for n in range(3)]
    assert codes == [302, 302, 429]
    assert ChatMessage.objects.filter(match=match).count() == 2


def _create_data(game: str, players: int, level: str) -> dict[str, Any]:
    form = MatchCreateForm(game=get_game(game))
    data: dict[str, Any] = {"players": players}
    for name in form.fields:
        initial = form[name].initial
        if name != "players" and initial not in (None, False):
            data[name] = "on" if initial is True else initial
    for number in range(1, players):
        data[f"seat_{number}_kind"], data[f"seat_{number}_level"] = "bot", level
    return data


def test_starting_many_matches_with_strong_bots_is_limited(limits: Any) -> None:
    client = login(UserFactory())
    data = _create_data("renfield", 8, "strong")
    codes = [client.post(reverse("games-create") + "?game=renfield", data).status_code for _ in range(10)]
    count, _seconds = base_settings.PARLOUR_RATE_LIMITS["match-create"][0]
    assert codes[:count] == [302] * count, "precondition: the form creates a match"
    assert set(codes[count:]) == {429}
    assert Match.objects.count() == count
    assert "wait a while" in client.post(reverse("games-create") + "?game=renfield", data).content.decode()


@override_settings(
    CACHES={"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "parlour_cache"}}
)
def test_the_database_cache_counts_for_every_process(limits: Any) -> None:
    from django.core.cache import caches

    limits.PARLOUR_RATE_LIMITS = {"move": [(2, 60)]}
    now = 1_700_000_000.0
    assert [rate_hit(kind="move", user_id=3, now=now) is None for _ in range(3)] == [True, True, False]
    # The count lives in the table the migration made, where another worker reads the same number.
    assert caches["default"].get("ratelimit:move:3:60:" + str(int(now // 60))) == 3


@override_settings(CACHES={"default": {"BACKEND": "tests.accounts.test_sessions.DownCache"}})
def test_with_the_cache_down_the_limits_are_not_counted_and_the_move_goes_through(limits: Any) -> None:
    match = make_match("karnoffel")
    match.refresh_from_db()
    number = match.engine.to_act(match.state)[0]
    action = json.dumps(match.engine.legal_actions(match.state, number)[0])
    client = login(match.seats.get(number=number).user)
    response = client.post(reverse("games-play", args=[match.pk]), {"action": action, "version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1


# --- finding 8: crafted input ------------------------------------------------------------------------


@pytest.mark.parametrize("after", ["%C2%B2", "--1", "1e3", "9" * 5000, "%00"])
def test_next_match_takes_any_after_parameter(after: str) -> None:
    match = make_match("karnoffel")
    match.refresh_from_db()
    client = login(match.seats.get(number=match.engine.to_act(match.state)[0]).user)
    response = client.get(f"/next/?after={after}")
    assert response.status_code == 302


@pytest.mark.parametrize("ply", ["--1", "%C2%B2", "-", "1.5", "9" * 5000, "%00", "-7"])
def test_the_replay_takes_any_ply(ply: str) -> None:
    match = _finished()
    client = login(match.seats.get(number=0).user)
    assert client.get(f"/m/{match.pk}/replay/?ply={ply}").status_code == 200


@pytest.mark.parametrize("game", [g for g in game_names() if any(e["type"] == "json" for e in get_game(g).OPTIONS)])
def test_deeply_nested_json_options_get_a_form_error(game: str) -> None:
    """The form enters structured options in tables of numbers now; a post of the old JSON box (here nested
    100,000 deep) is refused with a sentence, never parsed into a crash."""
    module = get_game(game)
    entry = next(e for e in module.OPTIONS if e["type"] == "json")
    data = _create_data(game, module.MIN_PLAYERS, "random")
    data[f"opt_{entry['name']}"] = "[" * 100_000 + "]" * 100_000
    page = login(UserFactory()).post(reverse("games-create") + f"?game={game}", data)
    assert page.status_code == 200 and "now entered in the tables of the form" in page.content.decode()
    assert not Match.objects.exists()


def test_a_deeply_nested_move_is_refused_with_a_sentence() -> None:
    match = make_match("karnoffel")
    match.refresh_from_db()
    client = login(match.seats.get(number=match.engine.to_act(match.state)[0]).user)
    response = client.post(
        reverse("games-play", args=[match.pk]),
        {"action": "[" * 1999 + "]" * 1999, "version": match.version},
        follow=True,
    )
    assert response.status_code == 200 and "could not be read" in response.content.decode()


@pytest.mark.parametrize("token", ["abc%00def", "%C2%B2", "x" * 300])
def test_an_odd_invitation_token_is_not_found(token: str) -> None:
    response = login(UserFactory()).get(f"/invite/{token}/", follow=True)
    assert response.status_code == 200 and "does not exist" in response.content.decode()


# --- finding 9: Content-Security-Policy --------------------------------------------------------------


def _csp(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/healthz"])
def test_pages_carry_a_strict_content_security_policy(client: Client, path: str) -> None:
    policy = _csp(client.get(path))
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"] and policy["img-src"] == ["'self'", "data:"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert not any("unsafe" in value for values in policy.values() for value in values)


INLINE = [
    (re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.IGNORECASE), "an on* handler"),
    (re.compile(r"\shx-on(?::|-)", re.IGNORECASE), "an hx-on handler (needs eval)"),
    (re.compile(r"\sstyle\s*=", re.IGNORECASE), "an inline style attribute"),
    (re.compile(r"\bhx-(?:vals|headers)\s*=\s*['\"]\s*js:", re.IGNORECASE), "an hx-vals/hx-headers js: value (eval)"),
]


def _inline_problems(text: str) -> list[str]:
    return [why for pattern, why in INLINE if pattern.search(text)]


@pytest.mark.parametrize("template", sorted(str(p.relative_to(ROOT)) for p in (ROOT / "templates").rglob("*.html")))
def test_templates_hold_no_inline_script_or_handlers(template: str) -> None:
    assert _inline_problems((ROOT / template).read_text()) == [], template


@pytest.mark.parametrize("game", game_names())
def test_the_table_page_holds_no_inline_script_or_handlers(game: str) -> None:
    match = make_match(game)
    play_engine_moves(match, 4)
    match.refresh_from_db()
    seat = match.seats.get(number=match.engine.to_act(match.state)[0])
    for client in (login(seat.user), login(UserFactory())):
        html = client.get(match.get_absolute_url()).content.decode()
        assert _inline_problems(html) == [], game


def test_the_scan_finds_inline_script() -> None:
    assert _inline_problems('<form hx-on::after-request="this.reset()">') == ["an hx-on handler (needs eval)"]
    assert _inline_problems("<script>alert(1)</script>") == ["an inline <script>"]
    assert _inline_problems('<script src="/static/js/parlour.js" defer></script>') == []


def test_htmx_is_configured_to_need_no_eval_and_no_inline_styles(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html)
    assert meta, "the page carries htmx's configuration"
    config = json.loads(meta.group(1))
    assert config["allowEval"] is False and config["includeIndicatorStyles"] is False
    assert config["allowScriptTags"] is False
    assert html.index('name="htmx-config"') < html.index("htmx-2")  # read before htmx starts
    script = (ROOT / "static" / "js" / "parlour.js").read_text()
    assert 'src="/static/js/parlour.js"' in html and "form.chat-form" in script and ".reset()" in script


# --- the pages under the policy, in a real browser ----------------------------------------------------


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(
    not Path("/usr/bin/chromium").exists() and os.environ.get("CI", "").lower() not in {"1", "true", "yes"},
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
)
def test_the_table_works_under_the_policy_in_a_browser(
    live_server: Any, transactional_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chat over htmx empties its form (parlour.js), polling runs, and the browser reports no CSP violation."""
    from playwright import sync_api

    from tests.games.browser_helpers import launch

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    match = make_match("karnoffel")
    player = match.seats.get(number=0).user
    client = login(player)
    cookie = client.cookies["sessionid"].value
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context()
            context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
            page = context.new_page()
            complaints: list[str] = []
            page.on("console", lambda message: complaints.append(message.text))
            page.goto(f"{live_server.url}{match.get_absolute_url()}")
            page.fill("form.chat-form input[name=text]", "Good luck, all")
            page.click("form.chat-form button[type=submit]")
            page.locator(".chat", has_text="Good luck, all").wait_for(timeout=15_000)
            page.wait_for_function(
                "document.querySelector('form.chat-form input[name=text]').value === ''", timeout=15_000
            )
            page.wait_for_timeout(500)
        finally:
            browser.close()
    assert ChatMessage.objects.filter(match=match, text="Good luck, all").count() == 1
    violations = [text for text in complaints if "Content Security Policy" in text or "Refused to" in text]
    assert violations == []
