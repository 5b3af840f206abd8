"""Fuzzed posts to the profile page's forms: never a 500, a refused post changes nothing and says why.

The profile (name, time zone, mail choices, reminders, quiet hours, digest hour), its older address for
the reminders alone, the vacation (days as any number or text), its end and the calendar address's reset.
Each example runs in a savepoint that is rolled back, so every one meets the same player: someone in
California with the whole year's vacation days left. The player's row is read before and after.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpResponse
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, event, example, given, note, settings
from hypothesis import strategies as st

from accounts.forms import PROFILE_FIELDS, REMINDER_FIELDS
from accounts.models import REMINDER_CHOICES, User
from games.vacation import vacation_start
from tests.accounts.factories import UserFactory
from tests.security.values import CALENDAR_END_TIMES, NON_FINITE, ODD_NUMBERS, TEXT

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ROW = [*PROFILE_FIELDS, *REMINDER_FIELDS, "vacation_started_at", "vacation_until", "vacation_days_used"]
ROW += ["calendar_token"]


def choice(valid: list[str], odd: st.SearchStrategy[str] = TEXT) -> st.SearchStrategy[str]:
    """Mostly a value the form offers, often anything at all."""
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), odd)


def row(user: User) -> dict[str, Any]:
    found: dict[str, Any] = User.objects.filter(pk=user.pk).values(*ROW).get()
    return found


def errors_shown(response: HttpResponse) -> list[str]:
    """The errors of every form on the page; fails if the page hides one of them."""
    html = response.content.decode()
    layers = response.context if isinstance(response.context, ContextList) else [response.context]
    forms = {id(v): v for layer in layers for v in layer.flatten().values() if isinstance(v, BaseForm)}
    errors = [str(m) for form in forms.values() for messages in form.errors.values() for m in messages]
    hidden = [m for m in errors if escape(m) not in html]
    assert not hidden, f"refused with reasons the page does not show: {hidden}"
    return errors


def told(response: HttpResponse) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def player(fuzz_login: Callable[[User], Client]) -> tuple[User, Client]:
    """West of UTC, as the dates a vacation ends on are shown on the player's own clock."""
    user: User = UserFactory(time_zone="America/Los_Angeles", display_name="Ann Lee")
    return user, fuzz_login(user)


def _client(player: tuple[User, Client]) -> Client:
    client = player[1]
    client.cookies.pop("messages", None)  # a message left by an earlier example is not this one's answer
    return client


# --- the profile ----------------------------------------------------------------------------------

TIMES = st.one_of(
    st.sampled_from(["22:00", "07:00", "", "24:00", "23:59:60", "7", "-1:00", "12:00 PM", "T10:00"]),
    st.sampled_from(CALENDAR_END_TIMES),
    TEXT,
)
# What the page posts when nothing is touched: each example bends a few of these and leaves out a few.
PLAIN_PROFILE: dict[str, Any] = {
    "display_name": "Ann Lee",
    "time_zone": "America/Los_Angeles",
    "notify": "each_turn",
    "notify_by": "mail",
    "auto_forced_moves": "on",
    "reminder_hours": ["24", "2"],
    "quiet_start": "22:00",
    "quiet_end": "07:00",
    "digest_hour": "7",
}
ODD_PROFILE: dict[str, st.SearchStrategy[Any]] = {
    "display_name": st.one_of(
        st.sampled_from(["Ann Lee", "Bot 2", "  Ann   Lee ", "a\x00b", "Ann\u202eLee", "x" * 41]), TEXT
    ),
    "time_zone": choice(["UTC", "Europe/Berlin"], st.sampled_from(["Mars/Base", "\x00", "utc", "Etc/GMT+14"])),
    "notify": choice(list(User.Notify.values)),
    "notify_by": choice(list(User.NotifyBy.values)),
    "auto_forced_moves": choice(["on", ""]),
    "reminder_hours": st.lists(
        st.one_of(st.sampled_from([str(h) for h, _label in REMINDER_CHOICES]), ODD_NUMBERS), max_size=4
    ),
    "quiet_start": TIMES,
    "quiet_end": TIMES,
    "digest_hour": choice([str(h) for h in range(0, 24, 5)], ODD_NUMBERS),
    "auto_vacation": choice(["on", ""]),
}


@st.composite
def profile_posts(draw: st.DrawFn) -> dict[str, Any]:
    data = dict(PLAIN_PROFILE)
    for name in draw(st.lists(st.sampled_from(sorted(ODD_PROFILE)), max_size=3, unique=True)):
        data[name] = draw(ODD_PROFILE[name])
    for name in draw(st.lists(st.sampled_from(sorted(PLAIN_PROFILE)), max_size=2, unique=True)):
        data.pop(name, None)
    return data


@FUZZ
@given(address=st.sampled_from(["accounts-profile", "accounts-preferences"]), data=profile_posts())
@example(address="accounts-profile", data={"time_zone": "UTC", "digest_hour": "1e309", "display_name": "a\x00b"})
@example(address="accounts-preferences", data={"digest_hour": "7", "reminder_hours": ["inf"], "quiet_start": "24:00"})
def test_a_fuzzed_profile_never_crashes_and_a_refused_one_changes_nothing(
    player: tuple[User, Client], address: str, data: dict[str, Any]
) -> None:
    user, client = player[0], _client(player)
    note(repr(data)[:2000])
    with transaction.atomic():
        before = row(user)
        response = client.post(reverse(address), data)
        assert response.status_code < 500, response.status_code
        event(f"{address} {response.status_code}")
        if response.status_code == 302:
            assert response["Location"] == reverse("accounts-profile") and told(response)
        elif not data and address == "accounts-profile":  # an empty post reads as the page asked for
            assert response.status_code == 200 and row(user) == before
        else:
            assert response.status_code == 200 and errors_shown(response), "refused without a word"
            assert row(user) == before
        transaction.set_rollback(True)


# --- the vacation ---------------------------------------------------------------------------------

DAYS = st.one_of(st.sampled_from(["1", "14", "15", "0", "-1", "１２", " 3 ", "2.0", "1e1"]), ODD_NUMBERS, TEXT)


@FUZZ
@given(data=st.fixed_dictionaries({}, optional={"days": DAYS, "until": st.sampled_from(["9999-12-31", "x"])}))
@example(data={"days": "9" * 5000})
@example(data={"days": "32768"})
def test_a_fuzzed_vacation_never_crashes_and_a_refused_one_changes_nothing(
    player: tuple[User, Client], data: dict[str, Any]
) -> None:
    user, client = player[0], _client(player)
    with transaction.atomic():
        before = row(user)
        response = client.post(reverse("games-vacation-start"), data)
        assert response.status_code < 500, response.status_code
        changed = row(user) != before
        event(f"{response.status_code} {'changed' if changed else 'unchanged'}")
        if changed:
            assert response.status_code == 302 and told(response)
            assert row(user)["vacation_until"] is not None
        else:
            assert response.status_code == 200 and errors_shown(response), "refused without a word"
        transaction.set_rollback(True)


@pytest.mark.parametrize("days", [*NON_FINITE, "1e10", str(10**30), "0x10"])
def test_a_vacation_of_no_number_of_days_is_refused_with_a_sentence(player: tuple[User, Client], days: str) -> None:
    user, client = player
    before = row(user)
    response = client.post(reverse("games-vacation-start"), {"days": days})
    assert response.status_code == 200 and row(user) == before
    errors = [str(m) for m in errors_shown(response)]
    assert errors and all(m[0].isupper() and m.endswith(".") for m in errors)


@FUZZ
@given(away=st.booleans(), data=st.dictionaries(st.text(max_size=12), TEXT, max_size=3))
def test_a_fuzzed_vacation_end_never_crashes_and_always_says_why(
    player: tuple[User, Client], away: bool, data: dict[str, str]
) -> None:
    user, client = player[0], _client(player)
    with transaction.atomic():
        if away:
            vacation_start(user=user, days=3)
        before = row(user)
        response = client.post(reverse("games-vacation-end"), data)
        assert response.status_code == 302 and response["Location"] == reverse("accounts-profile")
        assert told(response), "answered without a word"
        after = row(user)
        assert (after["vacation_until"] is None) if away else (after == before)
        transaction.set_rollback(True)


@FUZZ
@given(data=st.dictionaries(st.text(max_size=12), TEXT, max_size=3))
def test_a_fuzzed_calendar_reset_never_crashes_and_says_so(player: tuple[User, Client], data: dict[str, str]) -> None:
    user, client = player[0], _client(player)
    with transaction.atomic():
        before = row(user)
        response = client.post(reverse("games-calendar-reset"), data)
        assert response.status_code == 302 and told(response)
        after = row(user)
        assert after["calendar_token"] != before["calendar_token"]
        assert {k: v for k, v in after.items() if k != "calendar_token"} == {
            k: v for k, v in before.items() if k != "calendar_token"
        }
        transaction.set_rollback(True)


def test_the_vacation_these_probes_bend_is_taken() -> None:
    """The plain post stops the clocks: the refusals above are for their values, not for an unreachable form."""
    user: User = UserFactory()
    client = Client()
    client.force_login(user)
    assert client.post(reverse("games-vacation-start"), {"days": "3"}).status_code == 302
    user.refresh_from_db()
    assert user.vacation_until is not None and user.vacation_until.date() > date(2000, 1, 1)
