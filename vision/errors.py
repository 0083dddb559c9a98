"""The vision stages' exceptions: one root, one line each."""

from __future__ import annotations


class VisionError(ValueError):
    """Root of everything the vision stages raise for bad input."""


class ImageError(VisionError):
    """An image that cannot be read or is not a colour/grey picture."""


class ConfigError(VisionError):
    """A config file that cannot be read, or names a threshold that does not exist."""
