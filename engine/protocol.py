"""``Game``: what every game module provides, as a ``typing.Protocol``.

The contract (``shared/spec/engine-contract.md``) fixes ``new_match``,
``to_act``, ``legal_actions``, ``apply``, ``view``, ``is_over`` and
``outcome``; the rest are the project's conventions (``docs/engine.md``).
A game module is the object: ``engine.GAMES["karnoffel"]`` is the module
``engine.karnoffel``, and mypy checks each module against ``Game`` below.

Each game declares its own state shape (``class State(TypedDict)`` in its
module), so the protocol speaks of states as ``Any``: a protocol cannot name
one TypedDict that four different shapes all are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

# A state is the game's own TypedDict; an action is a JSON object with a "type".
State = Any
Action = dict[str, Any]


@runtime_checkable
class Game(Protocol):
    # Constants are read-only members, so a module's own narrower types fit.
    @property
    def NAME(self) -> str: ...

    @property
    def TITLE(self) -> str: ...

    @property
    def MIN_PLAYERS(self) -> int: ...

    @property
    def MAX_PLAYERS(self) -> int: ...

    @property
    def OPTIONS(self) -> list[dict[str, Any]]: ...

    # Views are allow-lists. PUBLIC_FIELDS: state keys copied into every view
    # as they are. PRIVATE_FIELDS: every other state key (hidden cards, the
    # seed, the stacked deck); no view has a key of that name.
    @property
    def PUBLIC_FIELDS(self) -> tuple[str, ...]: ...

    @property
    def PRIVATE_FIELDS(self) -> tuple[str, ...]: ...

    def validate_options(self, players: int, options: dict[str, Any] | None) -> dict[str, Any]: ...

    def new_match(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None) -> State: ...

    def to_act(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def is_over(self, state: State) -> bool: ...

    def outcome(self, state: State) -> dict[str, Any]: ...

    # The running ``scores`` of any view (a spectator's will do) on ``outcome``'s scale, as they would be if the
    # match ended now; the table's own scores where they are on that scale (``engine.cards.view_scores``).
    def running_scores(self, view: dict[str, Any]) -> list[float]: ...

    def describe(self, state: State, seat: int, action: Action) -> str: ...

    def hand_index(self, state: State) -> int: ...

    def card_label(self, code: str) -> str: ...

    def state_from_view(self, view: dict[str, Any], private: dict[str, Any]) -> State: ...

    # Why it happened: the structured reasons for what the one action from ``before`` to ``after`` settled
    # (a trick, a hand, a showdown, the match), each ``{"kind", "rule", ...public facts}``; [] for nothing.
    def reasons(self, before: State, after: State) -> list[dict[str, Any]]: ...


if TYPE_CHECKING:
    # mypy checks that each game module satisfies the protocol: a missing or
    # mistyped function is an error here, not a crash in the app.
    from engine import karnoffel, rapscallion, renfield, rentz

    _karnoffel: Game = karnoffel
    _rentz: Game = rentz
    _rapscallion: Game = rapscallion
    _renfield: Game = renfield
