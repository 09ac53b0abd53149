"""Frozen dataclasses for a loaded case. Field meanings are documented in case.schema.json."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

PARTS = ("skill", "subagent", "tool", "hook")
SessionMode = Literal["new", "same", "resume"]
#: Where a definition comes from (the case file's ``sources``), in the order reports show them.
SOURCES = ("project", "user", "local", "cli", "plugin", "builtin")


@dataclass(frozen=True, kw_only=True)
class Combination:
    caller: str
    callee: str

    def __str__(self) -> str:
        return f"{self.caller} -> {self.callee}"


@dataclass(frozen=True, kw_only=True)
class Sources:
    """Where the caller's and the callee's definitions come from (``plugin -> project``). A side naming
    several sources (``cli+project+user``, highest documented precedence first) marks a clash case: the
    same name or handler is defined in each, and the case checks which one runs."""

    caller: tuple[str, ...]
    callee: tuple[str, ...] = ()

    def __str__(self) -> str:
        sides = ["+".join(self.caller), *(["+".join(self.callee)] if self.callee else [])]
        return " -> ".join(sides)

    @classmethod
    def parse(cls, text: str) -> Sources:
        sides = [tuple(part.strip() for part in side.split("+")) for side in text.split("->")]
        return cls(caller=sides[0], callee=sides[1] if len(sides) > 1 else ())


@dataclass(frozen=True, kw_only=True)
class TextMatch:
    """Exact text, a substring that must be present or absent, or a regex (searched)."""

    kind: Literal["exact", "contains", "regex", "lacks"]
    value: str

    def matches(self, text: str) -> bool:
        if self.kind == "exact":
            return text == self.value
        if self.kind == "contains":
            return self.value in text
        if self.kind == "lacks":
            return self.value not in text
        return re.search(self.value, text) is not None

    def describe(self) -> str:
        return self.value if self.kind == "exact" else f"{self.kind} {self.value!r}"


@dataclass(frozen=True, kw_only=True)
class Expect:
    result: TextMatch | None = None
    is_error: bool | None = None


@dataclass(frozen=True, kw_only=True)
class Call:
    name: str
    input: dict[str, Any]
    expect: Expect | None = None


@dataclass(frozen=True, kw_only=True)
class NameChecks:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    exactly: tuple[str, ...] | None = None

    def problems(self, names: list[str], *, verb: str = "offered") -> list[str]:
        found = set(names)
        out = [f"tool {n} not {verb}" for n in self.include if n not in found]
        out += [f"tool {n} {verb}" for n in self.exclude if n in found]
        if self.exactly is not None and sorted(found) != sorted(self.exactly):
            out.append(f"tools {verb} {sorted(found)}, expected exactly {sorted(self.exactly)}")
        return out


@dataclass(frozen=True, kw_only=True)
class TextChecks:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def problems(self, text: str, *, what: str) -> list[str]:
        out = [f"{what} lacks {s!r}" for s in self.include if s not in text]
        out += [f"{what} holds {s!r}" for s in self.exclude if s in text]
        return out


@dataclass(frozen=True, kw_only=True)
class Offered:
    tools: NameChecks | None = None
    context: TextChecks | None = None


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One assistant message of the scripted model: optional text, optional tool call."""

    say: str | None = None
    call: Call | None = None
    offered: Offered | None = None


@dataclass(frozen=True, kw_only=True)
class Step:
    prompt: str
    session: SessionMode
    turns: tuple[Turn, ...]
    init_tools: NameChecks | None = None


@dataclass(frozen=True, kw_only=True)
class Context:
    name: str
    opens_with: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True, kw_only=True)
class Effect:
    path: str
    exists: bool | None = None
    content: TextMatch | None = None


@dataclass(frozen=True, kw_only=True)
class Server:
    """A process the harness starts in the working copy for the whole run; it prints its port first."""

    name: str
    command: tuple[str, ...]


PermissionMode = Literal["default", "bypass", "acceptEdits", "plan", "dontAsk"]


@dataclass(frozen=True, kw_only=True)
class Flags:
    """Engine command-line flags (``run.flags``); empty or None means the flag is not given."""

    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    agents: dict[str, Any] | None = None
    setting_sources: tuple[str, ...] | None = None
    settings: str | None = None
    plugin_dirs: tuple[str, ...] = ()
    add_dirs: tuple[str, ...] = ()
    include_hook_events: bool = False

    def given(self) -> list[str]:
        """The case-file names of the flags that are set."""
        return [name for name, value in vars(self).items() if value not in ((), None, False)]


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    permission_mode: PermissionMode = "default"
    trusted: bool = True
    env: dict[str, str] = field(default_factory=dict)
    agent: str | None = None
    timeout: float = 60.0
    flags: Flags = field(default_factory=Flags)


@dataclass(frozen=True, kw_only=True)
class Case:
    id: str
    title: str
    combination: Combination | None
    claims: tuple[str, ...]
    source: str | None
    documented_for: str | None
    """The engine version the case documents; None for a case about one's own setup."""
    flags: tuple[str, ...]
    contrast_of: str | None
    notes: str
    run: RunOptions
    steps: tuple[Step, ...]
    contexts: tuple[Context, ...]
    effects: tuple[Effect, ...]
    debug_log: TextChecks | None
    unordered_files: tuple[str, ...]
    servers: tuple[Server, ...]
    directory: Path
    case_file: Path
    fixture_from: Path | None = None
    """A sibling case whose fixture (and user HOME) this case's files are laid over."""
    project: Path | None = None
    """A folder whose files are the working copy (the repository holding a team's ``.claude/``)."""
    home: Path | None = None
    """This case's folder laid into the run's HOME (not part of the working copy)."""
    base_home: Path | None = None
    """The ``fixture_from`` case's HOME folder, laid in first."""
    sources: Sources | None = None
    """Where the caller and the callee come from; None: the project (every definition in ``.claude/``)."""

    def context(self, name: str) -> Context:
        return next(c for c in self.contexts if c.name == name)

    @property
    def fixture_dirs(self) -> tuple[Path, ...]:
        """Where the working copy's files come from, each laid over the one before."""
        base = self.project or self.fixture_from
        return (self.directory,) if base is None else (base, self.directory)

    @property
    def home_dirs(self) -> tuple[Path, ...]:
        """Where the run's HOME files come from, each laid over the one before."""
        return tuple(d for d in (self.base_home, self.home) if d is not None)

    def own_files_excluded(self, root: Path) -> tuple[Path, ...]:
        """What copying ``root`` into the working copy leaves out: the case file, HOME folders, and the
        folder of cases when a project copy holds it (its other fixtures are not part of the project)."""
        out = [root / self.case_file.name, *self.home_dirs]
        cases_root = self.directory.resolve().parent
        if self.project is not None and root == self.project and cases_root != root:
            out.append(cases_root)
        return tuple(out)

    def fixture_file(self, relative: str) -> Path | None:
        """The fixture file at ``relative`` in the working copy before the run, if there is one."""
        for root in reversed(self.fixture_dirs):
            path = root / relative
            if path.is_file() and not any(path == x or x in path.parents for x in self.own_files_excluded(root)):
                return path
        return None
