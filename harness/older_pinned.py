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
6. V's committed snapshot differs from N's in a field whose change no two other cases share: anywhere
   but in the engine's name, the built-in tool list every case of V shows (``compare.widespread``: a
   release adds or drops tools for every conversation), and a field changed the same way (the same words
   inserted, deleted or replaced) in three cases or more: a change of the release between V and N, such
   as a reworded hook error or a frame around a subagent's report, that the timeline names once;
7. it is the first case (by id) that shows one of those shared changes: each change of the release is
   still run on V, once;
8. a file of the case (its folder, ``fixture_from`` case, ``home``) is changed or new in the git working
   tree: a case being edited runs on every pinned version.

Why nothing is hidden that a local run could have caught cheaply: an engine release is a fixed binary, so
V's answer to an unchanged case changes only with the harness or the case. A case change shows on N
(its snapshot must be updated, and then V's differs from it: rule 6, or all its checks are replayed on
V's snapshot: rule 5), and runs everywhere while it is uncommitted (rule 8). A harness change shows on N
for every case whose V transcript is N's up to shared changes of the release; what it could change in
those shared changes shows in the case that runs each of them (rule 7), and what it could change on V
alone shows in the cases V runs. The conformance run in CI (``cc-harness run --engine reference,pinned``)
still runs every case on every pinned version.
"""

from __future__ import annotations

import difflib
import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from harness import baseline, snapshots
from harness.case import BrokenCase, Case
from harness.changes import CaseChange, FieldChange
from harness.compare import transcript_changes, widespread, without
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.outcome import Status
from harness.versions import newest, version_key

#: The suffix of an ``--engine`` name that narrows an older pinned version to the cases that may differ.
SUFFIX = ":changed"
#: A field change seen in this many cases or more is the release's, not the case's (as for tool lists).
_SHARED_IN = 3
#: Words, runs of white space, and single other characters: a change is compared word by word, so that
#: "hook error: X" and "hook error: Y" share nothing but the words around X and Y.
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")

#: What a field change does, without where: its kind and the words it inserts, deletes or replaces.
Edit = tuple[str, frozenset[tuple[str, str, str]]]


@cache
def _edit_of(change: FieldChange) -> Edit:
    """The word-level edit that turns ``change.new`` into ``change.old`` (the newest version's text into
    the older one's), as a value two cases share when the release changed both the same way."""
    new, old = _TOKEN.findall(change.new), _TOKEN.findall(change.old)
    matcher = difflib.SequenceMatcher(None, new, old, autojunk=False)
    steps = frozenset(
        (op, "".join(new[i:j]), "".join(old[k:m])) for op, i, j, k, m in matcher.get_opcodes() if op != "equal"
    )
    return change.kind, steps


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


@dataclass(kw_only=True, eq=False)  # hashed by identity: its methods cache per selection
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
    def _ids(self) -> list[str]:
        """Every case with a committed snapshot on the newest version, by id."""
        folder = self.snapshot_root / EngineName.claude(self.newest).dir
        return sorted(p.stem for p in folder.glob("*.json"))

    @cache  # noqa: B019  # one selection per session: the snapshots are read and compared once
    def _changes(self, version: str) -> dict[str, tuple[FieldChange, ...]]:
        """Per case with a snapshot on both, the fields where ``version``'s snapshot differs from the
        newest's, beyond the tool-list changes seen in three cases or more (``compare.widespread``)."""
        found = {i: c for i in self._ids if (c := self._change(i, version)) is not None}
        common = widespread(found.values())
        return {i: without(c, common).fields for i, c in found.items()}

    @cache  # noqa: B019
    def _shared(self, version: str) -> dict[Edit, str]:
        """Each edit seen in ``_SHARED_IN`` cases or more on ``version``, with the first of them by id (the
        case that runs it on that version)."""
        seen: dict[Edit, list[str]] = {}
        for case_id, fields in self._changes(version).items():
            for edit in {_edit_of(f) for f in fields}:
                seen.setdefault(edit, []).append(case_id)
        return {e: ids[0] for e, ids in seen.items() if len(ids) >= _SHARED_IN}

    @cache  # noqa: B019
    def _snapshot(self, version: str, case_id: str) -> dict[str, Any] | None:
        return snapshots.read(self.snapshot_root, EngineName.claude(version), case_id)

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
        engine = EngineName.claude(version)
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
        shared = self._shared(version)
        fields = self._changes(version)[case.id]
        if own := [f.where for f in fields if _edit_of(f) not in shared]:
            return f"its snapshot differs from {self.newest}'s at {own[0]}"
        if first := [f.where for f in fields if shared[_edit_of(f)] == case.id]:
            same = f"the cases whose snapshot differs from {self.newest}'s the same way"
            return f"it is the first of {same}, at {first[0]}"
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


def _counts(selection: OlderPinned, cases: Iterable[Case | BrokenCase]) -> dict[str, int]:
    """How many of ``cases`` each older version runs."""
    listed = list(cases)
    return {v: sum(selection.reason(c, v) is not None for c in listed) for v in selection.older}
