"""The files ``cc-harness init`` writes: what each is (``Planned``), what a run of init did (``Report``),
and a case as YAML a person can read and edit (short lists and mappings on one line)."""

from __future__ import annotations

import json
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CASES = "claude-cases"


#: Where the witness hook writes, inside the working copy.
EVIDENCE = ".cc-harness/hook-payloads.jsonl"


@dataclass(frozen=True, kw_only=True)
class Planned:
    """A file init writes: where, what, and what it is for."""

    path: Path
    text: str
    what: str
    hook_case: bool = False
    """A hook's case file: after it is written, a reference run looks for marks the hook itself leaves."""
    commands: tuple[str, ...] = ()
    """A hook case's own commands: only a file they name is one of its marks."""
    update: bool = False
    """A file of the repository init adds to (``.gitignore``): written whether or not it exists."""


@dataclass(kw_only=True)
class Report:
    written: list[Planned] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    """Case folders and files that exist already: left as they are."""
    skipped: list[str] = field(default_factory=list)
    """Definitions without a case, and why."""
    warnings: list[str] = field(default_factory=list)
    suite_file: Path | None = None
    cases: Path | None = None
    pinned: str = ""
    pinned_from: str = ""
    """Where the pinned version came from (``--pinned``, the suite, claude on PATH, the cache, the registry)."""


def make_case(
    title: str,
    base: dict[str, Any],
    prompt: str,
    turns: list[dict[str, Any]],
    *,
    notes: str,
    contexts: dict[str, Any] | None = None,
    effects: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A case's content, in the order a reader expects (``id`` is set when its folder is known)."""
    out: dict[str, Any] = {"title": title, **base, "steps": [{"prompt": prompt, "turns": turns}]}
    if contexts:
        out["contexts"] = contexts
    if effects:
        out["effects"] = effects
    out["notes"] = notes
    return out


def notes(checks: str, extend: str) -> str:
    paragraphs = [f"Written by cc-harness init. What it checks: {checks}", f"How to extend it: {extend}"]
    return "\n".join(textwrap.fill(p, width=100, break_long_words=False, break_on_hyphens=False) for p in paragraphs)


def case_file(folder: Path, case: dict[str, Any], *, root: Path, what: str, hook_case: bool = False) -> Planned:
    data = {"id": folder.name, **case}
    # the repository holding .claude/: ../.. from <root>/claude-cases/<id>, further up from deeper cases
    data["project"] = os.path.relpath(root, folder)
    return Planned(path=folder / "case.yaml", text=dump(data), what=f"case for the {what}", hook_case=hook_case)


def dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, width=110, allow_unicode=True)


class _Dumper(yaml.SafeDumper):
    """Notes as literal blocks; short mappings and lists of plain values in flow style, as hand-written
    cases have them (``input: {skill: x}``); anything longer in block style."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


def _short(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    plain = all(isinstance(v, str | bool | int | float) and "\n" not in str(v) for v in items)
    return plain and len(json.dumps(value)) <= _FLOW_CHARS


def _dict(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=_short(value))


def _list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=_short(value))


#: Longer mappings and lists are written in block style.
_FLOW_CHARS = 70


_Dumper.add_representer(str, _str)
_Dumper.add_representer(dict, _dict)
_Dumper.add_representer(list, _list)


def slug(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:60] or "case"


def unique(case_id: str, taken: set[str]) -> str:
    n, candidate = 1, case_id
    while candidate in taken:
        n += 1
        candidate = f"{case_id}-{n}"
    taken.add(candidate)
    return candidate


def escaped(text: str) -> str:
    """``text`` safe to print as one line of a terminal: a newline, a control or escape code, a bidi override
    (names come from the repository: one of them must not fake or erase a line of init's output) is shown as
    its Python escape; an undecodable byte of a file name (a surrogate escape) as ``\\xNN``."""
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if 0xDC80 <= ord(ch) <= 0xDCFF:
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ch.encode("unicode_escape").decode("ascii")
