"""The state of one engine run: what the process holds, what the session holds, and services.

Which state is per-process matters for ``session: resume`` (a new process resuming the session):
- per process (lost on resume and on a new session): hooks registered by invoked skills (S4; how long
  they last is the profile's ``skill_hook_lifetime``, measured ``process``), MCP connections,
  turn-scoped skill grants and withholdings;
- per session (kept on resume, lost on a new session): the session id and the main conversation;
- per run: the debug log and the reference engine's notes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.refengine import agent_keys
from harness.refengine.config_model import AgentDef, ProjectConfig
from harness.refengine.conversation import Conversation
from harness.refengine.hooks import HookRule, PayloadSource
from harness.refengine.mcp_client import McpPool
from harness.refengine.permission_request import MODE_NAMES, Mode
from harness.refengine.permission_rules import RuleSet
from harness.refengine.profiles import Profile
from harness.refengine.session_file import SessionFile, project_folder


@dataclass(frozen=True, kw_only=True)
class Request:
    """One model request, as the Messages API carries it: the system text, the messages, the offered tool names."""

    system: str
    messages: tuple[dict[str, Any], ...]
    tools: tuple[str, ...]


class Model(Protocol):
    """What the engine asks for every turn of every context: the content blocks of the assistant's reply."""

    def respond(self, request: Request) -> list[dict[str, Any]]: ...


@dataclass(kw_only=True)
class SessionState:
    session_id: str
    transcript_path: Path
    file: SessionFile
    """The transcript at ``transcript_path``, written as the main thread goes (session_file.py)."""
    agent_files: dict[str, SessionFile] = field(default_factory=dict)
    """Subagents' transcripts by agent id, beside it (``<session>/subagents/agent-<id>.jsonl``)."""
    main: Conversation | None = None
    prompt_id: str | None = None
    skill_hooks: list[HookRule] = field(default_factory=list)
    activated_skills: set[str] = field(default_factory=set)
    """Conditional (``paths:``) skills a file tool has exposed in this process."""
    pending_context: list[str] = field(default_factory=list)
    """SessionStart context waiting for the first prompt of the session."""
    denials: list[dict[str, Any]] = field(default_factory=list)
    """Refused tool calls of the current prompt, in every context."""
    classifier_refusals: int = 0
    """How many of them plan mode's auto-mode classifier gave (plan_classifier.py)."""
    prompt_stopped: bool = False
    """A UserPromptSubmit hook's ``continue: false`` stopped a prompt of this session (hook_reads.stopped_prompt)."""
    interrupted: bool = False
    """A PermissionRequest hook's deny with ``interrupt`` ended the current prompt (permission_request_updates)."""
    deferred_call: bool = False
    """A PreToolUse hook deferred a call of this session, which then waits unanswered (hook_defer)."""
    displayed: tuple[str, str | None] | None = None
    """The main thread's last message with text and the MessageDisplay displayContent for it (hook_display.py)."""
    tools_answered: set[str] = field(default_factory=set)
    """The names of the tools whose calls have been answered in this session, in any context, refusals and
    errors included (2.1.332's ``<tools-used-before-summary>`` leaves them out: agents.tools_used_summary)."""

    def agent_transcript(self, agent_id: str) -> Path:
        return self.transcript_path.with_suffix("") / "subagents" / f"agent-{agent_id}.jsonl"

    def transcript_of(self, conversation: Conversation) -> SessionFile | None:
        """Where a context's messages are written: the main thread's and each subagent's file (a forked skill's
        and a hook agent's: not written, unmeasured)."""
        if conversation.kind == "main":
            return self.file
        if conversation.kind != "subagent" or conversation.agent_id is None:
            return None
        if conversation.agent_id not in self.agent_files:
            kept = SessionFile(path=self.agent_transcript(conversation.agent_id), session_id=self.session_id,
                               cwd=self.file.cwd, agent_id=conversation.agent_id)
            opening = conversation.messages[0]["content"]
            texts = [b for b in opening if b.get("type") == "text"] if isinstance(opening, list) else []
            kept.prompt(texts[0]["text"] if len(texts) == 1 == len(opening) else opening)
            self.agent_files[conversation.agent_id] = kept
        return self.agent_files[conversation.agent_id]

    def forget_skill_hooks(self) -> None:
        self.skill_hooks.clear()


@dataclass(kw_only=True)
class Runtime:
    profile: Profile
    config: ProjectConfig
    rules: RuleSet
    mode: Mode
    env: Mapping[str, str]
    """Environment of every process the engine starts: Bash, command hooks, MCP servers."""
    model: Model
    mcp: McpPool
    timeout: float
    depth_cap: int
    main_agent: AgentDef | None
    session: SessionState
    converse: Callable[[Conversation], str]
    """Runs a context until its model stops calling tools; returns the final text (session.py)."""
    debug: list[str] = field(default_factory=list)
    approvals: tuple[Mapping[str, Any], ...] | None = None
    """The user's answers to permission prompts, in order (approvals.py); None: print mode asks no one."""
    asked: list[dict[str, Any]] = field(default_factory=list)
    """The permission prompts shown so far: ``{"tool", "input", "answer"}`` (the answer's index or None)."""
    notes: list[str] = field(default_factory=list)
    races: list[tuple[str, ...]] = field(default_factory=list)
    async_unsettled: list[str] = field(default_factory=list)
    """The async hook handlers started since this process's last tool call began (hook_async.settle)."""
    """Texts a race decides: each entry's first is the one this run gave, the rest what the real engine may
    give instead (hook_results.combine)."""

    @property
    def workdir(self) -> Path:
        return self.config.workdir

    def payload_source(self, conversation: Conversation) -> PayloadSource:
        return PayloadSource(
            session_id=self.session.session_id,
            transcript_path=self.session.transcript_path,
            cwd=self.workdir,
            prompt_id=self.session.prompt_id,
            permission_mode=MODE_NAMES[conversation.mode or self.mode],
            agent_id=conversation.agent_id,
            agent_type=conversation.agent_type,
            effort=None if conversation.agent is not None and "haiku" in (conversation.agent.model or "")
            else (conversation.agent and agent_keys.effort(conversation.agent)) or self.profile.hook_effort_level,
        )


def new_session(*, home: Path, workdir: Path) -> SessionState:
    session_id = str(uuid.uuid4())
    transcript = project_folder(home, workdir) / f"{session_id}.jsonl"
    return SessionState(session_id=session_id, transcript_path=transcript,
                        file=SessionFile(path=transcript, session_id=session_id, cwd=workdir))


def new_agent_id() -> str:
    """Shaped like the real ids (``a`` + 16 hex digits)."""
    return "a" + uuid.uuid4().hex[:16]


def active_rules(rt: Runtime, conversation: Conversation, event: str | None = None) -> list[HookRule]:
    """The hook rules a context holds (settings' and plugins', the session's skills', its own), those on ``event``
    where one is named; none under disableAllHooks (measured: it silences skill and agent hooks too)."""
    if rt.config.hooks_disabled:
        return []
    rules = [*rt.config.hooks, *rt.session.skill_hooks, *conversation.scoped_hooks]
    return [r for r in rules if event is None or r.event == event]
