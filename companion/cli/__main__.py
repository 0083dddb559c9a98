"""`python -m companion.cli`: the `bgcompanion` command."""

import sys

from companion.cli import main

sys.exit(main())
