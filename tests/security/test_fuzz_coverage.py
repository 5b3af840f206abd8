"""Every view that takes input has a fuzz test: a URL added without one fails here.

A view takes input when it accepts a POST (asked of the view itself: anything but 405 to a signed-in
post), when its own code reads the query string or the body, or when its address carries free text (a
``<str:...>`` part: tokens, game names). ``FUZZED`` names the probe that covers each such view, as
``file::test`` (``file::test[case]`` for one case of a parametrized probe); the walk checks that the
probe is there. ``READS_NOTHING`` lists the few views that accept a POST and read nothing of it, each
checked to read no input. Django's admin and allauth's pages are theirs, not ours, and are left out.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import StringConverter

from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

HERE = Path(__file__).parent
POSTS = "test_fuzz_posts.py"
SEATS = "test_fuzz_seats.py"
LINKS = "test_fuzz_mail_links.py"
LEAGUES = "test_fuzz_leagues.py"
ACCOUNTS = "test_fuzz_accounts.py"
LEAGUE_POST = f"{LEAGUES}::test_a_fuzzed_league_post_never_crashes_changes_nothing_when_refused_and_says_why"

FUZZED: dict[str, list[str]] = {
    "games-next": [f"{POSTS}::test_next_takes_any_after"],
    "games-create": [
        f"{POSTS}::test_a_fuzzed_lobby_form_never_crashes_and_a_refused_one_creates_nothing",
        f"{POSTS}::test_the_lobby_takes_any_game_in_the_query",
        "test_fuzz_option_cells.py::test_a_fuzzed_option_table_never_crashes_and_a_refused_one_creates_nothing_and_says_why",
    ],
    "games-invite": [f"{POSTS}::test_a_fuzzed_invitation_link_never_crashes_and_only_the_link_seats_anyone"],
    "games-invite-decline": [f"{SEATS}::test_it_never_fails_on_a_made_up_invitation_link"],
    "games-seat-manage": [
        f"{SEATS}::test_it_never_fails_on_seat_controls_and_refuses_with_a_message",
        f"{SEATS}::test_it_changes_no_seat_for_someone_who_did_not_create_the_match",
    ],
    "games-rules": [f"{POSTS}::test_the_rules_take_any_game_name"],
    "games-match": [f"{POSTS}::test_the_table_takes_any_query_string"],
    "games-poll": [f"{POSTS}::test_the_poll_takes_any_version_and_chat_mark"],
    "games-play": [f"{POSTS}::test_a_fuzzed_move_never_crashes_and_a_refused_one_changes_nothing"],
    "games-chat": [f"{POSTS}::test_a_fuzzed_chat_line_never_crashes_and_never_moves_the_match"],
    "games-reclaim": [f"{POSTS}::test_a_fuzzed_reclaim_never_crashes_and_changes_only_an_absent_seat"],
    "games-replay": [f"{POSTS}::test_the_replay_takes_any_ply"],
    "games-mail-move": [f"{LINKS}::test_a_fuzzed_move_link_never_crashes_and_only_a_valid_one_moves"],
    "games-push-subscription": [
        f"{LINKS}::test_a_fuzzed_push_subscription_never_crashes_and_never_touches_another_players"
    ],
    "games-notice-test": [f"{LINKS}::test_a_fuzzed_test_notice_never_crashes_and_says_what_it_sent"],
    "accounts-profile": [f"{ACCOUNTS}::test_a_fuzzed_profile_never_crashes_and_a_refused_one_changes_nothing"],
    "accounts-preferences": [f"{ACCOUNTS}::test_a_fuzzed_profile_never_crashes_and_a_refused_one_changes_nothing"],
    "games-vacation-start": [f"{ACCOUNTS}::test_a_fuzzed_vacation_never_crashes_and_a_refused_one_changes_nothing"],
    "games-vacation-end": [f"{ACCOUNTS}::test_a_fuzzed_vacation_end_never_crashes_and_always_says_why"],
    "games-calendar-reset": [f"{ACCOUNTS}::test_a_fuzzed_calendar_reset_never_crashes_and_says_so"],
    "games-calendar": [f"{LINKS}::test_a_fuzzed_calendar_address_never_crashes_and_opens_only_its_own_calendar"],
    "leagues-club-create": [f"{LEAGUE_POST}[club create]"],
    "leagues-invite": [f"{LEAGUE_POST}[invitation link]", f"{LEAGUES}::test_an_invitation_page_takes_any_token"],
    "leagues-club-join": [f"{LEAGUE_POST}[club join]"],
    "leagues-club-invite": [f"{LEAGUE_POST}[club invite]"],
    "leagues-member-role": [f"{LEAGUE_POST}[member role]"],
    "leagues-member-remove": [f"{LEAGUE_POST}[member remove]"],
    "leagues-league-create": [
        f"{LEAGUE_POST}[league create]",
        f"{LEAGUES}::test_the_league_pages_take_any_query_string",
    ],
    "leagues-league-edit": [f"{LEAGUE_POST}[league edit]", f"{LEAGUES}::test_the_league_pages_take_any_query_string"],
    "leagues-season-create": [f"{LEAGUE_POST}[season create]"],
    "leagues-season-registration": [f"{LEAGUE_POST}[season actions]"],
    "leagues-season-register": [f"{LEAGUE_POST}[season actions]"],
    "leagues-season-withdraw": [f"{LEAGUE_POST}[season actions]"],
    "leagues-fixtures-generate": [f"{LEAGUE_POST}[season actions]"],
    "leagues-season-start": [f"{LEAGUE_POST}[season actions]"],
    "leagues-round-dates": [f"{LEAGUE_POST}[round dates]"],
    "leagues-entrant-division": [f"{LEAGUE_POST}[entrant division]"],
    "leagues-result": [f"{LEAGUE_POST}[result]"],
    "leagues-season-finish": [f"{LEAGUE_POST}[season finish]"],
    "leagues-round-open": [f"{LEAGUE_POST}[round open]"],
    "leagues-invitation-resend": [f"{LEAGUE_POST}[invitation resend]"],
    "leagues-invitation-cancel": [f"{LEAGUE_POST}[invitation cancel]"],
    "leagues-round-settle": [f"{LEAGUE_POST}[round settle]"],
    "leagues-season-edit": [f"{LEAGUE_POST}[season edit]"],
    "leagues-divisions-seed": [f"{LEAGUE_POST}[divisions seed]"],
    "leagues-availability": [f"{LEAGUE_POST}[availability]"],
    "leagues-substitute-volunteer": [f"{LEAGUE_POST}[substitute volunteer]"],
    "leagues-substitutes": [f"{LEAGUE_POST}[substitutes]"],
    "leagues-seat-offer": [f"{LEAGUES}::test_a_seat_offer_link_takes_any_token_and_changes_nothing"],
    "leagues-standings": [f"{LEAGUES}::test_the_league_pages_take_any_query_string"],
}
# Views that answer a POST as they answer a GET and read nothing of either.
READS_NOTHING = {
    "games-dashboard": "the dashboard or the landing page, whatever is posted",
    "healthz": "the load balancer's liveness check: 'ok' while the database answers",
}

# What a view's own code reads of the request: the query string, the form, the body.
READS_INPUT = re.compile(r"\brequest\.(GET|POST|body|FILES|read|readline|readlines)\b")


@dataclass(frozen=True)
class Route:
    name: str
    pattern: URLPattern
    converters: dict[str, Any]

    @property
    def view(self) -> Callable[..., Any]:
        return inspect.unwrap(self.pattern.callback)

    @property
    def free_text(self) -> list[str]:
        """The address's parts that take any text (``<str:...>``)."""
        return [name for name, conv in self.converters.items() if type(conv) is StringConverter]

    def reads_input(self) -> bool:
        return READS_INPUT.search(inspect.getsource(self.view)) is not None

    def url(self) -> str:
        """The address with made-up values: ids no row has, a slug and a token no club or invitation has."""
        made_up = {"IdConverter": 999_999_999, "SlugConverter": "no-such-thing", "StringConverter": "no-such-thing"}
        return reverse(self.name, kwargs={k: made_up[type(c).__name__] for k, c in self.converters.items()})


def _routes(patterns: list[Any], converters: dict[str, Any] | None = None) -> Iterator[Route]:
    for pattern in patterns:
        found = {**(converters or {}), **getattr(pattern.pattern, "converters", {})}
        if isinstance(pattern, URLResolver):
            module = getattr(pattern.urlconf_module, "__name__", "")
            if pattern.app_name == "admin" or module.startswith("allauth."):
                continue  # Django's and allauth's own pages
            yield from _routes(pattern.url_patterns, found)
        elif isinstance(pattern, URLPattern):
            assert pattern.name, f"every URL of the project has a name to list it here: {pattern.pattern}"
            yield Route(pattern.name, pattern, found)


def project_routes() -> dict[str, Route]:
    return {route.name: route for route in _routes(get_resolver().url_patterns)}


@pytest.fixture
def signed_in() -> Client:
    user: User = UserFactory()
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _accepts_post(client: Client, route: Route) -> bool:
    return client.post(route.url(), {"probe": "1"}).status_code != 405


def test_every_view_that_takes_input_has_a_fuzz_test(signed_in: Client) -> None:
    routes = project_routes()
    assert {"games-play", "accounts-profile", "leagues-result", "healthz"} <= set(routes)  # the walk finds every app
    why: dict[str, list[str]] = {}
    for name, route in routes.items():
        reasons = [
            *(["accepts a POST"] if _accepts_post(signed_in, route) else []),
            *(["reads the query string or the body"] if route.reads_input() else []),
            *([f"takes any text in its address ({', '.join(route.free_text)})"] if route.free_text else []),
        ]
        if reasons:
            why[name] = reasons
    unfuzzed = {name: reasons for name, reasons in why.items() if name not in FUZZED and name not in READS_NOTHING}
    assert unfuzzed == {}, "views that take input without a fuzz test in tests/security: add one to FUZZED"
    listed_wrongly = {n: why[n] for n in READS_NOTHING if why.get(n) != ["accepts a POST"]}
    assert listed_wrongly == {}, "READS_NOTHING lists views that read input (they need a fuzz test) or take no POST"
    not_input = sorted(set(FUZZED) - set(why))
    assert not_input == [], f"FUZZED lists views that take no input (or no longer exist): {not_input}"


def _probe_exists(reference: str) -> bool:
    path, _, test = reference.partition("::")
    function, _, case = test.partition("[")
    source = (HERE / path).read_text() if (HERE / path).exists() else ""
    defined = re.search(rf"^def {re.escape(function)}\(", source, re.MULTILINE) is not None
    return defined and (not case or f'"{case.rstrip("]")}"' in source)


def test_every_listed_probe_is_there() -> None:
    missing = [ref for refs in FUZZED.values() for ref in refs if not _probe_exists(ref)]
    assert missing == [], f"FUZZED names probes that do not exist: {missing}"
