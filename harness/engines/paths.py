"""Where real engines come from and live: the npm package and the cache root.

Kept apart from install.py so that the npm registry's version list (registry.py), the installer and
the cache's pruning all import it and none imports another in a circle.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"


def cache_root() -> Path:
    """``$CC_HARNESS_CACHE``, else ``$XDG_CACHE_HOME/cc-harness``, else ``~/.cache/cc-harness``."""
    if env := os.environ.get("CC_HARNESS_CACHE"):
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "cc-harness"
