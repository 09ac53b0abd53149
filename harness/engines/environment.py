"""The environment an engine process gets: an allowlist of the caller's, never the whole of it.

Both engines hand the same environment to what they start (Bash, hooks, MCP servers), so a secret in
the caller's environment reaches neither a tool nor a results file. The run's cookie
(``harness.processes``) is in it too, so that everything the engine starts can be found and stopped.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from harness.processes import COOKIE

#: The caller's variables an engine sees (the rest of the caller's environment stays out).
_PASS_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


def passed_env() -> dict[str, str]:
    """The allowlisted variables of the caller's environment."""
    return {k: os.environ[k] for k in _PASS_ENV if k in os.environ}


def base_env(*, home: Path, tmp: Path, case_env: Mapping[str, str], cookie: str) -> dict[str, str]:
    """The allowlisted variables, HOME, a private TMPDIR (the engine's scratch goes with the run's folder),
    the case's own ``run.env``, and the run's cookie last (a case cannot unset it and escape the cleanup)."""
    env = passed_env()
    env.update(HOME=str(home), TMPDIR=str(tmp))
    env.update(case_env)
    env[COOKIE] = cookie
    return env
