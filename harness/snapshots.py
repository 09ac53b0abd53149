"""A syrupy extension that stores one diff-friendly JSON file per case and engine.

Layout: ``<suite snapshots>/<engine>/<case id>.json`` (``claude@2.1.252`` -> ``claude-2.1.252``), so a
version's snapshots sit together and a diff between two versions is a diff between two folders. The
folder comes from the suite configuration of the test's pytest run (the plugin stashes it), never from
where cc-harness is installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation
from syrupy.types import SerializableData, SerializedData, SnapshotIndex

from harness.case import BrokenCase, Case
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.results import Record

#: Where the pytest plugin keeps the suite's snapshot folder for the extension to find.
SNAPSHOT_ROOT = pytest.StashKey[Path]()


#: The engine of a test that is no case test (syrupy asks every test where its snapshots would be).
_NO_CASE = EngineName("not-a-case")


def _parts(test_location: PyTestLocation) -> tuple[Path, EngineName, str]:
    """(snapshot root, engine, case id) of a case test."""
    item = test_location.item
    return item.config.stash[SNAPSHOT_ROOT], getattr(item, "engine", _NO_CASE), getattr(item, "case_id", "")


def path_for(root: Path, engine: EngineName, case_id: str) -> Path:
    return root / engine.dir / f"{case_id}.json"


class TranscriptSnapshot(SingleFileSnapshotExtension):
    file_extension = "json"
    _write_mode = WriteMode.TEXT

    def serialize(self, data: SerializableData, **kwargs: Any) -> SerializedData:
        return dump(data)

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        root, engine, _ = _parts(test_location)
        return str(root / engine.dir)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: SnapshotIndex = 0) -> str:
        return _parts(test_location)[2]

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        """A snapshot file belongs to exactly one case test: the one whose engine and id it is named for."""
        root, engine, case = _parts(test_location)
        return Path(snapshot_location).resolve() == path_for(root, engine, case).resolve()


def dump(transcript: Any) -> str:
    """A transcript as its snapshot file's text (what ``--snapshot-update`` and ``--accept`` write)."""
    return json.dumps(transcript, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def read(root: Path, engine: EngineName, case_id: str) -> dict[str, Any] | None:
    """A committed snapshot, or None; one that is no transcript (not UTF-8 JSON holding an object) is a
    one-line error naming the file, as the reports, ``check`` and pytest's older-version rule read it."""
    path = path_for(root, engine, case_id)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{path}: not a snapshot ({type(exc).__name__}: {str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: not a snapshot (a JSON {type(data).__name__}, not an object)")
    return data


def compared(found: Case | BrokenCase, record: Record) -> bool:
    """Whether a run's transcript is compared with its snapshot: an intermittent case's transcript changes
    from run to run (as a case with ``one_of`` says of itself), so its snapshot records one outcome and is
    not compared; a run with no transcript (a fault) has nothing to compare."""
    if record.transcript is None:
        return False
    either_way = isinstance(found, Case) and found.answers_either_way
    return not (either_way or any(f.intermittent for f in record.findings))


def mismatch(root: Path, found: Case | BrokenCase, record: Record) -> str | None:
    """What ``pytest`` would say of this run's snapshot, in one line: None when it matches (or is not
    compared), else ``no snapshot yet`` or the first field where the transcript differs."""
    if not compared(found, record):
        return None
    path = path_for(root, record.engine, record.case)
    if not path.is_file():
        return f"no snapshot yet ({path.name} under {path.parent})"
    saved = path.read_text(encoding="utf-8")
    if saved == dump(record.transcript):
        return None
    return (
        f"the transcript differs from its snapshot {path} at {_first_difference(json.loads(saved), record.transcript)}"
    )


def _first_difference(a: Any, b: Any, at: str = "") -> str:
    """The path of the first place two JSON values differ (``steps[0].turns[1].text``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if a.get(key, _MISSING) != b.get(key, _MISSING):
                return _first_difference(a.get(key), b.get(key), f"{at}.{key}" if at else str(key))
    elif isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return _first_difference(x, y, f"{at}[{i}]")
        if len(a) != len(b):
            return f"{at} ({len(a)} items in the snapshot, {len(b)} in this run)"
    return at or "the top level"


_MISSING = object()
