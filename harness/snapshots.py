"""A syrupy extension that stores one diff-friendly JSON file per case and engine.

Layout: ``snapshots/<engine>/<case id>.json`` (``claude@2.1.252`` -> ``claude-2.1.252``), so a
version's snapshots sit together and a diff between two versions is a diff between two folders.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation
from syrupy.types import SerializableData, SerializedData, SnapshotIndex

_PARAM = re.compile(r"\[(?P<engine>[^:\]]+):(?P<case>[^\]]+)\]$")
SNAPSHOT_ROOT: list[Path] = []  # set by the pytest plugin at configure time


def engine_dir(engine: str) -> str:
    return engine.replace("@", "-")


def _parts(test_location: PyTestLocation) -> tuple[str, str]:
    """(engine, case id) of a case test; other tests (syrupy asks about every test) get a placeholder."""
    m = _PARAM.search(test_location.testname)
    if m is None:
        return "not-a-case", test_location.testname
    return m.group("engine"), m.group("case")


class TranscriptSnapshot(SingleFileSnapshotExtension):
    file_extension = "json"
    _write_mode = WriteMode.TEXT

    def serialize(self, data: SerializableData, **kwargs: Any) -> SerializedData:
        return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        engine, _ = _parts(test_location)
        return str(SNAPSHOT_ROOT[0] / engine_dir(engine))

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: SnapshotIndex = 0) -> str:
        return _parts(test_location)[1]

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        """A snapshot file belongs to exactly one case test: the one whose engine and id it is named for."""
        engine, case = _parts(test_location)
        expected = SNAPSHOT_ROOT[0] / engine_dir(engine) / f"{case}.json"
        return Path(snapshot_location).resolve() == expected.resolve()


def read(root: Path, engine: str, case_id: str) -> dict[str, Any] | None:
    """A committed snapshot, or None."""
    path = root / engine_dir(engine) / f"{case_id}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
