"""The profile is one form with one Save: saving never reverts another part of the page."""

from __future__ import annotations

from datetime import time, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.forms import ProfileForm
from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = {
    "display_name": "Queen of Clubs",
    "time_zone": "Europe/Vienna",
    "notify": User.Notify.DAILY,
    "notify_by": User.NotifyBy.BOTH,
    # auto_forced_moves left out: an unticked box
}
REMINDERS = {"reminder_hours": ["6"], "quiet_start": "23:30", "quiet_end": "06:15", "digest_hour": "8"}
# auto_vacation left out: an unticked box


class Forms(HTMLParser):
    """Each form of a page: where it posts, the names of its fields and how many submit buttons it has."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._open: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form":
            self._open = {"action": values.get("action"), "names": set(), "submits": 0}
            self.forms.append(self._open)
        elif self._open is not None and tag in {"input", "select", "textarea"} and values.get("name"):
            self._open["names"].add(values["name"])
        if self._open is not None and tag == "button" and values.get("type", "submit") == "submit":
            self._open["submits"] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def _forms(client: Client) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(client.get("/me/").content.decode())
    return parser.forms


def _player() -> User:
    """A player whose every choice differs from what the posts above, or an unticked box, would store."""
    return UserFactory(
        display_name="Ivo",
        time_zone="UTC",
        notify=User.Notify.EACH_TURN,
        notify_by=User.NotifyBy.MAIL,
        auto_forced_moves=True,
        reminder_hours=[12],
        quiet_start=time(21),
        quiet_end=time(8),
        digest_hour=19,
        auto_vacation=True,
    )


def _profile_of(user: User) -> tuple[object, ...]:
    user.refresh_from_db()
    return (user.display_name, user.time_zone, user.notify, user.notify_by, user.auto_forced_moves)


def _reminders_of(user: User) -> tuple[object, ...]:
    user.refresh_from_db()
    return (user.reminder_hours, user.quiet_start, user.quiet_end, user.digest_hour, user.auto_vacation)


def test_it_shows_the_whole_profile_as_one_form_with_one_save(client: Client) -> None:
    client.force_login(_player())
    fields = {*PROFILE, *REMINDERS, "auto_forced_moves", "auto_vacation"}
    holding = [form for form in _forms(client) if form["names"] & fields]
    assert len(holding) == 1, holding
    assert holding[0]["action"] == "/me/" and fields <= holding[0]["names"] and holding[0]["submits"] == 1


def test_one_save_stores_every_part_of_the_profile(client: Client) -> None:
    user = _player()
    client.force_login(user)
    response = client.post("/me/", {**PROFILE, **REMINDERS}, follow=True)
    assert response.redirect_chain == [("/me/", 302)] and "Your profile is saved." in response.content.decode()
    assert _profile_of(user) == ("Queen of Clubs", "Europe/Vienna", User.Notify.DAILY, User.NotifyBy.BOTH, False)
    assert _reminders_of(user) == ([6], time(23, 30), time(6, 15), 8, False)


def test_a_refusal_in_one_part_keeps_what_was_typed_in_the_other_and_saves_nothing(client: Client) -> None:
    user = _player()
    client.force_login(user)
    response = client.post("/me/", {**PROFILE, **REMINDERS, "quiet_end": ""})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Give both the start and the end of your quiet hours, or leave both empty for none." in page
    assert 'value="Queen of Clubs"' in page  # what the player typed above is still there to save again
    assert _profile_of(user) == ("Ivo", "UTC", User.Notify.EACH_TURN, User.NotifyBy.MAIL, True)
    assert _reminders_of(user) == ([12], time(21), time(8), 19, True)


def test_a_save_does_not_write_back_what_changed_meanwhile(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A vacation begun or a calendar address renewed while the Save is on its way stays as it is."""
    user = _player()
    client.force_login(user)
    until = timezone.now().replace(microsecond=0) + timedelta(days=3)
    checked = ProfileForm.clean_display_name

    def meanwhile(form: ProfileForm) -> str:
        User.objects.filter(pk=user.pk).update(vacation_until=until, calendar_token="renewed-meanwhile")
        return checked(form)

    monkeypatch.setattr(ProfileForm, "clean_display_name", meanwhile)
    assert client.post("/me/", {**PROFILE, **REMINDERS}).status_code == 302
    user.refresh_from_db()
    assert (user.vacation_until, user.calendar_token, user.display_name) == (
        until,
        "renewed-meanwhile",
        "Queen of Clubs",
    )


@pytest.mark.parametrize("url", ["/me/", "/me/preferences/"])
def test_a_page_from_before_posting_only_the_reminders_keeps_the_rest(client: Client, url: str) -> None:
    """An older page still open posts one part alone: the part it did not show keeps its values."""
    user = _player()
    client.force_login(user)
    assert client.post(url, REMINDERS).status_code == 302
    assert _profile_of(user) == ("Ivo", "UTC", User.Notify.EACH_TURN, User.NotifyBy.MAIL, True)
    assert _reminders_of(user) == ([6], time(23, 30), time(6, 15), 8, False)


def test_a_page_from_before_posting_only_the_profile_keeps_the_reminders(client: Client) -> None:
    user = _player()
    client.force_login(user)
    assert client.post("/me/", PROFILE).status_code == 302
    assert _profile_of(user) == ("Queen of Clubs", "Europe/Vienna", User.Notify.DAILY, User.NotifyBy.BOTH, False)
    assert _reminders_of(user) == ([12], time(21), time(8), 19, True)


def test_an_empty_post_is_refused_with_sentences_and_changes_nothing(client: Client) -> None:
    user = _player()
    client.force_login(user)
    response = client.post("/me/preferences/", {})
    assert response.status_code == 200
    assert "Choose an hour from 00:00 to 23:00 for the digest." in response.content.decode()
    assert _profile_of(user) == ("Ivo", "UTC", User.Notify.EACH_TURN, User.NotifyBy.MAIL, True)
    assert _reminders_of(user) == ([12], time(21), time(8), 19, True)
