"""The environment an engine process gets: an allowlist of the caller's, never the whole of it.

Both engines hand the same environment to what they start (Bash, hooks, MCP servers), so a secret in
the caller's environment reaches neither a tool nor a results file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: The caller's variables an engine sees (the rest of the caller's environment stays out).
PASS_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


def base_env(*, home: Path, tmp: Path, case_env: Mapping[str, str]) -> dict[str, str]:
    """The allowlisted variables, HOME, a private TMPDIR (the engine's scratch goes with the run's folder),
    and the case's own ``run.env`` last."""
    env = {k: os.environ[k] for k in PASS_ENV if k in os.environ}
    env.update(HOME=str(home), TMPDIR=str(tmp))
    env.update(case_env)
    return env
