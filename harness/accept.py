"""``--accept``: what a run observed becomes its engine's snapshots and expectations entries.

The wpt ``update-expectations`` idea for cc-harness. For every record with a verdict (pass, known,
fail) the run's transcript is written as ``<snapshots>/<engine>/<case>.json``, exactly as
``pytest --snapshot-update`` writes it, and the engine's ``<expectations>/<engine>.yaml`` is brought in
line with what the run observed: a difference the file does not list yet is added with the observed
string and ``reason: TODO`` (a person writes the reason; CI refuses the placeholder), a listed one the
run did not show is removed (stale), a listed one the run showed stays as it is, reason and all.

Records without a verdict (a timeout, a crash, not-modelled, ...) are left out: their files are not
touched, and the summary names them. Case files are never written. The whole change is computed
first (``plan``), shown as a unified diff (``Plan.diff``), then written (``Plan.write``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness import expectations, snapshots
from harness.engine_name import EngineName
from harness.outcome import Judgement, Status
from harness.results import Record
from harness.yamlfile import read_yaml

#: The reason a new entry gets: ``tests/test_expectations.py`` and the pytest plugin refuse it.
_TODO_REASON = "TODO"
#: The width PyYAML folds long strings at, as in the committed expectations files.
_WIDTH = 120
#: A case id's key line inside ``differences:`` (two spaces, a plain scalar, a colon).
_CASE_KEY = re.compile(r"^  ([^\s#'\"][^:]*):\s*$")

_Entry = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class FileChange:
    """One file ``--accept`` writes: its text before (None: a new file) and after."""

    path: Path
    old: str | None
    new: str

    def diff(self, root: Path) -> str:
        """A unified diff; a new snapshot is summarised (its whole text is one screen per case)."""
        name = _shown(self.path, root)
        if self.old is None and self.path.suffix == ".json":
            return f"new file {name} ({len(self.new.splitlines())} lines)\n"
        before = (self.old or "").splitlines(keepends=True)
        lines = difflib.unified_diff(
            before, self.new.splitlines(keepends=True), "/dev/null" if self.old is None else f"a/{name}", f"b/{name}"
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True, kw_only=True)
class Plan:
    """Everything an accept would write, and what it left out."""

    changes: tuple[FileChange, ...]
    skipped: tuple[tuple[str, str, str], ...] = ()
    """(engine, case, why) of records with no verdict to accept."""
    todo: tuple[tuple[str, str, str], ...] = ()
    """(engine, case, at) of every entry that was added with ``reason: TODO``."""
    removed: tuple[tuple[str, str, str], ...] = ()
    """(engine, case, at) of every stale entry removed."""
    accepted: int = 0

    def diff(self, root: Path) -> str:
        return "".join(c.diff(root) for c in self.changes)

    def write(self) -> None:
        for change in self.changes:
            change.path.parent.mkdir(parents=True, exist_ok=True)
            change.path.write_text(change.new, encoding="utf-8")

    def summary(self) -> str:
        written = sum(1 for c in self.changes)
        parts = [f"accepted {self.accepted} run(s): {written} file(s) changed"]
        if self.todo:
            parts.append(f"{len(self.todo)} new difference(s) with reason: TODO (write each reason before committing)")
        if self.removed:
            parts.append(f"{len(self.removed)} stale entr{'y' if len(self.removed) == 1 else 'ies'} removed")
        if self.skipped:
            parts.append(f"{len(self.skipped)} run(s) not accepted (no verdict to accept)")
        return "; ".join(parts)


@dataclass(kw_only=True)
class _EngineFile:
    """One engine's expectations file while a plan is built: its text and its entries by case."""

    path: Path
    engine: str
    text: str | None
    entries: dict[str, list[_Entry]]
    touched: set[str] = field(default_factory=set)


def plan(records: Iterable[Record], *, snapshot_root: Path, expectations_root: Path) -> Plan:
    """What accepting ``records`` would write (nothing is written here)."""
    changes: list[FileChange] = []
    skipped: list[tuple[str, str, str]] = []
    todo: list[tuple[str, str, str]] = []
    removed: list[tuple[str, str, str]] = []
    files: dict[str, _EngineFile] = {}
    accepted = 0
    for record in sorted(records, key=lambda r: (r.engine, r.case)):
        if record.transcript is None or record.status.is_error or record.status is Status.NOT_MODELLED:
            why = record.fault.message if record.fault else record.status.value
            skipped.append((record.engine.text(), record.case, f"{record.status.value}: {why}"))
            continue
        accepted += 1
        snapshot = snapshots.path_for(snapshot_root, record.engine, record.case)
        text = snapshots.dump(record.transcript)
        old = snapshot.read_text(encoding="utf-8") if snapshot.is_file() else None
        if old != text:
            changes.append(FileChange(path=snapshot, old=old, new=text))
        name = record.engine.text()
        book = files.get(name) or files.setdefault(name, _open(expectations_root, record.engine))
        entries, added, dropped = _merge_entries(book.entries.get(record.case, []), record)
        if added or dropped:
            book.touched.add(record.case)
            book.entries[record.case] = entries
            todo += [(name, record.case, e["at"]) for e in added]
            removed += [(name, record.case, e["at"]) for e in dropped]
    for book in files.values():
        if book.touched:
            changes.append(FileChange(path=book.path, old=book.text, new=_render(book)))
    return Plan(
        changes=tuple(changes), skipped=tuple(skipped), todo=tuple(todo), removed=tuple(removed), accepted=accepted
    )


def _merge_entries(listed: list[_Entry], record: Record) -> tuple[list[_Entry], list[_Entry], list[_Entry]]:
    """(the case's entries after the run, the entries added, the entries removed).

    Entries the run confirmed keep their place and every key a person wrote; stale ones go; new
    differences are appended with ``reason: TODO``."""
    stale = Counter((f.at, f.observed) for f in record.findings if f.judgement is Judgement.STALE)
    kept: list[_Entry] = []
    dropped: list[_Entry] = []
    for entry in listed:
        key = (str(entry.get("at")), entry.get("observed"))
        if stale[key] > 0:
            stale[key] -= 1
            dropped.append(entry)
        else:
            kept.append(entry)
    # A difference already listed is not added again: a record judged before the entry was written (a results
    # file accepted once and reused, ``run --accept --reuse``) still calls it unexpected.
    listed_already = Counter((str(e.get("at")), e.get("observed")) for e in kept)
    added: list[_Entry] = []
    for f in record.findings:
        if f.judgement is not Judgement.UNEXPECTED:
            continue
        if listed_already[(f.at, f.observed)] > 0:
            listed_already[(f.at, f.observed)] -= 1
            continue
        added.append({"at": f.at, "observed": f.observed, "reason": _TODO_REASON})
    return kept + added, added, dropped


def _open(root: Path, engine: EngineName) -> _EngineFile:
    path = expectations.file_for(root, engine)
    expectations.load(root, engine)  # a malformed file stops the accept here, named, before anything is written
    text = path.read_text(encoding="utf-8") if path.is_file() else None
    raw: Any = read_yaml(path) if text is not None else None
    differences = (raw or {}).get("differences") or {}
    entries = {str(case): [dict(e) for e in (items or ())] for case, items in differences.items()}
    return _EngineFile(path=path, engine=engine.text(), text=text, entries=entries)


def _render(book: _EngineFile) -> str:
    """The expectations file after the accept.

    Only the cases that changed are re-written: every other case keeps its text byte for byte (a
    person's line breaks and quoting), so the diff shows the accepted change and nothing else. A file
    whose layout cannot be kept that way (comments between cases, flow style) is written whole."""
    wanted = {case: entries for case, entries in book.entries.items() if entries}
    whole = _dump({"engine": book.engine, "differences": wanted or {}})
    if book.text is None:
        return whole
    blocks = _case_blocks(book.text)
    if blocks is None:
        return whole
    head, old_blocks = blocks
    order = list(old_blocks)
    new_cases = [c for c in wanted if c not in old_blocks]
    order = sorted({*order, *new_cases}) if order == sorted(order) else order + new_cases
    parts = [head if wanted else head.rstrip("\n").removesuffix("differences:") + "differences: {}\n"]
    for case in order:
        if case not in wanted:
            continue
        if case in old_blocks and case not in book.touched:
            parts.append(old_blocks[case])
        else:
            parts.append(_indent(_dump({case: wanted[case]})))
    text = "".join(parts)
    try:
        same = yaml.safe_load(text) == {"engine": book.engine, "differences": wanted or {}}
    except yaml.YAMLError:
        same = False
    return text if same else whole


def _case_blocks(text: str) -> tuple[str, dict[str, str]] | None:
    """(everything up to and including ``differences:``, each case's block of lines by case id)."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == "differences:") + 1
    except StopIteration:
        return None
    head = "".join(lines[:start])
    blocks: dict[str, str] = {}
    current: str | None = None
    for line in lines[start:]:
        if m := _CASE_KEY.match(line.rstrip("\n")):
            current = m.group(1).strip()
            blocks[current] = ""
        elif current is None:
            if line.strip():
                return None  # something other than a case key right after ``differences:``
            head += line
            continue
        blocks[current] += line
    return head, blocks


class _Dumper(yaml.SafeDumper):
    """Strings with line breaks double-quoted with ``\\n`` escapes: one line of YAML reads as the
    observed text, where PyYAML's default folding doubles every line break."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, width=_WIDTH, allow_unicode=True)


def _indent(text: str) -> str:
    return "".join(f"  {line}" if line.strip() else line for line in text.splitlines(keepends=True))


def todo_entries(root: Path) -> list[tuple[Path, str, str]]:
    """(file, case, at) of every entry under ``root`` whose reason is still the ``TODO`` placeholder."""
    out = []
    for path in sorted(root.glob("*.yaml")) if root.is_dir() else []:
        raw: Any = read_yaml(path) or {}
        for case, items in ((raw.get("differences") or {}) if isinstance(raw, dict) else {}).items():
            out += [(path, str(case), str(e.get("at"))) for e in items or () if is_todo(e.get("reason"))]
    return out


def is_todo(reason: object) -> bool:
    """Whether an entry's reason is still the placeholder ``--accept`` wrote."""
    return isinstance(reason, str) and reason.strip().upper() == _TODO_REASON


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
