"""The link's deadlines made short for tests of a unit going silent and coming back.

They stand for the real ones (sync 1 s, back-off capped at 1 s, missing after 2 s),
scaled so that a silence past the old 20-try limit takes a fraction of a second.
"""

from __future__ import annotations

from companion.link.client import Deadlines

SILENCE = Deadlines(
    reply_s=0.1,
    sync_s=0.1,
    sync_resend_s=0.03,
    keepalive_s=0.05,
    backoff_first_s=0.005,
    backoff_max_s=0.02,
    missing_s=0.3,
)
