"""What the games app tells the apps above it; games never imports them.

``match_finished`` is sent with ``match_id`` once the transaction that ended the match has
committed, so a receiver reads the finished match. A receiver should only queue work: the
database is the truth, and a periodic sweep in the receiving app finds what a lost message missed.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()
