"""Bot moves played inline in a bounded loop, where production queues each as a task of its own (the
``eager`` fixture, tests/conftest.py)."""

from __future__ import annotations

import logging

# An inline bot chain stops after this many moves (a worker's queue has no such bound): a bug cannot hang the run.
MAX_INLINE_BOT_MOVES = 5000

log = logging.getLogger(__name__)


class InlineBots:
    """Stands in for queueing ``games.tasks.bot_move``: the queued moves are played here, one after another.

    Production always queues each bot move as a task of its own. Run eagerly instead, a bot move that
    commits would run the next one inside its own on-commit callback, a recursion as deep as the
    match. So a move queued while others are being played waits its turn in ``queue``, and the first
    call plays them all in a loop bounded by ``limit``.
    """

    def __init__(self, limit: int = MAX_INLINE_BOT_MOVES) -> None:
        self.limit = limit
        self.queue: list[tuple[int, int, int]] = []
        self.played = 0
        self._playing = False

    def apply_async(self, args: tuple[int, int, int], kwargs: object = None, **options: object) -> None:
        from games import tasks

        self.queue.append(tuple(args))
        if self._playing:
            return
        self._playing, moves = True, 0
        try:
            while self.queue:
                if moves >= self.limit:
                    log.warning("Stopped an inline bot chain after %s moves at match %s", moves, self.queue[0][0])
                    self.queue.clear()
                    break
                tasks.bot_move.apply(args=self.queue.pop(0))
                moves += 1
                self.played += 1
        finally:
            self._playing = False
