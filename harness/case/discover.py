"""The cases of a folder: each loaded, or broken on its own (one bad file does not stop the rest)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness.case.load import load_case
from harness.case.paths import CASE_FILE
from harness.case.spec import Case
from harness.claims import Catalogue
from harness.errors import CaseFormatError, UsageError


@dataclass(frozen=True, kw_only=True)
class BrokenCase:
    """A case folder whose case file or fixture could not be loaded: it fails alone, as a case-error."""

    id: str
    directory: Path
    error: CaseFormatError

    @property
    def case_file(self) -> Path:
        return self.directory / CASE_FILE


def _case_folders(root: Path) -> list[Path]:
    """The folders under ``root`` (one level) that hold a case file, sorted."""
    if not root.is_dir():
        raise UsageError(f"{root}: no such folder of cases (set cases = ... in the suite configuration)")
    return sorted(d for d in root.iterdir() if (d / CASE_FILE).is_file())


def load_or_broken(directory: Path, *, catalogue: Catalogue | None) -> Case | BrokenCase:
    """The case in ``directory``, or what is wrong with it; ``contrast_of`` must name a sibling case."""
    try:
        case = load_case(directory, catalogue=catalogue)
        if case.contrast_of and not (directory.parent / case.contrast_of / CASE_FILE).is_file():
            raise CaseFormatError(
                path=str(case.case_file), field="contrast_of", message=f"no case {case.contrast_of!r} beside this one"
            )
        return case
    except CaseFormatError as exc:
        return BrokenCase(id=directory.name, directory=directory, error=exc)


def scan_cases(root: Path, *, catalogue: Catalogue | None = None) -> list[Case | BrokenCase]:
    """Every case under ``root``, each loaded or broken on its own (one bad file does not stop the rest)."""
    return [load_or_broken(d, catalogue=catalogue) for d in _case_folders(root)]


def discover_cases(root: Path, *, catalogue: Catalogue | None = None) -> Iterator[Case]:
    """Every case under ``root`` (one directory level), sorted by id; the first broken one raises."""
    for found in scan_cases(root, catalogue=catalogue):
        if isinstance(found, BrokenCase):
            raise found.error
        yield found
