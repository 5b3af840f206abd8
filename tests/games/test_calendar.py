"""The deadline feed, checked by parsing it back with the icalendar package: no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from icalendar import Calendar, Component
from icalendar.parser import unescape_backslash

from games.calendar import PRODID, CalendarEvent, ics_feed

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")
TRICKY = "Renfield, table 3; your turn\nthen Rentz: 50% \\ done"


def event(**overrides: object) -> CalendarEvent:
    fields: dict[str, object] = {
        "uid": "seat-17-deadline@parlour",
        "summary": "Your turn in Renfield",
        "url": "https://parlour.example/matches/5/?seat=2&view=table",
        "starts": datetime(2026, 3, 29, 3, 30, tzinfo=BERLIN),
    }
    fields.update(overrides)
    return CalendarEvent(**fields)  # type: ignore[arg-type]


def parse(feed: bytes) -> Calendar:
    return Calendar.from_ical(feed)


def vevents(calendar: Calendar) -> list[Component]:
    return [component for component in calendar.subcomponents if component.name == "VEVENT"]


def test_it_writes_a_calendar_with_its_identity_and_name() -> None:
    calendar = parse(ics_feed(name="Parlour: alice's deadlines", events=[], now=NOW))
    assert calendar.name == "VCALENDAR"
    assert str(calendar["PRODID"]) == PRODID
    assert str(calendar["VERSION"]) == "2.0"
    assert unescape_backslash(str(calendar["X-WR-CALNAME"])) == "Parlour: alice's deadlines"
    assert vevents(calendar) == []


def test_it_writes_every_field_of_a_deadline() -> None:
    calendar = parse(ics_feed(name="Deadlines", events=[event()], now=NOW))
    [vevent] = vevents(calendar)
    assert str(vevent["UID"]) == "seat-17-deadline@parlour"
    assert vevent.decoded("DTSTAMP") == NOW
    assert str(vevent["SUMMARY"]) == "Your turn in Renfield"
    assert str(vevent["URL"]) == "https://parlour.example/matches/5/?seat=2&view=table"


def test_it_writes_the_start_in_utc() -> None:
    # 03:30 in Berlin on the morning the clocks went forward is 01:30 UTC.
    feed = ics_feed(name="Deadlines", events=[event()], now=NOW)
    assert b"DTSTART:20260329T013000Z\r\n" in feed
    [vevent] = vevents(parse(feed))
    starts = vevent.decoded("DTSTART")
    assert starts == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert starts.utcoffset() == timedelta(0)


def test_it_sets_a_display_alarm_an_hour_before() -> None:
    [vevent] = vevents(parse(ics_feed(name="Deadlines", events=[event()], now=NOW)))
    [alarm] = vevent.subcomponents
    assert alarm.name == "VALARM"
    assert str(alarm["ACTION"]) == "DISPLAY"
    assert alarm.decoded("TRIGGER") == -timedelta(hours=1)
    assert str(alarm["DESCRIPTION"]) == "Your turn in Renfield"


def test_it_keeps_one_event_per_deadline_in_order() -> None:
    events = [event(uid=f"seat-{n}@parlour", starts=NOW + timedelta(days=n)) for n in range(3)]
    parsed = vevents(parse(ics_feed(name="Deadlines", events=events, now=NOW)))
    assert [str(vevent["UID"]) for vevent in parsed] == ["seat-0@parlour", "seat-1@parlour", "seat-2@parlour"]
    assert [vevent.decoded("DTSTART") for vevent in parsed] == [NOW, NOW + timedelta(days=1), NOW + timedelta(days=2)]


def test_it_escapes_commas_semicolons_and_line_breaks() -> None:
    feed = ics_feed(name=TRICKY, events=[event(summary=TRICKY, uid="a,b;c@parlour")], now=NOW)
    # Each line is one property: no line break from the text survives unescaped.
    lines = feed.decode().split("\r\n")
    assert not any("\n" in line for line in lines)
    assert all(line == "" or ":" in line or line.startswith(" ") for line in lines)
    calendar = parse(feed)
    [vevent] = vevents(calendar)
    assert str(vevent["SUMMARY"]) == TRICKY
    assert str(vevent["UID"]) == "a,b;c@parlour"
    assert str(vevent.subcomponents[0]["DESCRIPTION"]) == TRICKY
    # icalendar keeps NAME and X-WR-CALNAME verbatim (it does not know them as text): decode them as text here.
    assert unescape_backslash(str(calendar["NAME"])) == TRICKY
    assert unescape_backslash(str(calendar["X-WR-CALNAME"])) == TRICKY


def test_it_folds_long_lines_for_calendar_apps() -> None:
    summary = "Your turn in a very long match name, " * 6
    feed = ics_feed(name="Deadlines", events=[event(summary=summary)], now=NOW)
    assert max(len(line) for line in feed.split(b"\r\n")) <= 75
    [vevent] = vevents(parse(feed))
    assert str(vevent["SUMMARY"]) == summary


@given(text=st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]) | st.sampled_from(",;:\\\n")))
def test_it_round_trips_any_summary(text: str) -> None:
    [vevent] = vevents(parse(ics_feed(name="Deadlines", events=[event(summary=text)], now=NOW)))
    assert str(vevent["SUMMARY"]) == text


def test_it_stamps_the_feed_with_the_current_time_by_default() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    [vevent] = vevents(parse(ics_feed(name="Deadlines", events=[event()])))
    assert before <= vevent.decoded("DTSTAMP") <= datetime.now(UTC)


def test_it_refuses_a_naive_start() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        event(starts=datetime(2026, 3, 29, 3, 30))


@pytest.mark.parametrize("url", ["https://parlour.example/m/1\r\nATTENDEE:mailto:x@example.com", "https://a b"])
def test_it_refuses_a_url_that_could_break_the_feed(url: str) -> None:
    with pytest.raises(ValueError, match="line breaks"):
        event(url=url)
