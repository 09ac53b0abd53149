"""Frozen dataclasses for a loaded case. Field meanings are documented in case.schema.json."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, Literal

from harness.case.matchers import EventCheck, NameChecks, Offered, TextChecks, TextMatch

PARTS = ("skill", "subagent", "tool", "hook")
SessionMode = Literal["new", "same", "resume"]
#: Where a definition comes from (the case file's ``sources``), in the order reports show them.
SOURCES = ("project", "user", "local", "cli", "plugin", "builtin")


#: The grid column of a case about one part alone (``combination: hook``): a SessionStart hook, a Stop loop.
ALONE = "alone"


@dataclass(frozen=True, kw_only=True)
class Combination:
    caller: str
    callee: str
    """A part of PARTS, or ALONE for a case about the caller alone."""

    def __str__(self) -> str:
        return self.caller if self.callee == ALONE else f"{self.caller} -> {self.callee}"

    @classmethod
    def parse(cls, text: str) -> Combination:
        """``caller -> callee``, or one part alone."""
        caller, _, callee = (p.strip() for p in text.partition("->"))
        return cls(caller=caller, callee=callee or ALONE)


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
class Expect:
    result: TextMatch | None = None
    is_error: bool | None = None
    final_result: TextMatch | None = None
    """The tool_result the thread holds in its last request (a call answered twice: placeholder, then hand-back)."""
    reminders: TextMatch | None = None
    """The tool_result's ``<system-reminder>`` text, which ``result`` leaves out (empty when it has none)."""


@dataclass(frozen=True, kw_only=True)
class Call:
    name: str
    input: dict[str, Any]
    expect: Expect | None = None


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One assistant message of the scripted model: optional text, optional tool call."""

    say: str | None = None
    call: Call | None = None
    offered: Offered | None = None


Then = Literal["ends", "asks-again"]


@dataclass(frozen=True, kw_only=True)
class Step:
    prompt: str
    session: SessionMode
    turns: tuple[Turn, ...]
    then: Then = "ends"
    """After the last scripted turn: the thread ends (a further request fails the case), or the engine asks again
    (an endless Stop loop): each further request gets the last turn again, and the case fails if none came."""
    init_tools: NameChecks | None = None
    events: EventCheck | None = None
    printed: TextMatch | None = None
    """What the engine printed as this prompt's result (print mode's output)."""


@dataclass(frozen=True, kw_only=True)
class Context:
    name: str
    opens_with: str | None
    """Text in the opening user message of the context's conversation."""
    turns: tuple[Turn, ...]
    then: Then = "ends"
    """As Step.then."""
    system_contains: str | None = None
    """Or: text in the request's system prompt (a forked context that carries the main transcript opens
    with the main thread's first message, so only its system prompt tells it apart)."""

    @property
    def label(self) -> str:
        return repr(self.opens_with) if self.opens_with is not None else f"system {self.system_contains!r}"


@dataclass(frozen=True, kw_only=True)
class SideCall:
    """A request without tools (a title, a summary, a model-based permission check) the case scripts."""

    name: str
    contains: str
    """Text anywhere in the request (system prompt and messages)."""
    reply: str
    made: bool | None = None
    """True: the case fails unless such a call was made; False: unless none was; None: either."""


@dataclass(frozen=True, kw_only=True)
class Approval:
    """The user's answer to one permission prompt (``approvals``), in the order the engine asks."""

    answer: Literal["allow", "deny"]
    tool: str | None = None
    """The tool the prompt must be about; None: any."""
    updated_input: dict[str, Any] | None = None
    """With allow: the input the call runs with instead of its own."""
    message: str | None = None
    """With deny: the user's reason."""
    wait: float = 0.0
    """Seconds the user takes to answer."""

    def as_json(self) -> dict[str, Any]:
        """The answer as the permission prompt tool reads it (approvals_server.py)."""
        out: dict[str, Any] = {"answer": self.answer}
        if self.updated_input is not None:
            out["updated_input"] = self.updated_input
        if self.message is not None:
            out["message"] = self.message
        if self.wait:
            out["wait"] = self.wait
        return out


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


PermissionMode = Literal["default", "bypass", "acceptEdits", "plan", "dontAsk", "auto"]


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
    setup: Literal["init", "maintenance"] | None = None
    """--init or --maintenance: run the Setup hooks (trigger init or maintenance) before the session."""

    def given(self) -> list[str]:
        """The case-file names of the flags that are set."""
        return [name for name, value in vars(self).items() if value not in ((), None, False)]


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    permission_mode: PermissionMode = "default"
    trusted: bool = True
    trust_parent: bool = False
    """Trust is recorded for the working copy's parent folder instead of the working copy itself."""
    env: dict[str, str] = field(default_factory=dict)
    agent: str | None = None
    timeout: float = 60.0
    flags: Flags = field(default_factory=Flags)
    api_faults: str = ""
    """Faults the fake Messages API serves as part of the case (the text form of apifaults.py)."""


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
    stderr: TextChecks | None = None
    """Checks on what the engine printed on stderr (warnings printed nowhere else)."""
    notices: TextChecks | None = None
    """Checks on what the engine showed the user from hooks (stopReason, systemMessage, session title)."""
    side_calls: tuple[SideCall, ...] = ()
    approvals: tuple[Approval, ...] | None = None
    """The user's answers to permission prompts; None: no one answers (print mode refuses what it would ask)."""
    project: Path | None = None
    """A folder whose files are the working copy (the repository holding a team's ``.claude/``)."""
    home: Path | None = None
    """This case's folder laid into the run's HOME (not part of the working copy)."""
    include: tuple[str, ...] = ()
    """Files of the project (relative to it) copied although git ignores them."""
    base_home: Path | None = None
    """The ``fixture_from`` case's HOME folder, laid in first."""
    sources: Sources | None = None
    """Where the caller and the callee come from; None: the project (every definition in ``.claude/``)."""
    features: tuple[str, ...] = ()
    """Surface elements the case exercises that its files do not show (``hook-output:continue`` printed by
    a script the coverage scan cannot read), as ``docs/surface/`` names them."""

    def context(self, name: str) -> Context:
        return next(c for c in self.contexts if c.name == name)

    @property
    def answers_either_way(self) -> bool:
        """A ``one_of`` check anywhere: the case says the engine does not give the same answer every run, so
        no single transcript can be its snapshot (the pytest plugin compares none, as for an intermittent
        difference)."""
        return _has_one_of(self)

    @property
    def fixture_dirs(self) -> tuple[Path, ...]:
        """Where the working copy's files come from, each laid over the one before."""
        base = self.project or self.fixture_from
        return (self.directory,) if base is None else (base, self.directory)

    @property
    def home_dirs(self) -> tuple[Path, ...]:
        """Where the run's HOME files come from, each laid over the one before."""
        return tuple(d for d in (self.base_home, self.home) if d is not None)

    @property
    def repository(self) -> Path:
        """The folder a case's files may point into: its project, else the folder that holds its folder of
        cases (the suite's repository). A link into it is followed; a shared HOME layout may lie in it."""
        return (self.project or self.directory.parent.parent).resolve()

    def own_files_excluded(self, root: Path) -> tuple[Path, ...]:
        """What copying ``root`` into the working copy leaves out: the case file, HOME folders, and the
        folder of cases when a project copy holds it (its other fixtures are not part of the project)."""
        out = [root / self.case_file.name, *self.home_dirs]
        cases_root = self.directory.resolve().parent
        if self.project is not None and root == self.project and root.resolve() in cases_root.parents:
            out.append(cases_root)  # a project inside the folder of cases (the case's own folder) holds none of it
        return tuple(out)

    def fixture_file(self, relative: str) -> Path | None:
        """The fixture file at ``relative`` in the working copy before the run, if there is one."""
        for root in reversed(self.fixture_dirs):
            path = root / relative
            if path.is_file() and not any(path == x or x in path.parents for x in self.own_files_excluded(root)):
                return path
        return None


def _has_one_of(value: object) -> bool:
    if isinstance(value, TextMatch):
        return value.kind == "one_of"
    if isinstance(value, (tuple, list)):
        return any(_has_one_of(v) for v in value)
    if isinstance(value, dict):
        return any(_has_one_of(v) for v in value.values())
    if is_dataclass(value) and not isinstance(value, type):
        return any(_has_one_of(getattr(value, f.name)) for f in fields(value))
    return False
