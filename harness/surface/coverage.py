"""Which cases exercise which surface elements, derived from their fixtures, and the coverage gate.

Derived from a case's files (its folder, the case it takes its fixture from, its HOME folder):
- settings files (``settings*.json`` anywhere) and plugin ``hooks.json``: the settings keys, the
  ``permissions`` keys, the rule forms of every rule, the hook events and each handler's options, and the
  output fields a handler's inline ``command`` prints (``echo '{"continue":false}'``);
- ``SKILL.md`` and ``agents/*.md`` frontmatter: skill and agent keys;
- hook scripts (any other file of the fixture): the hook output fields they print, as quoted JSON keys;
- ``case.yaml``: the tools its scripted turns call, and its ``features:`` list for what no file shows.

An element of a pinned version's surface with no case is either listed with a reason it cannot be
reached offline (``docs/surface/unreachable.yaml``) or is on the backlog (``docs/surface/backlog.yaml``):
the gate fails on an element in none of the three, on an "unreachable" element a case reaches, and on an
entry no pinned surface has; a backlog entry a case now covers counts as covered (``coverage`` says so).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from harness.case import Case
from harness.errors import UsageError
from harness.surface.extract import rule_shape
from harness.surface.model import Kind, Surface, element, split

UNREACHABLE = "unreachable.yaml"
BACKLOG = "backlog.yaml"
_FRONTMATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.S)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCRIPT_SUFFIXES = {".sh", ".py", ".js", ".mjs", ".bash", ""}


def _files(case: Case) -> Iterator[Path]:
    """The files of the run's working copy and HOME: a base case's file that the case's own replaces is left out,
    as it is from the working copy (``fixture_from``)."""
    roots = [case.directory] if case.project is not None else [*case.fixture_dirs]
    roots += [d for d in case.home_dirs if d not in roots]
    own = {p.relative_to(case.directory) for p in case.directory.rglob("*") if p.is_file()}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.name == case.case_file.name:
                continue
            if root != case.directory and root in case.fixture_dirs and path.relative_to(root) in own:
                continue
            yield path


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # a fixture may hold broken JSON on purpose: it covers nothing


def _frontmatter(path: Path) -> dict[str, Any]:
    m = _FRONTMATTER.match(path.read_text(errors="replace"))
    if not m:
        return {}
    try:
        data = yaml.load(m.group(1), Loader=_LOADER)
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _rule_forms_of(rule: str) -> set[str]:
    """The forms a rule written in a case is an instance of: its own shape (``Bash(<prefix>:*)``) and,
    for a named tool, the generic one (``<tool>(<glob>)``)."""
    shape = rule_shape(rule)
    if shape is None:
        return set()
    out = {shape}
    m = re.fullmatch(r"([A-Z][A-Za-z]*)(\(.*\))?", shape)
    if m:
        content = m.group(2)
        out.add("<tool>" if content is None else "<tool>(<glob>)" if content == "(<glob>)" else "<tool>(<specifier>)")
    return out


def _hooks(hooks: Any, outputs: Iterable[str] = ()) -> set[str]:
    out: set[str] = set()
    if not isinstance(hooks, dict):
        return out
    for event, matchers in hooks.items():
        out.add(element(Kind.HOOK_EVENT, str(event)))
        for m in matchers if isinstance(matchers, list) else []:
            for h in m.get("hooks", []) if isinstance(m, dict) else []:
                if isinstance(h, dict):
                    kind = str(h.get("type", "command"))
                    out.update(element(Kind.HOOK_HANDLER, f"{kind}.{k}") for k in h if k != "type")
                    if isinstance(h.get("command"), str):  # an inline command prints its output itself
                        out |= _script_outputs(h["command"], outputs, event=str(event))
    return out


def _settings(data: Any, outputs: Iterable[str] = ()) -> set[str]:
    if not isinstance(data, dict):
        return set()
    out = {element(Kind.SETTING, str(k)) for k in data}
    out |= _hooks(data.get("hooks"), outputs)
    perms = data.get("permissions")
    if isinstance(perms, dict):
        out |= {element(Kind.SETTING, f"permissions.{k}") for k in perms}
        for key in ("allow", "deny", "ask"):
            for rule in perms.get(key) or []:
                if isinstance(rule, str):
                    out |= {element(Kind.RULE_FORM, f) for f in _rule_forms_of(rule)}
    return out


def _script_outputs(text: str, outputs: Iterable[str], *, event: str = "") -> set[str]:
    """Hook output fields a script prints: the quoted key, and for ``Event.key`` the event's name too (in the
    text, or ``event``: the one an inline command is registered on)."""
    out = set()
    for name in outputs:
        on, _, key = name.rpartition(".")
        # a quote may come escaped (\"key\": in a shell string that prints JSON)
        if re.search(rf"\\?[\"']{re.escape(key)}\\?[\"']\s*:", text) and (not on or on == event or on in text):
            out.add(element(Kind.HOOK_OUTPUT, name))
    return out


#: The init event lists the subagent tool under its old name, Task, while the model calls it Agent
#: (measured: system/init of every pinned release beside the offered tools; claim T3).
_INIT_NAME = {"Agent": "Task"}


def _calls(case: Case) -> Iterator[str]:
    turns = [t for s in case.steps for t in s.turns] + [t for c in case.contexts for t in c.turns]
    for name in (t.call.name for t in turns if t.call is not None):
        yield name
        if name in _INIT_NAME:
            yield _INIT_NAME[name]


def case_elements(case: Case, outputs: Iterable[str] = ()) -> set[str]:
    """Every surface element ``case`` exercises (``outputs``: the hook output names to look for in scripts)."""
    found: set[str] = set(case.features)
    names = list(outputs)
    for path in _files(case):
        if path.name.startswith("settings") and path.suffix == ".json":
            found |= _settings(_json(path), names)
        elif path.name == "hooks.json":
            data = _json(path)
            found |= _hooks(data.get("hooks") if isinstance(data, dict) else None, names)
        elif path.name == "SKILL.md":
            found |= {element(Kind.SKILL_KEY, str(k)) for k in _frontmatter(path)}
        elif path.suffix == ".md" and path.parent.name == "agents":
            found |= {element(Kind.AGENT_KEY, str(k)) for k in _frontmatter(path)}
        elif path.suffix in _SCRIPT_SUFFIXES and path.stat().st_size < 200_000:
            found |= _script_outputs(path.read_text(errors="replace"), names)
    found |= {element(Kind.TOOL, n) for n in _calls(case)}
    return found


@dataclass(frozen=True, kw_only=True)
class Lists:
    unreachable: dict[str, str]  # element id -> why no offline run can reach it
    backlog: frozenset[str]  # reachable, no case yet


def _read_list(path: Path) -> Any:
    if not path.is_file():
        return None
    try:
        return yaml.load(path.read_text(), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise UsageError(f"{path}: not YAML ({exc})") from None


def read_lists(root: Path) -> Lists:
    """``root``/unreachable.yaml (``element: reason``) and ``root``/backlog.yaml (a list of elements)."""
    unreachable = _read_list(root / UNREACHABLE) or {}
    backlog = _read_list(root / BACKLOG) or []
    if not isinstance(unreachable, dict) or not all(isinstance(v, str) and v.strip() for v in unreachable.values()):
        raise UsageError(f"{root / UNREACHABLE}: expected a mapping of element id to its reason")
    if not isinstance(backlog, list) or not all(isinstance(v, str) for v in backlog):
        raise UsageError(f"{root / BACKLOG}: expected a list of element ids")
    for name in [*unreachable, *backlog]:
        try:
            split(name)
        except ValueError:
            raise UsageError(f"{root}: {name!r} is not an element id (kind:name, e.g. hook-event:Stop)") from None
    return Lists(unreachable=dict(unreachable), backlog=frozenset(backlog))


@dataclass(frozen=True, kw_only=True)
class Coverage:
    version: str
    covered: dict[str, tuple[str, ...]]  # element id -> case ids
    unreachable: tuple[str, ...]
    backlog: tuple[str, ...]
    missing: tuple[str, ...]  # in no case and on neither list: the gate fails

    @property
    def total(self) -> int:
        return len(self.covered) + len(self.unreachable) + len(self.backlog) + len(self.missing)


def by_element(cases: Iterable[Case], surfaces: list[Surface]) -> dict[str, tuple[str, ...]]:
    """Element id -> the ids of the cases that exercise it, for every element any case exercises."""
    outputs = {n for s in surfaces for n in s.elements.get(Kind.HOOK_OUTPUT, ())}
    out: dict[str, list[str]] = {}
    for case in sorted(cases, key=lambda c: c.id):
        for e in case_elements(case, outputs):
            out.setdefault(e, []).append(case.id)
    return {e: tuple(ids) for e, ids in out.items()}


def coverage(surface: Surface, cases_by: dict[str, tuple[str, ...]], lists: Lists) -> Coverage:
    covered, unreachable, backlog, missing = {}, [], [], []
    for e in sorted(surface.ids()):
        if e in cases_by:
            covered[e] = cases_by[e]
        elif e in lists.unreachable:
            unreachable.append(e)
        elif e in lists.backlog:
            backlog.append(e)
        else:
            missing.append(e)
    return Coverage(
        version=surface.version,
        covered=covered,
        unreachable=tuple(unreachable),
        backlog=tuple(backlog),
        missing=tuple(missing),
    )


def stale(surfaces: list[Surface], cases_by: dict[str, tuple[str, ...]], lists: Lists) -> list[str]:
    """List entries that are wrong: an element said to be unreachable that a case reaches, or one no pinned
    surface has (a typo, or a release no longer pinned)."""
    known = set().union(*(s.ids() for s in surfaces)) if surfaces else set()
    out = []
    for name in sorted([*lists.unreachable, *lists.backlog]):
        if name in lists.unreachable and name in cases_by:
            out.append(f"{name}: listed as unreachable, but {', '.join(cases_by[name][:3])} reach(es) it")
        elif name not in known:
            out.append(f"{name}: no pinned version's surface has it; remove it from the list")
    return out


def done(cases_by: dict[str, tuple[str, ...]], lists: Lists) -> list[str]:
    """Backlog entries a case covers now: counted as covered; the entry can go (no failure, so a new case
    never breaks the gate)."""
    return [
        f"{n}: covered by {', '.join(cases_by[n][:3])}; take it off the backlog"
        for n in sorted(lists.backlog)
        if n in cases_by
    ]


def render_text(rows: list[Coverage]) -> str:
    lines = [f"{'version':<10} {'elements':>8} {'covered':>8} {'unreachable':>11} {'backlog':>8} {'missing':>8}"]
    for c in rows:
        lines.append(
            f"{c.version:<10} {c.total:>8} {len(c.covered):>8} {len(c.unreachable):>11}"
            f" {len(c.backlog):>8} {len(c.missing):>8}"
        )
    return "\n".join(lines)
