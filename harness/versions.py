"""Engine version numbers: what a version looks like, how versions sort, and which is the newest.

Every module that compares or picks versions asks here, so "the newest pinned version" means the same
thing in the CLI, the pytest plugin, the baseline of ``check`` and the reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The form claude is published under on npm (``MAJOR.MINOR.PATCH``, no pre-release suffix).
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")


def is_version(v: str) -> bool:
    """Whether ``v`` is a version number claude is published under, e.g. ``2.1.252``."""
    return _VERSION.fullmatch(v) is not None


def version_key(version: str) -> tuple[int, ...]:
    """A sort key: ``2.1.99`` before ``2.1.110``. Raises ValueError for text that is no version."""
    return tuple(int(p) for p in version.split("."))


def newest(versions: Iterable[str]) -> str | None:
    """The highest of ``versions`` by number (None for none): the suite's newest pinned version, whatever
    order the configuration lists them in."""
    return max(versions, key=version_key, default=None)
