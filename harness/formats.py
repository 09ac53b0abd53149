"""Format versions of the files a suite keeps: case files and results files.

A team pins cc-harness in CI while its case files and saved results outlive that pin. Each kind of file
therefore carries a format number (``format:`` in a case file, ``"format"`` in a results file's header);
a file without one was written by cc-harness 0.1.0, which is format 1. A file of an older format is brought
up to date in memory by the migrations below, one format step at a time, and the reader is told how to
rewrite it; a file of a newer format than this cc-harness reads is refused in one line naming both numbers,
never half-read. docs/upgrading.md lists what each format changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from harness.errors import UsageError

#: What 0.1.0 wrote, which had no format numbers yet.
_FIRST = 1

Migration = Callable[[dict[str, Any]], dict[str, Any]]


class FormatError(UsageError, ValueError):
    """A file's format number is not one this cc-harness can read: the message names the file and both numbers."""


@dataclass(frozen=True)
class FileFormat:
    """One kind of file: its current format and the step from each older format to the next."""

    kind: str
    current: int
    migrations: Mapping[int, Migration] = field(default_factory=dict)
    """``n -> function`` turning the data of format ``n`` into format ``n + 1``."""
    rewrite: str = ""
    """What a person runs or does to rewrite an old file in the current format."""

    def version_of(self, found: object, *, where: str) -> int:
        """The format a file says it has (none: FIRST); a FormatError for a bad or too new one."""
        if found is None:
            return _FIRST
        if isinstance(found, bool) or not isinstance(found, int) or found < _FIRST:
            raise FormatError(f"{where}: format: {found!r} is not a format number (a whole number from {_FIRST})")
        if found > self.current:
            raise FormatError(
                f"{where}: {self.kind} format {found} is newer than cc-harness {installed_version()} reads"
                f" (format {self.current}): upgrade cc-harness to read it"
            )
        return found

    def upgrade(self, data: dict[str, Any], *, where: str) -> tuple[dict[str, Any], str | None]:
        """The data in the current format, and a note for a file that was older (None when it was current)."""
        found = self.version_of(data.get("format"), where=where)
        for step in range(found, self.current):
            data = self.migrations[step](data)
        if found == self.current:
            return data, None
        return data, f"{where}: {self.kind} format {found}, read as format {self.current}; {self.rewrite}"


def installed_version() -> str:
    try:
        return metadata.version("cc-harness")
    except metadata.PackageNotFoundError:
        return "(not installed)"


CASE = FileFormat(
    kind="case file",
    current=1,
    rewrite="rewrite it as docs/upgrading.md says for each format since, and set format: to the new number",
)
RESULTS = FileFormat(
    kind="results file",
    current=1,
    rewrite="run the cases again to write a results file in the current format",
)
