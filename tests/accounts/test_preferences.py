"""The profile page's reminder and mail choices: reminders, quiet hours, the digest hour, auto vacation."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/me/preferences/"
GOOD = {
    "reminder_hours": ["6", "24"],
    "quiet_start": "23:30",
    "quiet_end": "06:15",
    "digest_hour": "8",
    "auto_vacation": "on",
}


def test_it_gives_a_new_player_the_default_choices() -> None:
    user = UserFactory()
    user.refresh_from_db()
    assert user.reminder_hours == [24, 2]
    assert user.reminder_offsets == [timedelta(hours=24), timedelta(hours=2)]
    assert (user.quiet_start, user.quiet_end, user.has_quiet_hours) == (time(22), time(7), True)
    assert (user.digest_hour, user.auto_vacation, user.vacation_days_per_year) == (7, False, 14)
    assert len(user.calendar_token) >= 32


def test_it_takes_the_yearly_vacation_days_from_the_setting(settings) -> None:
    settings.ACCOUNTS_VACATION_DAYS_PER_YEAR = 21
    assert UserFactory().vacation_days_per_year == 21


def test_it_saves_the_choices(client: Client) -> None:
    user = UserFactory(display_name="Nell")
    client.force_login(user)
    response = client.post(URL, GOOD, follow=True)
    assert response.redirect_chain == [("/me/", 302)]
    assert "Your reminder and mail choices are saved." in response.content.decode()
    user.refresh_from_db()
    assert user.reminder_hours == [24, 6]
    assert (user.quiet_start, user.quiet_end) == (time(23, 30), time(6, 15))
    assert (user.digest_hour, user.auto_vacation) == (8, True)
    assert user.display_name == "Nell"  # the other form on the page is not touched


def test_it_shows_the_saved_choices_on_the_page(client: Client) -> None:
    user = UserFactory(reminder_hours=[12], quiet_start=time(21), quiet_end=time(8), digest_hour=19)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert 'value="12" id="id_reminder_hours_2" checked' in page
    assert 'value="24" id="id_reminder_hours_1" checked' not in page
    assert 'value="21:00"' in page and 'value="08:00"' in page
    assert '<option value="19" selected>19:00</option>' in page


def test_it_turns_quiet_hours_and_reminders_off(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    client.post(URL, {**GOOD, "reminder_hours": [], "quiet_start": "", "quiet_end": ""})
    user.refresh_from_db()
    assert (user.quiet_start, user.quiet_end, user.has_quiet_hours) == (None, None, False)
    assert user.reminder_hours == [] and user.reminder_offsets == []


@pytest.mark.parametrize(
    "change, message",
    [
        ({"quiet_end": ""}, "Give both the start and the end of your quiet hours, or leave both empty for none."),
        ({"quiet_start": ""}, "Give both the start and the end of your quiet hours, or leave both empty for none."),
        (
            {"quiet_start": "07:00", "quiet_end": "07:00"},
            "Your quiet hours start and end at the same time; leave both empty for no quiet hours.",
        ),
        ({"quiet_start": "late"}, "Enter the start of your quiet hours as a time, such as 22:00."),
        ({"quiet_end": "25:00"}, "Enter the end of your quiet hours as a time, such as 07:00."),
        ({"digest_hour": "24"}, "Choose an hour from 00:00 to 23:00 for the digest."),
        ({"digest_hour": "seven"}, "Choose an hour from 00:00 to 23:00 for the digest."),
        ({"reminder_hours": ["24", "5"]}, "Choose reminders from the list."),
    ],
)
def test_it_refuses_bad_choices_with_a_sentence_and_changes_nothing(
    client: Client, change: dict[str, object], message: str
) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post(URL, {**GOOD, **change})
    assert response.status_code == 200
    assert message in response.content.decode()
    user.refresh_from_db()
    assert (user.quiet_start, user.quiet_end, user.digest_hour, user.reminder_hours) == (time(22), time(7), 7, [24, 2])
    assert user.auto_vacation is False


def test_it_asks_anonymous_visitors_to_log_in_and_accepts_only_posts(client: Client) -> None:
    response = client.post(URL, GOOD)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(UserFactory())
    assert client.get(URL).status_code == 405


def test_it_only_ever_changes_the_signed_in_player(client: Client) -> None:
    me, other = UserFactory(), UserFactory()
    client.force_login(me)
    client.post(URL, {**GOOD, "id": other.pk, "email": other.email})
    other.refresh_from_db()
    me.refresh_from_db()
    assert other.digest_hour == 7 and me.digest_hour == 8


def test_it_keeps_the_calendar_secret_out_of_the_admin(admin_client: Client) -> None:
    user = UserFactory()
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/").content.decode()
    assert "Vacation and reminders" in page
    assert user.calendar_token not in page


def test_it_does_not_let_staff_edit_a_vacation_around_the_clocks(admin_client: Client) -> None:
    user = UserFactory()
    page = admin_client.get(f"/admin/accounts/user/{user.pk}/change/").content.decode()
    assert 'name="vacation_until"' not in page and 'name="digest_hour"' in page


def test_a_user_row_knows_its_choices() -> None:
    user = User(reminder_hours=[2, 24, 2], quiet_start=time(1), quiet_end=time(1))
    assert user.reminder_offsets == [timedelta(hours=24), timedelta(hours=2)]
    assert user.has_quiet_hours is False
