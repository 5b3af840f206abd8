"""Clock arithmetic, vacations, reminders and quiet hours: pure functions, no database."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.clocks import (
    PRESETS,
    TimeControl,
    auto_vacation_extension,
    bank_after_move,
    days_spent,
    deadline_for,
    deliver_at,
    in_quiet_hours,
    is_at_table,
    remaining,
    time_control_from_form,
    turn_mail_due,
)

H = timedelta(hours=1)
D = timedelta(days=1)
BERLIN = ZoneInfo("Europe/Berlin")
NIGHT = (time(22, 0), time(7, 0))
NOON = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
FISCHER = TimeControl(initial=24 * H, increment=4 * H, cap=72 * H)


def berlin(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


# Aware datetimes between 2020 and 2035 in assorted zones, so DST changes are among them.
aware_times = st.datetimes(
    min_value=datetime(2020, 1, 1),
    max_value=datetime(2035, 1, 1),
    timezones=st.sampled_from([UTC, BERLIN, ZoneInfo("America/New_York"), ZoneInfo("Australia/Lord_Howe")]),
    allow_imaginary=False,
)
spans = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90))
wall_times = st.times()
controls = st.builds(
    lambda initial, increment, extra: TimeControl(
        initial=initial, increment=min(increment, initial), cap=initial + extra
    ),
    st.timedeltas(min_value=H, max_value=30 * D),
    st.timedeltas(min_value=timedelta(0), max_value=30 * D),
    st.timedeltas(min_value=timedelta(0), max_value=30 * D),
)


# --- Time controls ------------------------------------------------------------------


def test_it_lists_the_presets_in_form_order_with_their_descriptions() -> None:
    labels = {key: label for key, (label, _tc) in PRESETS.items()}
    assert labels == {
        "none": "Casual, no clock",
        "1d": "1 day per move",
        "2d": "2 days per move",
        "3d": "3 days per move",
        "7d": "7 days per move",
        "fischer-24-4-72": "24 hours, +4 hours a move, up to 3 days",
    }
    assert list(PRESETS) == ["none", "1d", "2d", "3d", "7d", "fischer-24-4-72"]


def test_it_gives_casual_matches_no_clock_and_the_others_their_controls() -> None:
    assert PRESETS["none"][1] is None
    assert PRESETS["1d"][1] == TimeControl(initial=D, increment=D, cap=D)
    assert PRESETS["7d"][1] == TimeControl(initial=7 * D, increment=7 * D, cap=7 * D)
    assert PRESETS["fischer-24-4-72"][1] == FISCHER


@pytest.mark.parametrize(
    ("tc", "sentence"),
    [
        (TimeControl(initial=12 * H, increment=12 * H, cap=12 * H), "12 hours per move"),
        (TimeControl(initial=36 * H, increment=36 * H, cap=36 * H), "36 hours per move"),
        (
            TimeControl(initial=H, increment=timedelta(minutes=30), cap=2 * H),
            "1 hour, +30 minutes a move, up to 2 hours",
        ),
        (
            TimeControl(initial=timedelta(minutes=90), increment=timedelta(minutes=1), cap=2 * D),
            "1 hour 30 minutes, +1 minute a move, up to 2 days",
        ),
        (TimeControl(initial=3 * D, increment=timedelta(0), cap=3 * D), "3 days for the whole match"),
    ],
)
def test_it_describes_a_control_in_a_short_sentence(tc: TimeControl, sentence: str) -> None:
    assert tc.describe() == sentence


def test_it_round_trips_a_control_through_json_as_seconds() -> None:
    assert FISCHER.to_json() == {"initial": 86400, "increment": 14400, "cap": 259200}
    assert TimeControl.from_json(FISCHER.to_json()) == FISCHER
    assert TimeControl.from_json(None) is None


@pytest.mark.parametrize(
    "data",
    [
        {"initial": 3600, "increment": 0},
        {"initial": "3600", "increment": 0, "cap": 3600},
        {"initial": True, "increment": 0, "cap": 3600},
    ],
)
def test_it_refuses_corrupt_stored_controls(data: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="whole number of seconds"):
        TimeControl.from_json(data)


@pytest.mark.parametrize(
    ("initial", "increment", "cap", "message"),
    [
        (timedelta(0), timedelta(0), H, "starting time"),
        (H, -H, H, "negative"),
        (2 * H, H, H, "less than the starting time"),
        (H, 3 * H, 2 * H, "less than the time added"),
    ],
)
def test_it_refuses_impossible_controls(initial: timedelta, increment: timedelta, cap: timedelta, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TimeControl(initial=initial, increment=increment, cap=cap)


def test_it_builds_a_custom_control_from_hours() -> None:
    assert time_control_from_form(24, 4, 72) == FISCHER
    assert time_control_from_form(1, 0, 1) == TimeControl(initial=H, increment=timedelta(0), cap=H)
    assert time_control_from_form(720, 720, 1440) == TimeControl(initial=30 * D, increment=30 * D, cap=60 * D)
    assert time_control_from_form(1.5, 0.25, 2).to_json() == {"initial": 5400, "increment": 900, "cap": 7200}


@pytest.mark.parametrize(
    ("hours", "message"),
    [
        ((0.5, 0, 1), "starting time must be between 1 hour and 30 days"),
        ((721, 0, 800), "starting time must be between 1 hour and 30 days"),
        ((24, -1, 72), "added per move must be between 0 and the starting time"),
        ((24, 25, 72), "added per move must be between 0 and the starting time"),
        ((24, 4, 23), "at least the starting time"),
        ((24, 4, 1441), "60 days"),
        ((float("nan"), 0, 1), "numbers of hours"),
        ((24, 4, float("inf")), "numbers of hours"),
        # Past what a timedelta holds: these were an OverflowError, not a sentence.
        ((1e30, 0, 1e30), "starting time must be between 1 hour and 30 days"),
        ((24, 10**30, 72), "added per move must be between 0 and the starting time"),
        ((24, 4, 1e30), "60 days"),
        ((24, 4, 2.4e10), "60 days"),
        ((-1e30, 0, 1), "starting time must be between 1 hour and 30 days"),
        ((True, 0, 1), "numbers of hours"),
    ],
)
def test_it_refuses_custom_values_out_of_range_with_a_sentence(hours: tuple[float, float, float], message: str) -> None:
    with pytest.raises(ValueError, match=message) as raised:
        time_control_from_form(*hours)
    sentence = str(raised.value)
    assert sentence[0].isupper() and sentence.endswith(".")


# --- Bank arithmetic ----------------------------------------------------------------


def test_it_sets_the_deadline_when_the_bank_runs_out() -> None:
    assert deadline_for(now=NOON, bank=FISCHER.initial) == NOON + 24 * H
    with pytest.raises(ValueError, match="negative"):
        deadline_for(now=NOON, bank=-H)
    with pytest.raises(ValueError, match="timezone-aware"):
        deadline_for(now=NOON.replace(tzinfo=None), bank=H)


def test_it_runs_the_clock_on_real_hours_across_a_dst_change() -> None:
    # Berlin's clocks go forward in the night: 24 hours after Saturday noon is Sunday 13:00 local time.
    saturday_noon = berlin(2026, 3, 28, 12)
    deadline = deadline_for(now=saturday_noon, bank=24 * H)
    assert deadline == berlin(2026, 3, 29, 13)
    assert remaining(deadline=berlin(2026, 3, 29, 12), now=saturday_noon) == 23 * H
    assert bank_after_move(tc=FISCHER, deadline=berlin(2026, 3, 29, 12), now=saturday_noon) == 27 * H


def test_it_adds_the_increment_to_the_time_left() -> None:
    assert bank_after_move(tc=FISCHER, deadline=NOON + 10 * H, now=NOON) == 14 * H


def test_it_never_lets_the_bank_pass_the_cap() -> None:
    assert bank_after_move(tc=FISCHER, deadline=NOON + 70 * H, now=NOON) == 72 * H


def test_it_refills_a_per_move_clock_to_a_full_day() -> None:
    one_day = PRESETS["1d"][1]
    assert one_day is not None
    assert bank_after_move(tc=one_day, deadline=NOON + 3 * H, now=NOON) == D


def test_it_keeps_only_the_increment_after_a_late_move() -> None:
    assert bank_after_move(tc=FISCHER, deadline=NOON - 5 * H, now=NOON) == 4 * H
    no_increment = TimeControl(initial=H, increment=timedelta(0), cap=H)
    assert bank_after_move(tc=no_increment, deadline=NOON - H, now=NOON) == timedelta(0)


def test_it_counts_down_to_zero_and_no_further() -> None:
    assert remaining(deadline=NOON + 2 * H, now=NOON) == 2 * H
    assert remaining(deadline=NOON, now=NOON + H) == timedelta(0)


@given(tc=controls, left=st.timedeltas(min_value=-90 * D, max_value=90 * D))
def test_it_keeps_the_bank_between_the_increment_and_the_cap(tc: TimeControl, left: timedelta) -> None:
    bank = bank_after_move(tc=tc, deadline=NOON + left, now=NOON)
    assert timedelta(0) <= tc.increment <= bank <= tc.cap


# --- Vacation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "days"),
    [(timedelta(0), 1), (timedelta(minutes=1), 1), (D, 1), (D + timedelta(seconds=1), 2), (3 * D - H, 3)],
)
def test_it_charges_every_started_day_and_at_least_one(span: timedelta, days: int) -> None:
    assert days_spent(NOON, NOON + span) == days


def test_it_counts_vacation_days_as_24_hours_across_a_dst_change() -> None:
    # The night the clocks go forward has 23 hours: Saturday noon to Sunday 12:30 is 23.5 hours, one day.
    assert days_spent(berlin(2026, 3, 28, 12), berlin(2026, 3, 29, 12, 30)) == 1
    assert days_spent(berlin(2026, 3, 28, 12), berlin(2026, 3, 29, 13, 1)) == 2


def test_it_refuses_a_vacation_that_ends_before_it_starts() -> None:
    with pytest.raises(ValueError, match="before it starts"):
        days_spent(NOON, NOON - H)


def test_it_spends_one_vacation_day_when_a_deadline_would_pass() -> None:
    assert auto_vacation_extension(days_left=3) == (D, 2)
    assert auto_vacation_extension(days_left=1) == (D, 0)


def test_it_extends_nothing_once_the_budget_is_spent() -> None:
    assert auto_vacation_extension(days_left=0) == (timedelta(0), 0)
    with pytest.raises(ValueError, match="negative"):
        auto_vacation_extension(days_left=-1)


# --- Reminders ----------------------------------------------------------------------


# --- Quiet hours --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("local", "quiet"),
    [
        (berlin(2026, 6, 10, 21, 59), False),
        (berlin(2026, 6, 10, 22, 0), True),
        (berlin(2026, 6, 10, 23, 30), True),
        (berlin(2026, 6, 11, 0, 0), True),
        (berlin(2026, 6, 11, 6, 59), True),
        (berlin(2026, 6, 11, 7, 0), False),
        (berlin(2026, 6, 11, 12, 0), False),
    ],
)
def test_it_keeps_quiet_hours_across_midnight(local: datetime, quiet: bool) -> None:
    assert in_quiet_hours(local.astimezone(UTC), BERLIN, *NIGHT) is quiet


def test_it_keeps_quiet_hours_within_a_day() -> None:
    siesta = (time(13, 0), time(15, 0))
    assert in_quiet_hours(berlin(2026, 6, 10, 14, 0), BERLIN, *siesta)
    assert not in_quiet_hours(berlin(2026, 6, 10, 15, 0), BERLIN, *siesta)
    assert not in_quiet_hours(berlin(2026, 6, 10, 23, 0), BERLIN, *siesta)


def test_it_reads_quiet_hours_on_the_local_wall_clock_across_dst() -> None:
    # 05:30 UTC is 06:30 in Berlin in winter (quiet) and 07:30 once the clocks went forward (awake).
    assert in_quiet_hours(datetime(2026, 3, 28, 5, 30, tzinfo=UTC), BERLIN, *NIGHT)
    assert not in_quiet_hours(datetime(2026, 3, 29, 5, 30, tzinfo=UTC), BERLIN, *NIGHT)
    # And back: 05:30 UTC is 07:30 in summer time (awake), 06:30 after the clocks went back (quiet).
    assert not in_quiet_hours(datetime(2026, 10, 24, 5, 30, tzinfo=UTC), BERLIN, *NIGHT)
    assert in_quiet_hours(datetime(2026, 10, 25, 5, 30, tzinfo=UTC), BERLIN, *NIGHT)


def test_it_has_no_quiet_hours_when_they_start_and_end_together() -> None:
    assert not in_quiet_hours(NOON, BERLIN, time(7, 0), time(7, 0))


def test_it_refuses_a_naive_time_for_quiet_hours() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        in_quiet_hours(datetime(2026, 6, 10, 23, 0), BERLIN, *NIGHT)


@given(when=aware_times, start=wall_times, end=wall_times)
def test_it_splits_the_day_between_a_range_and_its_complement(when: datetime, start: time, end: time) -> None:
    if start == end:
        return
    assert in_quiet_hours(when, BERLIN, start, end) != in_quiet_hours(when, BERLIN, end, start)


# --- Delivery -----------------------------------------------------------------------


def test_it_sends_a_notice_outside_quiet_hours_at_once() -> None:
    due = berlin(2026, 6, 10, 15, 0)
    assert deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1]) == due


def test_it_holds_a_notice_until_quiet_hours_end() -> None:
    due = berlin(2026, 6, 10, 23, 0)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1])
    assert sent == berlin(2026, 6, 11, 7, 0)


def test_it_holds_a_notice_due_after_midnight_until_the_same_morning() -> None:
    due = berlin(2026, 6, 11, 3, 0)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1])
    assert sent == berlin(2026, 6, 11, 7, 0)


def test_it_wakes_a_player_whose_deadline_falls_inside_quiet_hours() -> None:
    due = berlin(2026, 6, 10, 23, 0)
    deadline = berlin(2026, 6, 11, 5, 0)
    assert deliver_at(due=due, deadline=deadline, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1]) == due


def test_it_wakes_a_player_whose_deadline_falls_as_quiet_hours_end() -> None:
    due = berlin(2026, 6, 10, 23, 0)
    deadline = berlin(2026, 6, 11, 7, 0)
    assert deliver_at(due=due, deadline=deadline, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1]) == due


def test_it_sends_nothing_once_the_deadline_has_passed() -> None:
    due = berlin(2026, 6, 10, 15, 0)
    assert deliver_at(due=due, deadline=due - H, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1]) is None


def test_it_ends_quiet_hours_on_local_time_after_the_clocks_go_forward() -> None:
    # 07:00 in Berlin is 06:00 UTC in winter but 05:00 UTC on the morning the clocks went forward.
    due = berlin(2026, 3, 28, 23, 0)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=NIGHT[0], quiet_end=NIGHT[1])
    assert sent == datetime(2026, 3, 29, 5, 0, tzinfo=UTC)


def test_it_ends_quiet_hours_at_the_leap_when_their_end_is_skipped() -> None:
    # On 29 March 2026 Berlin's clocks jump from 02:00 to 03:00: 02:30 never happens.
    due = berlin(2026, 3, 29, 1, 0)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=time(22, 0), quiet_end=time(2, 30))
    assert sent == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    assert sent is not None and sent.astimezone(BERLIN).time() == time(3, 0)


def test_it_ends_quiet_hours_at_the_first_of_two_repeated_times() -> None:
    # On 25 October 2026 Berlin's clocks go back from 03:00 to 02:00: 02:30 happens twice.
    due = berlin(2026, 10, 25, 1, 0)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=time(22, 0), quiet_end=time(2, 30))
    assert sent == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


def test_it_ends_quiet_hours_at_the_repeat_when_due_between_the_two() -> None:
    # Due at the second 02:15 (CET, after the clocks went back): the first 02:30 is already past.
    due = datetime(2026, 10, 25, 1, 15, tzinfo=UTC)
    assert due.astimezone(BERLIN).time() == time(2, 15)
    sent = deliver_at(due=due, deadline=due + D, tz=BERLIN, quiet_start=time(22, 0), quiet_end=time(2, 30))
    assert sent == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_it_never_delivers_after_the_deadline_nor_early() -> None:
    reached = {"dropped": 0, "at_once": 0, "held_back": 0}  # each case's checks ran at least once

    @given(
        due=aware_times,
        until_deadline=st.timedeltas(min_value=-D, max_value=3 * D),
        quiet_start=wall_times,
        quiet_end=wall_times,
        tz=st.sampled_from([BERLIN, ZoneInfo("America/New_York"), ZoneInfo("Australia/Lord_Howe")]),
    )
    def check(due: datetime, until_deadline: timedelta, quiet_start: time, quiet_end: time, tz: ZoneInfo) -> None:
        # Compared in UTC: Python finds a datetime in a repeated hour unequal to any datetime of another zone.
        zoned_due, due = due, due.astimezone(UTC)
        deadline = due + until_deadline
        sent = deliver_at(due=zoned_due, deadline=deadline, tz=tz, quiet_start=quiet_start, quiet_end=quiet_end)
        if sent is None:
            assert due > deadline
            reached["dropped"] += 1
            return
        assert due <= sent <= deadline
        if sent == due:
            reached["at_once"] += 1
            return
        # Held back: delivered the moment quiet hours are over, not a second before.
        assert not in_quiet_hours(sent, tz, quiet_start, quiet_end)
        assert in_quiet_hours(sent - timedelta(microseconds=1), tz, quiet_start, quiet_end)
        reached["held_back"] += 1

    check()
    assert all(reached.values()), f"the examples never reached a case: {reached}"


# --- Turn mail and presence ---------------------------------------------------------


def test_it_waits_the_grace_period_before_a_turn_mail() -> None:
    assert turn_mail_due(turn_started=NOON, grace=timedelta(minutes=10)) == NOON + timedelta(minutes=10)
    with pytest.raises(ValueError, match="negative"):
        turn_mail_due(turn_started=NOON, grace=-H)


@pytest.mark.parametrize(
    ("last_seen", "present"),
    [
        (None, False),
        (NOON - timedelta(minutes=4), True),
        (NOON - timedelta(minutes=5), True),
        (NOON - timedelta(minutes=5, seconds=1), False),
        (NOON + timedelta(seconds=2), True),
    ],
)
def test_it_tells_who_is_at_the_table(last_seen: datetime | None, present: bool) -> None:
    assert is_at_table(last_seen=last_seen, now=NOON, window=timedelta(minutes=5)) is present
