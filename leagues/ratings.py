"""Ratings with openskill's Plackett-Luce model: multiplayer placings and Karnoffel's teams. Pure.

A rating is (mu, sigma). ``rate`` takes the teams of one match (a team of one for every seat in
Renfield, Rentz and Rapscallion; two teams of two in Karnoffel) with their places (1 = first, equal
numbers for a tie) and returns the new ratings in the same shape. The model is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
DEFAULT: tuple[float, float] = (_MODEL.mu, _MODEL.sigma)  # (25, 25/3)

# The displayed rating is mu - 3 sigma (a newcomer shows 0), scaled so it reads like a club rating.
DISPLAY_SCALE = 40.0


def rate(teams: Sequence[Sequence[tuple[float, float]]], places: Sequence[int]) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) for every player of every team, after a match finished in ``places``."""
    if len(teams) != len(places):
        raise ValueError("Every team needs a place.")
    if len(teams) < 2 or any(not team for team in teams):
        raise ValueError("A rated match needs at least two teams with players.")
    ratings = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    result = _MODEL.rate(ratings, ranks=[float(place) for place in places])
    return [[(player.mu, player.sigma) for player in team] for team in result]


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown on standings and profiles: a conservative estimate, scaled, one decimal."""
    return round(DISPLAY_SCALE * (mu - 3 * sigma), 1)
