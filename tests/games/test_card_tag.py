"""``{% card face %}`` (games_tags): the markup of ``templates/games/_card.html``, drawn once per face.

The tag must give exactly what the template gives for every face of every game, escaped or not, and a
face's markup must be kept only under that face: a table never shows another card's markup.
"""

from __future__ import annotations

import pytest
from django.template import Context, engines

from games.presenters import presenter_for
from games.presenters.base import BACK
from games.templatetags import games_tags
from tests.games.factories import game_names, make_match
from tests.games.leaks import card_codes

pytestmark = pytest.mark.django_db

ENGINE = engines["django"].engine
BY_TAG = ENGINE.from_string("{% load games_tags %}{% for face in faces %}{% card face %}|{% endfor %}")
BY_TEMPLATE = ENGINE.from_string('{% for card in faces %}{% include "games/_card.html" %}|{% endfor %}')


def _faces(game: str) -> list[dict]:
    match = make_match(game)
    return [presenter_for(game).card(code) for code in sorted(card_codes(game, match.state))] + [BACK]


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_tag_draws_every_face_as_the_card_template_does(game: str, autoescape: bool) -> None:
    faces = _faces(game)
    assert len(faces) > 20
    games_tags._drawn.clear()
    expected = BY_TEMPLATE.render(Context({"faces": faces}, autoescape=autoescape))
    assert BY_TAG.render(Context({"faces": faces}, autoescape=autoescape)) == expected  # drawn
    assert BY_TAG.render(Context({"faces": faces}, autoescape=autoescape)) == expected  # kept
    (kept,) = games_tags._drawn.values()
    assert len(kept) == len({tuple(f.values()) for f in faces})


def test_a_face_is_kept_under_its_own_values_only() -> None:
    game = game_names()[0]
    one, other = _faces(game)[:2]
    games_tags._drawn.clear()
    first = BY_TAG.render(Context({"faces": [one]}))
    second = BY_TAG.render(Context({"faces": [other]}))
    assert first != second and one["code"] in first and other["code"] in second


def test_a_card_template_loaded_anew_is_drawn_anew() -> None:
    """``runserver`` resets the cached loader when a template changes: the old markup must go with it."""
    faces = _faces(game_names()[0])[:3]
    games_tags._drawn.clear()
    BY_TAG.render(Context({"faces": faces}))
    before = ENGINE.get_template(games_tags.CARD_TEMPLATE)
    for loader in ENGINE.template_loaders:
        loader.reset()
    after = ENGINE.get_template(games_tags.CARD_TEMPLATE)
    assert after is not before and after not in games_tags._drawn
    BY_TAG.render(Context({"faces": faces}))
    assert len(games_tags._drawn[after]) == 3
