"""A club invitation link carried through the login: any link, then a login, never a 500, and only a live one joins.

A logged-out visitor opens a fuzzed club invitation address, then logs in with the password form; the
login hook (``leagues.account_adapter``) makes them a member of the club of a live invitation only, and a
used, expired or made-up one changes no membership. Each example runs in a savepoint that is rolled back.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import example, given
from hypothesis import strategies as st

from leagues.models import Membership
from tests.accounts.factories import PASSWORD
from tests.security.league_world import FUZZ, TEXT, World

pytestmark = pytest.mark.django_db


@FUZZ
@given(token=st.one_of(TEXT.filter(bool), st.sampled_from(["live", "other", "used", "expired"])))
@example(token="\x00")
@example(token="live")
def test_it_joins_at_login_only_from_a_live_invitation_link(league_world: World, token: str) -> None:
    outsider = league_world.users["outsider"]
    real = league_world.tokens.get(token)
    cache.clear()  # the login's burst limits count every example's login
    with transaction.atomic():
        before = set(Membership.objects.values_list("club_id", "user_id", "role"))
        visitor = Client(raise_request_exception=False)
        opened = visitor.get("/leagues/invite/" + quote(real or token, safe="") + "/")
        assert opened.status_code < 500, opened.status_code
        answer = visitor.post(reverse("account_login"), {"login": outsider.email, "password": PASSWORD})
        assert answer.status_code == 302, answer.status_code
        joined = set(Membership.objects.values_list("club_id", "user_id", "role")) - before
        club = {"live": league_world.club, "other": league_world.other_club}.get(token)
        if club is None:
            assert joined == set()
        else:
            assert joined == {(club.pk, outsider.pk, Membership.Role.PLAYER)}
            assert answer["Location"] == reverse("leagues-club", args=[club.slug])
        transaction.set_rollback(True)
