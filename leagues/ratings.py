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

# The stored ordinal is mu - 3 sigma, scaled (a newcomer's is 0). Pages show it shifted so that a newcomer
# starts at a familiar 1,000: still the cautious estimate (the skill we are fairly sure a player has at
# least), never the middle of the range, so a lucky first win does not put a newcomer above the regulars.
DISPLAY_SCALE = 40.0
NEWCOMER = 1000


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
    """The stored rating (``Rating.ordinal``): the conservative estimate, scaled, one decimal; see ``shown``."""
    return round(DISPLAY_SCALE * (mu - 3 * sigma), 1)


def shown(ordinal: float) -> int:
    """The rating as pages and exports show it: the stored ordinal on the scale where a newcomer has 1,000."""
    return round(NEWCOMER + ordinal)


def shown_text(ordinal: float) -> str:
    """ "1,120": the shown rating with a thousands separator."""
    return f"{shown(ordinal):,}"


def change_text(ordinal: float, delta: float) -> str:
    """ "+12", "-5", "±0": how far a change of ``delta`` to ``ordinal`` moved the shown rating.

    Counted between the two shown numbers, so a history of ratings and changes adds up on the page.
    """
    points = shown(ordinal) - shown(ordinal - delta)
    return "±0" if points == 0 else f"{points:+,}"
