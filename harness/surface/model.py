"""A release's surface: the named elements of its contract, by kind, and its file under docs/surface/."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from harness.engine_name import EngineName
from harness.errors import UsageError


class Kind(Enum):
    HOOK_EVENT = "hook-event"  # PreToolUse
    HOOK_OUTPUT = "hook-output"  # continue, PreToolUse.permissionDecision
    HOOK_HANDLER = "hook-handler"  # command.async
    SKILL_KEY = "skill-key"  # disable-model-invocation
    AGENT_KEY = "agent-key"  # permissionMode
    TOOL = "tool"  # Bash (the init message's tool list)
    RULE_FORM = "rule-form"  # WebFetch(domain:<host>)
    SETTING = "setting"  # hooks, permissions.defaultMode

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    Kind.HOOK_EVENT: "Hook events",
    Kind.HOOK_OUTPUT: "Hook output fields",
    Kind.HOOK_HANDLER: "Hook handler options",
    Kind.SKILL_KEY: "Skill frontmatter keys",
    Kind.AGENT_KEY: "Agent frontmatter keys",
    Kind.TOOL: "Built-in tools",
    Kind.RULE_FORM: "Permission rule forms",
    Kind.SETTING: "Settings keys",
}


def element(kind: Kind, name: str) -> str:
    """An element's id, ``kind:name`` (``hook-event:PreToolUse``), as the coverage lists name it."""
    return f"{kind.value}:{name}"


def split(element_id: str) -> tuple[Kind, str]:
    kind, _, name = element_id.partition(":")
    return Kind(kind), name


@dataclass(frozen=True, kw_only=True)
class Surface:
    version: str
    elements: dict[Kind, frozenset[str]]

    def ids(self) -> set[str]:
        return {element(k, n) for k, names in self.elements.items() for n in names}

    def to_json(self) -> str:
        """Stable: kinds in their order, names sorted, one name a line (a release's diff reads as lines)."""
        lines = ["{", f'  "version": {json.dumps(self.version)},']
        kinds = [k for k in Kind if k in self.elements]
        for i, kind in enumerate(kinds):
            names = sorted(self.elements[kind])
            lines.append(f"  {json.dumps(kind.value)}: [")
            lines += [f"    {json.dumps(n)}{',' if j < len(names) - 1 else ''}" for j, n in enumerate(names)]
            lines.append("  ]" + ("," if i < len(kinds) - 1 else ""))
        lines.append("}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def from_file(path: Path) -> Surface:
        try:
            data = json.loads(path.read_text())
            return Surface(
                version=str(data["version"]),
                elements={Kind(k): frozenset(v) for k, v in data.items() if k != "version"},
            )
        except (OSError, ValueError, KeyError) as exc:
            raise UsageError(f"{path}: not a surface file ({exc})") from None


def surface_path(root: Path, version: str) -> Path:
    return root / f"{EngineName.claude(version).dir}.json"


def committed(root: Path, versions: list[str]) -> list[Surface]:
    """The committed surfaces of ``versions`` under ``root`` (docs/surface), those that exist."""
    return [Surface.from_file(surface_path(root, v)) for v in versions if surface_path(root, v).is_file()]


def _changes(old: Surface, new: Surface) -> tuple[list[str], list[str]]:
    """Element ids ``new`` adds and drops against ``old``, sorted."""
    return sorted(new.ids() - old.ids()), sorted(old.ids() - new.ids())


def change_lines(old: Surface, new: Surface, covered: dict[str, tuple[str, ...]]) -> list[str]:
    """One line per element ``new`` adds or drops against ``old``, saying which cases reach it."""
    added, dropped = _changes(old, new)
    lines = []
    for verb, ids in (("adds", added), ("drops", dropped)):
        for e in ids:
            kind, name = split(e)
            cases = covered.get(e, ())
            reach = f"cases {', '.join(cases[:5])}" if cases else "no case covers it"
            what = kind.value.replace("-", " ")
            lines.append(f"{EngineName.claude(new.version)} {verb} {what} {name} (vs {old.version}): {reach}")
    return lines
