"""A player's yearly vacation budget: pure arithmetic on two numbers, no database.

The budget is a fact about the player (``User.vacation_budget``); what a vacation does to the clocks of
their matches, and how many days it costs, is the business of the app of matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DEFAULT_VACATION_DAYS: Final = 14


@dataclass(frozen=True)
class VacationBudget:
    """A player's vacation days for the year: how many they get and how many are spent."""

    yearly_days: int = DEFAULT_VACATION_DAYS
    used: int = 0

    @property
    def days_left(self) -> int:
        return max(self.yearly_days - self.used, 0)

    def spend(self, days: int) -> VacationBudget:
        """The budget after ``days`` more are spent; refuses to go past the yearly allowance."""
        if days < 0:
            raise ValueError("Vacation days spent cannot be negative.")
        if days > self.days_left:
            raise ValueError(f"You have only {vacation_days(self.days_left)} left this year.")
        return VacationBudget(yearly_days=self.yearly_days, used=self.used + days)


def vacation_days(count: int) -> str:
    """The count with its unit, as the profile and its messages say it: "1 vacation day", "3 vacation days"."""
    return f"{count} vacation day" if count == 1 else f"{count} vacation days"
