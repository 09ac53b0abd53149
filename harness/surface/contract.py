"""The contract reference: per surface element, the pinned versions that know it, the cases that cover it
(or why none does), and for a hook event the stdin payload keys its cases recorded per version.

One model (``Contract``), rendered by harness/report/compat.py: the standalone ``docs/contract.md``, and a
compatibility section of the reports.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.case import Case
from harness.engine_name import EngineName
from harness.surface import coverage
from harness.surface.model import Kind, Surface, element


@dataclass(frozen=True, kw_only=True)
class Entry:
    kind: Kind
    name: str
    versions: tuple[str, ...]  # the pinned versions whose surface has it
    cases: tuple[str, ...]
    listed: str | None = None  # "unreachable: <reason>" or "backlog" when no case covers it
    payload: dict[str, tuple[str, ...]] = field(default_factory=dict)  # version -> stdin keys cases recorded


@dataclass(frozen=True, kw_only=True)
class Contract:
    versions: tuple[str, ...]
    entries: tuple[Entry, ...]

    def of(self, kind: Kind) -> list[Entry]:
        return [e for e in self.entries if e.kind == kind]


def _records(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if isinstance(value.get("hook_event_name"), str):
            yield value
    elif isinstance(value, list):
        for v in value:
            yield from _records(v)


def _payload_keys(snapshots: Path, versions: Iterable[str]) -> dict[tuple[str, str], set[str]]:
    """(event, version) -> the keys of every hook stdin payload a case saved in a file of its run
    (``hook-input.jsonl`` and the like), as claude@version's committed snapshots hold them."""
    out: dict[tuple[str, str], set[str]] = {}
    for version in versions:
        for path in sorted((snapshots / EngineName.claude(version).dir).glob("*.json")):
            try:
                files = json.loads(path.read_text()).get("files") or {}
            except (OSError, ValueError, AttributeError):
                continue
            for value in files.values() if isinstance(files, dict) else []:
                for payload in _records(value):
                    out.setdefault((payload["hook_event_name"], version), set()).update(payload)
    return out


def build(
    surfaces: list[Surface], cases: Iterable[Case], lists: coverage.Lists, *, snapshots: Path | None = None
) -> Contract:
    versions = tuple(s.version for s in surfaces)
    by = coverage.by_element(cases, surfaces)
    payloads = _payload_keys(snapshots, versions) if snapshots is not None else {}
    entries = []
    for kind in Kind:
        names = sorted(set().union(*(s.elements.get(kind, frozenset()) for s in surfaces)))
        for name in names:
            e = element(kind, name)
            listed = (
                f"unreachable: {lists.unreachable[e]}"
                if e in lists.unreachable
                else "backlog"
                if e in lists.backlog
                else None
            )
            payload = {v: tuple(sorted(payloads[(name, v)])) for v in versions if (name, v) in payloads}
            entries.append(
                Entry(
                    kind=kind,
                    name=name,
                    versions=tuple(s.version for s in surfaces if name in s.elements.get(kind, ())),
                    cases=by.get(e, ()),
                    listed=None if e in by else listed,
                    payload=payload if kind == Kind.HOOK_EVENT else {},
                )
            )
    return Contract(versions=versions, entries=tuple(entries))


def figures(contract: Contract) -> list[tuple[Kind, str, int, int, int, int]]:
    """(kind, version, elements, covered, unreachable, backlog) per kind and version."""
    out = []
    for kind in Kind:
        for v in contract.versions:
            rows = [e for e in contract.of(kind) if v in e.versions]
            if rows:
                covered = sum(1 for e in rows if e.cases)
                unreachable = sum(1 for e in rows if (e.listed or "").startswith("unreachable"))
                out.append((kind, v, len(rows), covered, unreachable, len(rows) - covered - unreachable))
    return out
