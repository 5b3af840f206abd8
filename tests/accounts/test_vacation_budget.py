"""A player's yearly vacation budget: pure arithmetic, no database."""

from __future__ import annotations

import pytest

from accounts.vacation_budget import VacationBudget, vacation_days


def test_it_spends_the_yearly_budget_and_stops_at_zero() -> None:
    budget = VacationBudget()
    assert budget.days_left == 14
    budget = budget.spend(10)
    assert (budget.used, budget.days_left) == (10, 4)
    with pytest.raises(ValueError, match="only 4 vacation days left"):
        budget.spend(5)
    assert budget.spend(4).days_left == 0
    with pytest.raises(ValueError, match="only 1 vacation day left"):
        VacationBudget(yearly_days=3, used=2).spend(2)
    with pytest.raises(ValueError, match="negative"):
        budget.spend(-1)


def test_it_says_the_days_as_the_profile_does() -> None:
    assert [vacation_days(n) for n in (0, 1, 2)] == ["0 vacation days", "1 vacation day", "2 vacation days"]
