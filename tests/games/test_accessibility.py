"""Accessibility in chromium: axe-core on every main page (each game's table and rules, the dashboard; the tables and
the dashboard on a phone too), and the table used from the keyboard and a screen reader (focus back on the move
panel, moves read out from a live region, every announcement checked word for word).

The tests inject the vendored axe-core (``tests/vendor/axe.min.js``) and fail on any serious or critical
violation. The colours' contrast is checked without a browser, from the style sheets: test_contrast.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from engine import GAMES
from games import tasks
from games.models import Match, Seat
from games.services import move_submit
from tests.games.browser_helpers import (
    BROWSER_MARKS,
    DESKTOP,
    MOVE_BUTTON,
    PHONE,
    STEP_TIMEOUT_MS,
    VERSION_INPUT,
    page_version,
    sign_in_as,
)
from tests.games.factories import UserFactory, make_match, play_engine_moves, quick_options

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "vendor" / "axe.min.js"

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")
# The browser and live-server fixtures come from tests/conftest.py (the live server with eager bots from
# tests/games/conftest.py); the marks (browser, slow, skipped without chromium) from the helpers.

SERIOUS = {"serious", "critical"}


def browser_test(function: Any) -> Any:
    """Marked as test_browser's tests are: browser, slow, skipped without chromium outside CI."""
    for mark in BROWSER_MARKS:
        function = mark(function)
    return function


def _axe(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " + (n.failureSummary || ""))}));
        }"""
    )
    return [v for v in found if v["impact"] in SERIOUS]


def _logged_in(chromium: Any, base_url: str, user: Any, **options: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = chromium.new_context(viewport=DESKTOP, **options)
    sign_in_as(context, base_url, client.cookies["sessionid"].value)
    return context


def _match_on_my_turn(game: str, user: Any, moves: int = 2) -> Match:
    match = make_match(game, users=[user], level="basic", options=quick_options(game))
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or 0 not in match.engine.to_act(match.state):
            break
        action = match.engine.legal_actions(match.state, 0)[0]
        move_submit(match=match, user=user, seat=0, action=action, version=match.version)
    match.refresh_from_db()
    return match


@browser_test
def test_every_main_page_has_no_serious_axe_violation(browser, site: str) -> None:
    user = UserFactory(display_name="Axe Tester")
    tables = {game: _match_on_my_turn(game, user) for game in sorted(GAMES)}
    finished = make_match(sorted(GAMES)[0], users=[user], options=quick_options(sorted(GAMES)[0]))
    play_engine_moves(finished, 0, until_over=True)
    some = tables[sorted(GAMES)[0]]
    pages = {
        "landing": ("/", None),
        "login": ("/accounts/login/", None),
        "sign up": ("/accounts/signup/", None),
        "dashboard": ("/", user),
        "new match": ("/new/", user),
        "profile": ("/me/", user),
        "log": (f"/m/{some.pk}/log/", user),
        "replay": (f"/m/{finished.pk}/replay/?ply=5", user),
        "finished table": (finished.get_absolute_url(), user),
        **{f"{game} table": (match.get_absolute_url(), user) for game, match in tables.items()},
        **{f"{game} rules": (f"/rules/{game}/", None) for game in sorted(GAMES)},
    }
    problems = {}
    # bypass_csp: axe is injected as a script of its own, which the site's CSP rightly refuses.
    anonymous = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    member = _logged_in(browser, site, user, bypass_csp=True)
    for name, (path, who) in pages.items():
        page = (member if who else anonymous).new_page()
        page.goto(site + path)
        page.wait_for_load_state()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            if violations := _axe(page):
                problems[f"{name} ({scheme})"] = violations
        page.close()
    anonymous.close()
    member.close()
    # The dashboard and the tables on a phone too, where the layout differs (one column, the felt narrower).
    phone = _logged_in(browser, site, user, bypass_csp=True)
    for name, (path, _who) in pages.items():
        if name == "dashboard" or name.endswith(" table"):
            page = phone.new_page()
            page.set_viewport_size(PHONE)
            page.goto(site + path)
            page.wait_for_load_state()
            if violations := _axe(page):
                problems[f"{name} (phone)"] = violations
            page.close()
    phone.close()
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


# Deals to try before giving up on finding a move of the wanted kind; at the first trick the player plays last, so
# nearly every deal has a card that loses the trick (the bots play on) and one that wins it (the player leads again).
SETUP_DEALS = 20


def _table_and_move(user: Any, *, bots_play_next: bool, bot_moves: int = 1) -> tuple[Match, dict[str, Any]]:
    """A Karnoffel table at ``user``'s turn and a card for them to play after which the bots play next, or (with
    ``bots_play_next=False``) after which the turn stays with them: a trick they win and lead the next from.

    Chosen from the engine, so a test does not depend on the deal; a deal without such a card is put aside (the
    player's seat no longer counts as waiting for them) and another is dealt. ``bot_moves``: at least this many bots
    play before the turn comes back (the next leader sits that many seats or more before the player).
    """
    for _ in range(SETUP_DEALS):
        match = _match_on_my_turn("karnoffel", user, moves=0)
        game = match.engine
        assert game.to_act(match.state) == [0], "the set-up needs the human's turn"
        for action in game.legal_actions(match.state, 0):
            after = game.to_act(game.apply(match.state, 0, action))
            if (0 not in after) is bots_play_next and (not bots_play_next or match.players - after[0] >= bot_moves):
                return match, action
        Seat.objects.filter(match=match, user=user).update(awaiting=False)
    raise AssertionError(f"No deal in {SETUP_DEALS} offered a move with bots_play_next={bots_play_next}.")


def _move_button(page: Any, action: dict[str, Any]) -> Any:
    values = page.eval_on_selector_all(MOVE_BUTTON, "buttons => buttons.map(b => b.value)")
    chosen = [i for i, value in enumerate(values) if json.loads(value) == action]
    assert len(chosen) == 1, f"the panel offers {values}, not exactly one {action}"
    return page.locator(MOVE_BUTTON).nth(chosen[0])


def _wait_for_new_table(page: Any, version: str | None) -> None:
    """Until htmx swapped in a table of another version (or one without a move form: waiting for the bots)."""
    page.wait_for_function(
        "([s, v]) => { const f = document.querySelector(s); return !f || f.value !== v; }",
        arg=[VERSION_INPUT, version],
        timeout=STEP_TIMEOUT_MS,
    )


# Every announcement the live region made since ``_listen``: a screen reader reads each fill, so the test checks all.
LISTEN = """() => { window.announced = []; new MutationObserver(() => {
        const text = document.getElementById('announcer').textContent;
        if (text) window.announced.push(text);
    }).observe(document.getElementById('announcer'), {childList: true, characterData: true, subtree: true}); }"""


def _listen(page: Any) -> None:
    page.evaluate(LISTEN)


def _announced(page: Any, done: str) -> list[str]:
    """Each fill of the live region since ``_listen``, once the last one satisfies ``done`` (a JS test of its text)."""
    try:
        page.wait_for_function(
            f"() => window.announced.length > 0 && ({done})(window.announced[window.announced.length - 1])",
            timeout=STEP_TIMEOUT_MS,
        )
    except playwright_sync.TimeoutError:
        raise AssertionError(f"the live region said {page.evaluate('window.announced')!r}, not yet {done}") from None
    return list(page.evaluate("window.announced"))


def _expected_words(match: Match, *, since_ply: int) -> str:
    """What the reader must hear after their move at ``since_ply``, worked out from the moves as recorded: every
    later move but their own clicks, oldest first, each "<name> <text> (<kind>)." as the log shows it (the kind
    only for a move that is neither a player's nor a bot's), at most the newest five, then "Your turn."."""
    names = [s.name for s in match.seats.order_by("number")]
    moves = [
        m for m in match.moves.filter(ply__gt=since_ply).order_by("ply") if not (m.seat == 0 and m.kind == "player")
    ]
    words = [f"{names[m.seat]} {m.text}{'' if m.kind in ('player', 'bot') else f' ({m.kind})'}." for m in moves]
    return " ".join([*words[-5:], "Your turn."])


def _focused(page: Any) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id || document.activeElement.tagName : ''")


def _move_lines(match: Match, *, since_ply: int) -> tuple[list[str], str]:
    """The others' moves after ``since_ply`` as the log words them ("led 4♥", "played J♥"), and the player's one."""
    moves = list(match.moves.filter(ply__gt=since_ply).order_by("ply"))
    (mine,) = [m.text for m in moves if m.seat == 0 and m.kind == "player"]
    return [m.text for m in moves if m.seat != 0], mine


@browser_test
def test_after_a_move_the_focus_is_on_the_move_panel_and_the_bots_moves_are_read_out(browser, site: str) -> None:
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=True)
    ply = match.moves.latest("ply").ply
    other = make_match("karnoffel", users=[user], level="basic")
    Seat.objects.filter(match=other, user=user).update(awaiting=False)
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    live = page.locator("#announcer")
    assert live.get_attribute("aria-live") == "polite" and live.inner_text() == ""
    _listen(page)
    assert page.locator("#your-turn .badge").inner_text() == "1"
    # Meanwhile another table comes to this player's turn: the move's answer brings the header's count.
    Seat.objects.filter(match=other, user=user).update(awaiting=True)

    before = page_version(page)
    _move_button(page, action).focus()
    page.keyboard.press("Enter")  # the keyboard's click
    _wait_for_new_table(page, before)

    assert _focused(page) == "turn-panel", f"after the move the focus is on {_focused(page)}, not the move panel"
    # The bots play round to the player: in the move's answer, or (as in production, where they take a moment) in
    # the poll's after it. Either way the panel then offers the next move, the focus is still on it, Tab stays in it.
    page.locator(MOVE_BUTTON).first.wait_for(timeout=STEP_TIMEOUT_MS)
    assert _focused(page) == "turn-panel", f"when the turn came back the focus went to {_focused(page)}"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#turn-panel') !== null"), "Tab leaves the move panel"
    announced = _announced(page, "text => text.endsWith('Your turn.')")
    match.refresh_from_db()
    bot_lines, mine = _move_lines(match, since_ply=ply)
    # The bots' moves since the click (the trick's winner leads, the others follow up to the player), oldest first,
    # each once, then the turn: nothing more, nothing missed, whichever answer (the move's, a poll's) brought them.
    assert bot_lines and " ".join(announced) == _expected_words(match, since_ply=ply), announced
    assert f"Keys {mine}" not in " ".join(announced), "the reader's own click is not read back"
    assert page.locator("#your-turn .badge").inner_text() == "2"
    context.close()


@browser_test
def test_the_turn_coming_back_after_the_readers_own_move_is_read_out(browser, site: str) -> None:
    """A trick the player wins: nobody else moved, yet it is their turn again (to lead), and they must hear so."""
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=False)
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    _listen(page)

    before = page_version(page)
    _move_button(page, action).click()
    _wait_for_new_table(page, before)
    match.refresh_from_db()
    assert match.engine.to_act(match.state) == [0] and match.moves.latest("ply").seat == 0, "the set-up: a trick won"
    assert _announced(page, "text => text.length > 0") == ["Your turn."]
    context.close()


@browser_test
def test_the_bots_moves_that_a_later_poll_brings_are_read_out(browser, site: str, eager) -> None:
    """As in production, where bots move a moment after the player: the move's answer says "Waiting for ...", and the
    4-second poll brings the bots' moves, which are read out with the turn coming back."""
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=True)
    ply = match.moves.latest("ply").ply
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    _listen(page)

    limit, eager.limit = eager.limit, 0  # the bots queued by the move are not played with it
    before = page_version(page)
    _move_button(page, action).click()
    _wait_for_new_table(page, before)
    assert page.locator("#turn-panel").get_attribute("data-turn") == "waiting"
    match.refresh_from_db()
    waiting_for = match.engine.to_act(match.state)
    assert waiting_for and 0 not in waiting_for, "the set-up: the bots are to play"

    eager.limit = limit
    tasks.bot_move.apply(args=(match.pk, waiting_for[0], match.version))  # and the chain after it, inline
    match.refresh_from_db()
    assert 0 in match.engine.to_act(match.state), "the set-up: the bots play round to the player"
    announced = _announced(page, "text => text.endsWith('Your turn.')")
    bot_lines, mine = _move_lines(match, since_ply=ply)
    assert bot_lines and " ".join(announced) == _expected_words(match, since_ply=ply), announced
    assert f"Keys {mine}" not in " ".join(announced), "the reader's own click is not read back"
    context.close()


@browser_test
def test_it_reads_out_once_each_bot_move_that_two_polls_bring(browser, site: str, eager) -> None:
    """The race the old check lost: a poll lands halfway through the bots' replies, so their moves come in two tables.
    Each table's new moves are read out once, as they come (the first fill before the second table is asked for),
    and together they are every move since the click, none twice, then the turn."""
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=True, bot_moves=2)
    ply = match.moves.latest("ply").ply
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    _listen(page)
    limit, eager.limit = eager.limit, 0  # each bot move is played by the test, one at a time
    before = page_version(page)
    _move_button(page, action).click()
    _wait_for_new_table(page, before)
    match.refresh_from_db()
    first = match.engine.to_act(match.state)[0]
    tasks.bot_move.apply(args=(match.pk, first, match.version))
    match.refresh_from_db()
    assert 0 not in match.engine.to_act(match.state), "the set-up: another bot is still to play"
    heard_first = _announced(page, "text => text.length > 0")
    assert heard_first == [_expected_words(match, since_ply=ply).removesuffix(" Your turn.")], heard_first

    eager.limit = limit
    tasks.bot_move.apply(args=(match.pk, match.engine.to_act(match.state)[0], match.version))  # and the rest
    match.refresh_from_db()
    assert match.engine.to_act(match.state) == [0], "the set-up: the bots play round to the player"
    announced = _announced(page, "text => text.endsWith('Your turn.')")
    assert len(announced) == 2 and " ".join(announced) == _expected_words(match, since_ply=ply), announced
    context.close()


@browser_test
def test_it_reads_out_the_moves_not_the_notes_under_them_in_the_log(browser, site: str) -> None:
    """The player leads after winning a trick; the bots follow and the last of them completes it, so the log has a
    note under that move (why the trick went so). The live region reads the moves and the turn, not the notes."""
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=False)
    move_submit(match=match, user=user, seat=0, action=action, version=match.version)
    match.refresh_from_db()
    assert match.engine.to_act(match.state) == [0], "the set-up: the player leads the next trick"
    ply = match.moves.latest("ply").ply
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    _listen(page)
    before = page_version(page)
    page.locator(MOVE_BUTTON).first.click()
    _wait_for_new_table(page, before)
    announced = _announced(page, "text => text.endsWith('Your turn.')")
    match.refresh_from_db()
    assert page.locator("#log-lines .why").count() > 0, "the set-up: a note under a move in the log"
    assert " ".join(announced) == _expected_words(match, since_ply=ply), announced
    context.close()


@browser_test
def test_a_poll_does_not_overtake_the_answer_to_a_move(browser, site: str) -> None:
    """The table after a move is the move's own answer (its refusal if any, the focus on the move panel, what is read
    out). Both answer with the whole table and htmx drops the later one, whose target, the old table, is gone: a poll
    on its way while the move is would land first and the move's answer be lost."""
    user = UserFactory(display_name="Keys")
    match, action = _table_and_move(user, bots_play_next=True)
    ply = match.moves.latest("ply").ply
    context = _logged_in(browser, site, user)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    _listen(page)
    page.evaluate(
        """() => { window.swapped = [];
            document.addEventListener('htmx:afterSwap', e => {
                if (e.target.id === 'live') window.swapped.push(e.detail.requestConfig.verb); }); }"""
    )
    polled: list[str] = []

    def answer_late(route: Any) -> None:
        response = route.fetch()  # the server played the move and the bots' replies; the page does not know yet
        # The poll's timer fires now: the table it asks for is already the new one.
        polled.append(
            page.evaluate(
                """() => htmx.ajax('GET', document.getElementById('live').getAttribute('hx-get'),
                    {source: '#live', target: '#live', swap: 'outerHTML'}).then(() => window.swapped.join())"""
            )
        )
        route.fulfill(response=response)

    page.route("**/play/", answer_late)
    before = page_version(page)
    _move_button(page, action).focus()
    page.keyboard.press("Enter")
    _wait_for_new_table(page, before)
    assert polled == [""], f"the poll sent while the move was on its way swapped the table: {polled}"
    assert page.evaluate("window.swapped[0]") == "post", "the table shown is not the move's answer"
    assert _focused(page) == "turn-panel"
    announced = _announced(page, "text => text.endsWith('Your turn.')")
    match.refresh_from_db()
    assert " ".join(announced) == _expected_words(match, since_ply=ply), announced
    context.close()
