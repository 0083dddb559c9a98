"""The rules engine's exceptions: one root, each a ValueError, each message one line."""

from __future__ import annotations


class RulesError(ValueError):
    """Root of every error the rules engine raises for bad input."""


class PositionError(RulesError):
    """A position that cannot be built, or cannot be played from (see Position.status())."""


class DiceError(RulesError):
    """Dice that are not two numbers from 1 to 6."""


class NotationError(RulesError):
    """Play text that cannot be read at all (e.g. '13-8', 'bar/off/x')."""


class IllegalPlayError(RulesError):
    """Play text that reads fine but is not a legal play; the message says why."""


class IdError(RulesError):
    """A malformed Position ID, Match ID or XGID."""
