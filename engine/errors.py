"""The engine's one exception."""


class IllegalAction(ValueError):
    """An action that is not in ``legal_actions``; the message is for players."""
