"""Load a case file: read its YAML, upgrade an older format, validate it against the schema and build the typed
case. A broken case fails naming the file and the field path."""

from __future__ import annotations

from pathlib import Path

import yaml

from harness import formats
from harness.case.build import build
from harness.case.paths import CASE_FILE, parsed_case_file
from harness.case.spec import Case
from harness.case.validate import first_error
from harness.claims import Catalogue
from harness.errors import CaseFormatError


def load_case(directory: Path, *, catalogue: Catalogue | None = None) -> Case:
    """Read ``directory/case.yaml``; raise CaseFormatError naming the file and field on any fault.

    With a claims ``catalogue`` (the suite's), ``claims``, ``source`` and ``documented_for`` are required
    and every claim id must be in it; without one they are optional and claims are free labels."""
    path = directory / CASE_FILE
    shown = str(path)
    try:
        raw = parsed_case_file(path, path.stat().st_mtime_ns)
    except FileNotFoundError:
        raise CaseFormatError(path=shown, field="(file)", message="no case file in this directory") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "(file)"
        raise CaseFormatError(path=shown, field=where, message=f"not valid YAML: {exc}") from None
    if isinstance(raw, dict):  # anything else is the schema's to refuse, below
        try:
            raw, _older = formats.CASE.upgrade(raw, where=shown)
        except formats.FormatError as exc:
            raise CaseFormatError(path=shown, field="format", message=str(exc).removeprefix(f"{shown}: ")) from None
    if (error := first_error(raw)) is not None:
        raise CaseFormatError(path=shown, field=error[0], message=error[1])
    return build(raw, directory=directory, shown=shown, catalogue=catalogue)
