"""The `bgcompanion` command line: `main` (companion.cli.entry) builds the parser from one
module per command group, each standing on companion.cli.common alone."""

from companion.cli.entry import main

__all__ = ["main"]
