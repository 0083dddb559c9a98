"""The `bgcompanion` command called in this process: for tests that run it hundreds of times.

Bad input must end in exit status 2 and one line on stderr, never a traceback; an
exception escaping `main()` here is the traceback a user would have seen.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from dataclasses import dataclass

from companion.cli import main


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


def bgcompanion(*args: str, stdin: str = "") -> Result:
    """Runs `bgcompanion ARGS` with `stdin`; its exit status, stdout and stderr (what
    Python printed, then what C libraries such as libjpeg wrote to file descriptor 2)."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin, saved_fd = sys.stdin, os.dup(2)
    sys.stdin = io.StringIO(stdin)
    with tempfile.TemporaryFile() as native:
        os.dup2(native.fileno(), 2)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(list(args))
                except SystemExit as e:  # argparse's --help and --version
                    code = e.code if isinstance(e.code, int) else 1
        finally:
            sys.stdin = saved_stdin
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        native.seek(0)
        below = native.read().decode("utf-8", "replace")
    return Result(code, out.getvalue(), err.getvalue() + below)


def refused_in_one_line(result: Result, *words: str) -> None:
    """Exit status 2 with one line on stderr holding every one of `words`."""
    assert result.code == 2, (result.code, result.stderr)
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n"), result.stderr
    assert result.stderr.startswith("bgcompanion: error: "), result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)
