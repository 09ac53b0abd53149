"""Which cases an older pinned claude version runs when ``pytest --engine`` names it ``claude@V:changed``.

``claude@V:changed`` (or ``pinned:changed``: the newest pinned version on every case, each older one
narrowed) runs an older pinned version V only on the cases where what the repository knows says V may
behave differently from the newest pinned version N, or where it cannot tell:

1. the case is broken, or has no committed snapshot on V or on N (nothing to compare; a new case);
2. ``expectations/claude-V.yaml`` lists it (a known difference, or an intermittent one);
3. it answers either way (``one_of``): no single transcript stands for it;
4. it checks the debug log, which no snapshot holds;
5. V's committed snapshot, replayed through the case file as it is now and V's expectations, is not a
   pass (the case's checks were edited since V's run was recorded; ``check``'s baseline does the same);
6. V's committed snapshot differs from N's anywhere but in the engine's name and the built-in tool list
   every case of V shows (``compare.widespread``: a release adds or drops tools for every conversation);
7. a file of the case (its folder, ``fixture_from`` case, ``home``) is changed or new in the git working
   tree: a case being edited runs on every pinned version.

Why nothing is hidden that a local run could have caught cheaply: an engine release is a fixed binary, so
V's answer to an unchanged case changes only with the harness or the case. A case change shows on N
(its snapshot must be updated, and then V's differs from it: rule 6) or in the replayed checks (rule 5),
and runs everywhere while it is uncommitted (rule 7). A harness change shows on N for every case whose V
transcript is N's; what it could change on V alone shows in the cases V runs. The conformance run in CI
(``cc-harness run --engine reference,pinned``) still runs every case on every pinned version.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from harness import baseline, snapshots
from harness.case import BrokenCase, Case
from harness.changes import CaseChange, Widespread
from harness.compare import transcript_changes, widespread, without
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.outcome import Status
from harness.versions import newest, version_key

#: The suffix of an ``--engine`` name that narrows an older pinned version to the cases that may differ.
SUFFIX = ":changed"


def split(specs: str | Sequence[str], *, pinned: Sequence[str]) -> tuple[list[str], set[str]]:
    """``--engine``'s names without their ``:changed`` suffix, and the versions the suffix narrows (the
    older pinned ones it names; on the newest pinned version it narrows nothing)."""
    items = specs.split(",") if isinstance(specs, str) else [p for s in specs for p in s.split(",")]
    top = newest(pinned)
    names: list[str] = []
    narrowed: set[str] = set()
    for item in (i.strip() for i in items):
        if not item.endswith(SUFFIX):
            names.append(item)
            continue
        base = item.removesuffix(SUFFIX)
        versions = list(pinned) if base == "pinned" else [EngineName.parse(base).version or ""]
        if base != "pinned" and (EngineName.parse(base).family != "claude" or versions[0] not in pinned):
            raise UsageError(
                f"--engine {item}: {SUFFIX} narrows a pinned claude version (pinned: {', '.join(pinned) or 'none'})"
            )
        names.append(base)
        narrowed |= {v for v in versions if v != top}
    return names, narrowed


@dataclass(kw_only=True)
class OlderPinned:
    """The selection for one suite: ``reason(case, version)`` says why an older version runs a case."""

    pinned: Sequence[str]
    snapshot_root: Path
    expectations: Expectations
    edited: frozenset[Path] = frozenset()
    """Files the git working tree has changed or added (resolved paths)."""

    @property
    def newest(self) -> str:
        found = newest(self.pinned)
        assert found is not None, "a suite with no pinned version has no older one"
        return found

    @property
    def older(self) -> list[str]:
        return sorted((v for v in self.pinned if v != self.newest), key=version_key)

    @cached_property
    def _common(self) -> dict[str, list[Widespread]]:
        """Per older version, the tool-list changes from the newest seen in three cases or more (over every
        case with a snapshot on both)."""
        folder = self.snapshot_root / EngineName.claude(self.newest).dir
        ids = sorted(p.stem for p in folder.glob("*.json"))
        return {v: widespread(c for i in ids if (c := self._change(i, v)) is not None) for v in self.older}

    def _snapshot(self, version: str, case_id: str) -> dict[str, Any] | None:
        return snapshots.read(self.snapshot_root, EngineName.claude(version).text(), case_id)

    def _change(self, case_id: str, version: str) -> CaseChange | None:
        """What differs between ``version``'s committed snapshot and the newest version's."""
        old, new = self._snapshot(version, case_id), self._snapshot(self.newest, case_id)
        if old is None or new is None:
            return None
        fields = tuple(transcript_changes(old, new))
        return CaseChange(case=case_id, claims=(), old_status=None, new_status=None, fields=fields)

    def reason(self, case: Case | BrokenCase, version: str) -> str | None:
        """Why ``version`` (an older pinned one) runs ``case``; None when its behaviour is known to be the
        newest version's."""
        engine = EngineName.claude(version).text()
        if isinstance(case, BrokenCase):
            return "the case is broken"
        if _touches(case, self.edited):
            return "its files are changed in the git working tree"
        old, new = self._snapshot(version, case.id), self._snapshot(self.newest, case.id)
        if old is None or new is None:
            return f"no committed snapshot on {version if old is None else self.newest}"
        if self.expectations.listed(engine, case.id):
            return f"{self.expectations.file_for(engine).name} lists it"
        if case.answers_either_way:
            return "it answers either way (one_of)"
        if case.debug_log is not None:
            return "it checks the debug log, which no snapshot holds"
        replayed = baseline.replay(case, engine=EngineName.claude(version), transcript=old, listed=[]).status
        if replayed is not Status.PASS:
            return f"its snapshot on {version}, checked against the case file as it is now, is {replayed.value}"
        change = self._change(case.id, version)
        assert change is not None
        fields = [f.where for f in without(change, self._common[version]).fields]
        if fields:
            return f"its snapshot differs from {self.newest}'s at {fields[0]}"
        return None


def _touches(case: Case, edited: frozenset[Path]) -> bool:
    folders = [case.directory, case.fixture_from, case.home, case.base_home]
    roots = [f.resolve() for f in folders if f is not None]
    return any(p == r or r in p.parents for p in edited for r in roots)


def git_edited(folder: Path) -> frozenset[Path]:
    """The files under ``folder`` that git reports as changed, staged or untracked (none outside git)."""
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, check=False, timeout=60
        )
        done = subprocess.run(
            ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "."],
            cwd=folder,
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    if top.returncode != 0 or done.returncode != 0:
        return frozenset()
    root = Path(top.stdout.decode(errors="surrogateescape").strip())
    out = set()
    entries = iter(done.stdout.split(b"\0"))
    for entry in entries:
        if len(entry) < 4:
            continue
        status, name = entry[:2], entry[3:]
        out.add((root / name.decode(errors="surrogateescape")).resolve())
        if b"R" in status or b"C" in status:
            next(entries, None)  # a rename's or copy's old name follows it
    return frozenset(out)


def counts(selection: OlderPinned, cases: Iterable[Case | BrokenCase]) -> dict[str, int]:
    """How many of ``cases`` each older version runs."""
    listed = list(cases)
    return {v: sum(selection.reason(c, v) is not None for c in listed) for v in selection.older}
