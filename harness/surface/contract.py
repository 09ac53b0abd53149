"""The contract reference: per surface element, the pinned versions that know it, the cases that cover it
(or why none does), and for a hook event the stdin payload keys its cases recorded per version.

One model (``Contract``) rendered twice: the standalone ``docs/contract.md`` here, and a compatibility
section of the reports (``harness/report/compat.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.case import Case
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


def payload_keys(snapshots: Path, versions: Iterable[str]) -> dict[tuple[str, str], set[str]]:
    """(event, version) -> the keys of every hook stdin payload a case saved in a file of its run
    (``hook-input.jsonl`` and the like), as claude@version's committed snapshots hold them."""
    out: dict[tuple[str, str], set[str]] = {}
    for version in versions:
        for path in sorted((snapshots / f"claude-{version}").glob("*.json")):
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
    payloads = payload_keys(snapshots, versions) if snapshots is not None else {}
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


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _cases(entry: Entry, link: Callable[[str], str], limit: int) -> str:
    if not entry.cases:
        return _cell(entry.listed or "none")
    shown = ", ".join(f"[{c}]({link(c)})" for c in entry.cases[:limit])
    more = len(entry.cases) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def table_lines(contract: Contract, kind: Kind, link: Callable[[str], str], *, limit: int = 4) -> list[str]:
    """One Markdown table: the element, ✓ or — per pinned version, the cases (or why none)."""
    lines = [
        "| " + " | ".join(["element", *contract.versions, "cases"]) + " |",
        "|---" * (len(contract.versions) + 2) + "|",
    ]
    for e in contract.of(kind):
        marks = ["✓" if v in e.versions else "—" for v in contract.versions]
        lines.append(f"| `{_cell(e.name)}` | " + " | ".join(marks) + f" | {_cases(e, link, limit)} |")
    return lines


def _payloads(contract: Contract) -> list[str]:
    events = [e for e in contract.of(Kind.HOOK_EVENT) if e.payload]
    if not events:
        return []
    lines = [
        "",
        "### Hook stdin payloads, as the cases recorded them",
        "",
        "The keys of the JSON a hook read on stdin, from the files the cases' hooks saved (committed snapshots).",
        "",
        "| event | version | keys |",
        "|---|---|---|",
    ]
    for e in events:
        for version, keys in e.payload.items():
            lines.append(f"| {e.name} | {version} | {', '.join(f'`{k}`' for k in keys)} |")
    return lines


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


def render_markdown(contract: Contract, *, link: Callable[[str], str]) -> str:
    lines = [
        "# The contract, per release",
        "",
        "<!-- Generated by `cc-harness coverage --contract docs/contract.md`: do not edit by hand. -->",
        "",
        "What each pinned claude release knows, read from the release itself (`cc-harness surface V`; files in",
        "[docs/surface/](surface/)), and the cases that exercise each element. ✓ the release knows it, — it does",
        "not. An element without a case is either unreachable offline (the reason is given) or on the backlog.",
        "Kinds and how cases are matched to elements: [docs/case-format.md](case-format.md#surface-coverage-features).",
    ]
    for kind in Kind:
        if contract.of(kind):
            lines += ["", f"## {kind.title}", "", *table_lines(contract, kind, link)]
            if kind == Kind.HOOK_EVENT:
                lines += _payloads(contract)
    return "\n".join(lines) + "\n"
