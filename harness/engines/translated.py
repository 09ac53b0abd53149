"""What the adapters of agents other than Claude Code share (Codex, opencode, Qwen Code): the engine itself
(``TranslatedEngine``: a case the adapter cannot say is not-modelled with the reasons, else one run of the
agent's command line with its tool names translated at the fake API and back into Claude Code's in what the
harness reads), and the reasons a case cannot be said that hold for each of them.

Each adapter keeps its own tables (its tool names, the permission modes and sources it can lay out, how its
reasons name it), its fixture translation and its command line; this module holds what they would otherwise
each repeat.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol

from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines.base import EngineRun, StepOutput
from harness.engines.engine_sessions import run_command_line
from harness.engines.stream_process import StepGroup
from harness.engines.vocabulary import Vocabulary, scripted_calls
from harness.errors import NotModelled
from harness.scripted import ScriptedModel

#: How an adapter starts its agent for one group of steps: ``argv(group, resume, debug_log)``.
Argv = Callable[[StepGroup, str | None, Path], list[str]]


#: Why the adapter cannot say a case to its agent (empty: it can): ``unexpressible(case, workdir, home)``.
Unexpressible = Callable[[Case, Path, Path], list[str]]


class Launch(NamedTuple):
    """An agent's command line for a case, and the environment over the case's own."""

    argv: Argv
    env: Mapping[str, str]


class Launcher(Protocol):
    def __call__(
        self, version: str, case: Case, *, workdir: Path, home: Path, model: ScriptedModel
    ) -> AbstractContextManager[Launch]:
        """The agent ``version`` installed, the fixture translated for the run (and taken away after it), and
        how to start the agent."""
        ...


@dataclass(frozen=True, kw_only=True)
class AgentTables:
    """What one adapter can say to its agent, and how its reasons say what it cannot."""

    #: The engine family (``codex`` in ``codex@0.171.0``).
    family: str
    #: The agent as reasons name it ("Codex", "opencode", "Qwen Code").
    agent: str
    unexpressible: Unexpressible
    launch: Launcher
    vocabulary: Vocabulary
    #: Claude Code's permission modes the adapter has a counterpart for.
    modes: Collection[str]
    #: The sources of definitions the adapter lays out (``project``, ``user``, ``builtin``).
    sources: frozenset[str]
    #: Why another permission mode, other sources, scripted approvals cannot be said (the parenthesis).
    why_mode: str
    why_sources: str
    why_approvals: str = ""
    #: Paths under the working folder the adapter cannot say to the agent -> why (see ``unsaid``).
    unsaid: Mapping[str, str]
    #: The user-level files the adapter lays out for the agent (others in the run's HOME are not said).
    home_kept: Collection[str] = ()
    #: How many times a case's time limit the agent gets, written for claude: each starts several times slower
    #: (measured: Qwen Code 0.24.4 runs `ps` once per ancestor process, git and systemd-inhibit probes before its
    #: first request; opencode 1.18.33 starts a server and makes a title call first), so that a slow start under
    #: load is not taken for a hang.
    timeout_scale: int = 3


def unsaid(
    others: Mapping[str, str] | None = None, *, mcp: str = "MCP servers", memory: str = "memory files"
) -> dict[str, str]:
    """The fixture paths no adapter says to its agent (MCP servers, memory files, plugins), why each, and the
    adapter's ``others`` (a path -> why)."""
    said = {".mcp.json": mcp, "CLAUDE.md": memory, "CLAUDE.local.md": memory, ".claude-plugin": "plugins"}
    return {**said, **(others or {})}


def opening_reasons(case: Case, tables: AgentTables) -> list[str]:
    """The reasons every adapter checks first: one prompt, a permission mode and sources it can lay out, no
    command-line flags, no scripted approvals, no slash command."""
    reasons: list[str] = []
    if len(case.steps) != 1:
        reasons.append(f"{len(case.steps)} prompts (the adapter runs one prompt per case)")
    if case.run.permission_mode not in tables.modes:
        reasons.append(f"permission mode {case.run.permission_mode} ({tables.why_mode})")
    if case.run.flags.given() or case.run.agent:
        reasons.append(f"command-line flags {', '.join(case.run.flags.given() or ['agent'])}")
    if case.sources is not None and not set(case.sources.caller + case.sources.callee) <= tables.sources:
        reasons.append(f"definitions from {case.sources} ({tables.why_sources})")
    if case.approvals:
        reasons.append("scripted approvals" + (f" ({tables.why_approvals})" if tables.why_approvals else ""))
    if case.steps and case.steps[0].prompt.lstrip().startswith("/"):
        reasons.append("a slash command as the prompt")
    return reasons


def fixture_reasons(workdir: Path, home: Path, reasons: list[str], tables: AgentTables) -> list[str]:
    """The user-level files in ``home`` (but the ones the adapter lays out) and each of the adapter's unsaid
    paths present under ``workdir``, each reason once (``reasons``: those found before)."""
    added: list[str] = []
    kept = tables.home_kept
    user_files = sorted(p.name for p in home.iterdir() if p.name not in kept) if home.is_dir() else []
    if user_files:
        added.append(f"user-level files ({', '.join(user_files)})")
    for path, why in tables.unsaid.items():
        if (workdir / path).exists() and why not in reasons and why not in added:
            added.append(why)
    return added


def unknown_calls(case: Case, tables: AgentTables) -> list[str]:
    """A reason naming the scripted calls the adapter's tool table has no counterpart for (empty: none)."""
    unknown = sorted(name for name in scripted_calls(case) if not tables.vocabulary.knows(name))
    return [f"calls to {', '.join(unknown)} (no {tables.agent} tool in the adapter's table)"] if unknown else []


def settings_file(path: Path) -> dict[str, Any]:
    """A settings file's object; an absent or unreadable file, or one that holds no object, is empty."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _in_claude_names(step: StepOutput, vocabulary: Vocabulary) -> StepOutput:
    """A step's tool listing and permission denials in Claude Code's tool names."""
    denials = tuple(
        {**d, "tool_name": vocabulary.claude_name(str(d.get("tool_name")))} for d in step.permission_denials
    )
    return dataclasses.replace(
        step, init_tools=tuple(vocabulary.claude_name(t) for t in step.init_tools), permission_denials=denials
    )


@dataclass(frozen=True, kw_only=True)
class TranslatedEngine:
    """``family@VERSION``: a case said to another agent through its adapter's tables, or not-modelled with
    the reasons; else the agent's command line run with ``env`` over the case's own, the time limit scaled,
    the engine's fault plan with the case's own (judged as planned), tools spoken in the agent's names at the
    fake API, and what it printed read back in Claude Code's names."""

    engine_version: str
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)
    tables: ClassVar[AgentTables]

    @property
    def name(self) -> EngineName:
        return EngineName(self.tables.family, self.engine_version)

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run the case's one prompt on the agent; see Engine.run for the contract."""
        reasons = self.tables.unexpressible(case, workdir, home)
        if reasons:
            raise NotModelled(f"{self.name}: {'; '.join(reasons)}", phase="run")
        planned = ApiFaultPlan.parse(case.run.api_faults)
        vocabulary = self.tables.vocabulary
        with self.tables.launch(self.engine_version, case, workdir=workdir, home=home, model=model) as (argv, env):
            scaled = case.run.timeout * self.tables.timeout_scale
            run = dataclasses.replace(case.run, env={**case.run.env, **env}, timeout=scaled)
            done = run_command_line(
                dataclasses.replace(case, run=run),
                engine=self.name,
                argv=argv,
                workdir=workdir,
                home=home,
                tmp=tmp,
                model=model,
                faults=ApiFaultPlan((*self.api_faults.faults, *planned.faults)),
                planned=planned,
                vocabulary=vocabulary,
            )
        return dataclasses.replace(done, steps=tuple(_in_claude_names(s, vocabulary) for s in done.steps))
