"""One engine name as a value: a family (``reference``, ``claude``, ``sdk``) and an optional version.

Engine names are parsed here once, where they come in (``--engine``, the suite's ``engines`` and
``pinned``, a results file), and carried as ``EngineName``; the text form (``claude@2.1.252``,
``reference``) is what results files, snapshots folders and messages show, and it is the same text as
before the value existed, so older results files still load. Whether a family exists is the engine
registry's question (harness/engines/families.py); this module only checks the form, so that a name
like ``claude@../../etc`` is refused before it can become a path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

from harness.errors import UsageError
from harness.versions import is_version

_FAMILY = re.compile(r"^[a-z][a-z0-9-]*$")


@total_ordering
@dataclass(frozen=True)
class EngineName:
    """``EngineName("claude", "2.1.252")`` is ``claude@2.1.252``; ``EngineName("reference")`` is ``reference``."""

    family: str
    version: str | None = None

    def __post_init__(self) -> None:
        if not _FAMILY.fullmatch(self.family):
            raise UsageError(f"unknown engine {self.text()!r}: {self.family!r} is no engine family (e.g. claude)")
        if self.version is not None and not is_version(self.version):
            raise UsageError(f"unknown engine {self.text()!r}: {self.version!r} is no version number (e.g. 2.1.252)")

    @classmethod
    def parse(cls, text: str) -> EngineName:
        """``family`` or ``family@VERSION``; a one-line UsageError for anything else."""
        family, at, version = text.strip().partition("@")
        if at and not version:
            raise UsageError(f"unknown engine {text!r}: no version after '@' (e.g. claude@2.1.252)")
        return cls(family, version if at else None)

    @classmethod
    def claude(cls, version: str) -> EngineName:
        return cls("claude", version)

    def at(self, version: str | None) -> EngineName:
        """The same family at another version (``reference@V`` from ``claude@V``)."""
        return EngineName(self.family, version)

    def text(self) -> str:
        return f"{self.family}@{self.version}" if self.version is not None else self.family

    def __str__(self) -> str:
        return self.text()

    def __lt__(self, other: object) -> bool:
        """Names sort as their text does (``claude@2.1.252`` before ``reference``), as results files list them."""
        if not isinstance(other, EngineName):
            return NotImplemented
        return self.text() < other.text()

    @property
    def dir(self) -> str:
        """The name as a file or folder name: ``claude@2.1.252`` -> ``claude-2.1.252``."""
        return self.text().replace("@", "-")


def _version_of(engine: str) -> str:
    """The version of an engine name in its text form (``claude@2.1.252`` -> ``2.1.252``; ``""`` for none)."""
    return EngineName.parse(engine).version or ""
