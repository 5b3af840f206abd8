"""A player's deadlines as an iCalendar feed, for the private calendar URL.

Built with the ``icalendar`` package: escaping text, folding long lines and CRLF
endings are easy to get subtly wrong, and calendar apps are strict about them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from icalendar import Alarm, Calendar, Event, vText

CONTENT_TYPE: Final = "text/calendar; charset=utf-8"
PRODID: Final = "-//Parlour//Turn deadlines//EN"
ALARM_BEFORE: Final = timedelta(hours=1)


@dataclass(frozen=True)
class CalendarEvent:
    """One deadline: ``uid`` must stay the same for the same deadline so calendar apps update it in place."""

    uid: str
    summary: str
    url: str
    starts: datetime

    def __post_init__(self) -> None:
        if self.starts.tzinfo is None or self.starts.utcoffset() is None:
            raise ValueError(f"A calendar event needs a timezone-aware start, got {self.starts!r}.")
        # A URL is written unescaped, so a line break in it would start a forged content line.
        if any(char.isspace() for char in self.url):
            raise ValueError(f"A calendar event's URL cannot contain spaces or line breaks, got {self.url!r}.")


def ics_feed(*, name: str, events: list[CalendarEvent], now: datetime | None = None) -> bytes:
    """The feed named ``name`` with one event per deadline, each with an alarm an hour before.

    Times are written in UTC so every calendar app shows them in its own zone without
    needing our time zone definitions. ``now`` stamps the events (DTSTAMP); tests pass it.
    """
    stamp = (now or datetime.now(UTC)).astimezone(UTC)
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    # NAME is the standard (RFC 7986); X-WR-CALNAME is what Apple and Google calendars read. icalendar does not
    # know either as text and would write a comma or a line break unescaped, so we say they are text.
    calendar.add("name", vText(name))
    calendar.add("x-wr-calname", vText(name))
    for event in events:
        calendar.add_component(_vevent(event, stamp=stamp))
    return calendar.to_ical()


def _vevent(event: CalendarEvent, *, stamp: datetime) -> Event:
    vevent = Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", stamp)
    vevent.add("dtstart", event.starts.astimezone(UTC))
    vevent.add("summary", event.summary)
    vevent.add("url", event.url)
    vevent.add_component(_alarm(event))
    return vevent


def _alarm(event: CalendarEvent) -> Alarm:
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    # A DISPLAY alarm must carry the text to show.
    alarm.add("description", event.summary)
    alarm.add("trigger", -ALARM_BEFORE)
    return alarm
