"""Sessions, processes and prompts (the loop each context runs is context_loop.py).

``Engine`` is one run of the engine in a folder, driven the way a command line drives ``claude -p``:
``start_process()`` (fresh, or resuming the session), ``prompt(text)`` any number of times,
``end_process()``, and ``new_session()`` between processes. runtime.py lists what a new process loses.
Each prompt fires UserPromptSubmit, then the main context's loop runs until a reply holds no tool_use
and the Stop hooks let it end. The engine knows nothing of cases or of the harness that drives it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from harness.refengine import (
    agent_keys,
    agents,
    hook_async,
    hook_defer,
    hook_display,
    hook_messages,
    hook_quiet,
    hook_reads,
    memory,
    memory_hooks,
    memory_resume,
    settings_keys,
    slash,
)
from harness.refengine.config import load_project
from harness.refengine.config_model import Launch
from harness.refengine.context_loop import run_conversation
from harness.refengine.conversation import Conversation, system_note, user_text
from harness.refengine.dispatch import reported_name
from harness.refengine.errors import EngineFailure, NotModelled
from harness.refengine.hook_actions import fire
from harness.refengine.hook_messages import settings_error_debug
from harness.refengine.mcp_client import McpPool
from harness.refengine.permission_request import Mode
from harness.refengine.permission_rules import Rule, RuleSet
from harness.refengine.plugins import load_plugin
from harness.refengine.profiles import Profile
from harness.refengine.runtime import Model, Runtime, new_session
from harness.refengine.scope import raise_unmodelled

_DEPTH_VARIABLE = "CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH"
_MAIN_SYSTEM = "You are Claude Code, Anthropic's official CLI for Claude (reference engine)."


@dataclass(frozen=True, kw_only=True)
class Invocation:
    """What the command line and the environment give the engine."""

    workdir: Path
    home: Path
    trusted: bool
    """The folder's trust dialog was accepted (``hasTrustDialogAccepted``)."""
    permission_mode: Mode
    env: Mapping[str, str]
    """The engine process's environment; Bash, hooks and MCP servers get it with HOME and CLAUDE_PROJECT_DIR set."""
    agent: str | None = None
    """``--agent NAME``: the main thread runs as this agent."""
    timeout: float
    """Seconds a hook command, MCP call or tool process may take (the case's ``run.timeout``)."""
    plugin_dirs: tuple[Path, ...] = ()
    """``--plugin-dir``: plugin folders, in command-line order."""
    settings_file: Path | None = None
    """``--settings FILE``."""
    agents: Mapping[str, Any] | None = None
    """``--agents JSON``: session agents by name."""
    setting_sources: tuple[str, ...] | None = None
    """``--setting-sources``: the settings levels that load (user, project, local); None for all."""
    approvals: tuple[Mapping[str, Any], ...] | None = None
    """``--permission-prompt-tool``: the user's answers to permission prompts, in order (approvals.py)."""

    def launch(self) -> Launch:
        """What the command line adds to the folder's configuration (config_model.Launch)."""
        return Launch(
            plugins=tuple(load_plugin(folder) for folder in self.plugin_dirs),
            settings_file=self.settings_file,
            agents=self.agents,
            setting_sources=frozenset(self.setting_sources) if self.setting_sources is not None else None,
        )


@dataclass(frozen=True, kw_only=True)
class PromptOutput:
    """What the engine prints for one prompt (stream-json ``result`` and the init event's tool list)."""

    result: str | None
    """None: the prompt was interrupted (a PermissionRequest hook's deny with ``interrupt``), printed as an error."""
    is_error: bool
    permission_denials: tuple[dict[str, Any], ...]
    init_tools: tuple[str, ...]


class Engine:
    """One engine run in ``invocation.workdir`` with ``profile``'s behaviour, asking ``model`` every turn."""

    def __init__(self, invocation: Invocation, *, profile: Profile, model: Model) -> None:
        config = load_project(workdir=invocation.workdir, home=invocation.home, trusted=invocation.trusted,
                              launch=invocation.launch())
        raise_unmodelled(config.unmodelled)
        env = process_env(workdir=invocation.workdir, home=invocation.home, base={**invocation.env, **config.env})
        main_agent = config.agents.get(invocation.agent) if invocation.agent else None
        if invocation.agent and main_agent is None:
            raise EngineFailure(f"reference engine: --agent {invocation.agent}: no such agent")
        if main_agent is not None and (problem := agent_keys.run_problem(main_agent, context="main",
                                                                          workdir=invocation.workdir)):
            raise NotModelled(problem)
        rt = Runtime(
            profile=profile, config=config,
            rules=RuleSet.from_lists(allow=config.permissions.allow, deny=config.permissions.deny,
                                     ask=config.permissions.ask, home=invocation.home,
                                     origins=config.permissions.origins),
            mode=settings_keys.session_mode(invocation.permission_mode, bypass_disabled=config.bypass_disabled,
                                            default_mode=config.default_mode),
            env=env, model=model,
            mcp=McpPool(servers=config.mcp_servers, cwd=invocation.workdir, env=env, timeout=invocation.timeout),
            timeout=invocation.timeout, depth_cap=_depth_cap(env, profile), main_agent=main_agent,
            session=new_session(home=invocation.home, workdir=invocation.workdir),
            converse=lambda conversation: "",  # replaced next: the loop needs the runtime it runs in
            approvals=invocation.approvals,
        )
        rt.converse = lambda conversation: run_conversation(rt, conversation)
        rt.notes.extend(config.warnings)
        if profile.readings:
            rt.notes.append(f"Documented readings of {'.'.join(map(str, profile.version))} laid over the measured "
                            f"profile: {', '.join(profile.readings)} (harness/refengine/readings.py).")
        self._rt = rt
        self._home = invocation.home
        self._running = False

    def start_process(self, *, resume: bool = False) -> None:
        """A new engine process: a fresh one, or one resuming the current session (``--resume``)."""
        _start_process(self._rt, source="resume" if resume else "startup", home=self._home)
        self._running = True

    def new_session(self) -> None:
        """The next process starts a new session in the same folder (call between processes)."""
        self._rt.session = new_session(home=self._home, workdir=self._rt.workdir)

    def prompt(self, text: str) -> PromptOutput:
        return _run_prompt(self._rt, text)

    def end_process(self) -> None:
        """SessionEnd and MCP shutdown; safe to call when no process runs."""
        if self._running:
            self._running = False
            _end_process(self._rt)

    @property
    def asked(self) -> tuple[dict[str, Any], ...]:
        """The permission prompts the user was shown (a run with approvals)."""
        return tuple(self._rt.asked)

    @property
    def debug_log(self) -> str:
        return "\n".join([*self._rt.debug, *self._rt.mcp.failures])

    @property
    def notes(self) -> tuple[str, ...]:
        """Where this run knowingly departs from the real engine (configuration warnings, readings), and
        each MCP server that did not start, with why."""
        return (*self._rt.notes, *self._rt.mcp.failed.values())

    @property
    def mcp_failed(self) -> tuple[dict[str, str], ...]:
        """``{name, status}`` of each MCP server that did not start, as the real engine's init event has it."""
        return tuple({"name": name, "status": "failed"} for name in self._rt.mcp.failed)

    @property
    def races(self) -> tuple[tuple[str, ...], ...]:
        """Texts a race decides in the real engine: each entry's first is this run's, the others its rivals."""
        return tuple(self._rt.races)


def process_env(*, workdir: Path, home: Path, base: Mapping[str, str]) -> dict[str, str]:
    """What Bash, hooks and MCP servers see: the engine's own environment (with the settings env laid over it,
    settings_env.py) and its home and project directory."""
    return {**base, "HOME": str(home), "CLAUDE_PROJECT_DIR": str(workdir)}


def _depth_cap(env: Mapping[str, str], profile: Profile) -> int:
    value = env.get(_DEPTH_VARIABLE, "")
    return int(value) if value.strip().isdigit() else profile.subagent_spawn_depth


def _start_process(rt: Runtime, *, source: str, home: Path) -> None:
    """A new engine process: MCP servers connect, skill-registered hooks start empty (unless they live
    as long as the session, S4), SessionStart."""
    if source == "resume":
        memory_resume.on_resume(rt, home)
        hook_quiet.wake(rt, "resume")
    if source == "resume":
        memory_hooks.check_context(rt, _main(rt), "a resumed session")
    hook_quiet.wake_for_definitions(rt)
    rt.mcp.start()
    if rt.profile.settings_errors_logged:
        rt.debug.extend(settings_error_debug(str(p.path), p.problem) for p in rt.config.settings_problems)
    if rt.profile.skill_hook_lifetime != "session":
        rt.session.forget_skill_hooks()
    rt.session.activated_skills.clear()
    if rt.session.main is not None:
        rt.session.main.start_user_turn()
        if source == "resume" and not rt.profile.search_tools_stay_after_resume:
            rt.session.main.search_tools_shown = False
        # The Read tool's unchanged-file state is the process's (measured on 2.1.252, explore seed 1 x1-0077:
        # a resumed process reads a file the session read before in full again).
        rt.session.main.read_views.clear()
        rt.session.main.seen_files.clear()
    outcome = fire(rt, _main(rt), "SessionStart", subject=source, fields={"source": source})
    rt.session.pending_context.extend(outcome.contexts)
    memory_hooks.at_start(rt, _main(rt))


def _end_process(rt: Runtime) -> None:
    hook_async.check_settled(rt.async_unsettled)
    if rt.session.main is not None:
        fire(rt, rt.session.main, "SessionEnd", subject="other", fields={"reason": "other"})
    rt.mcp.close()


def _main(rt: Runtime) -> Conversation:
    """The main context, created with the session (opened by its first prompt)."""
    if rt.session.main is None:
        agent = rt.main_agent
        rt.session.main = Conversation(
            kind="main",
            system=agents.system_text(rt, agent) if agent else _MAIN_SYSTEM,
            messages=[],
            pool=agents.context_tools(rt, agent, depth=0),
            explicit_tools=agents.is_allowlist(agent),
            depth=0,
            agent=agent,
            scoped_hooks=agents.active_agent_hooks(rt, agent, main_thread=True),
        )
    return rt.session.main


def _run_prompt(rt: Runtime, prompt: str) -> PromptOutput:
    hook_defer.check_next_prompt(rt)
    conversation = _main(rt)
    rt.session.prompt_id = str(uuid.uuid4())
    conversation.start_user_turn()
    if rt.profile.skill_hook_lifetime == "turn":
        rt.session.forget_skill_hooks()  # S4 as seed 001 reads it: the hook belongs to the skill's turn
    rt.session.denials.clear()
    rt.session.classifier_refusals = 0
    if rt.session.interrupted:
        raise NotModelled("a prompt after one a PermissionRequest hook's interrupt ended (not measured)")
    opening = not conversation.messages
    conversation.messages.append(_opening_message(rt, prompt) if opening else user_text(prompt))
    notes = [*_listings(rt, conversation)] if opening else []
    notes += rt.session.pending_context
    rt.session.pending_context.clear()
    submitted = fire(rt, conversation, "UserPromptSubmit", subject=None, fields={"prompt": prompt})
    if (stopped := hook_reads.prompt_stop(rt, conversation, submitted, prompt)) is not None:
        return _prompt_output(rt, result=stopped)
    if submitted.blocked:
        # Exit 2 / decision block erases the prompt; the model never sees it (notes §1.6).
        # Every UserPromptSubmit action runs, the blocking one's siblings too: what was seen in most runs; in one
        # (cc-harness explore seed 7, x7-0132 on 2.1.252) a sibling command left no trace (a race, NOT_MODELLED.md).
        if not (submitted.message or "").startswith(hook_messages.PROMPT_BLOCKED):
            raise NotModelled("the printed result of a prompt a UserPromptSubmit hook blocked other than by exit 2 "
                              "or a JSON decision block")
        conversation.messages.pop()
        if submitted.suppress_prompt:
            return _prompt_output(rt, result=submitted.message or "")
        return _prompt_output(rt, result=hook_messages.prompt_blocked_result(submitted.message or "", prompt))
    notes += submitted.contexts
    command = slash.parse(prompt)
    if command is None:
        rt.session.file.prompt(prompt)
    else:
        if not opening:
            raise NotModelled("a slash command as a later prompt of the session (measured: as its first)")
        if rt.config.memory.present:
            raise NotModelled("a slash command with memory files (measured: a plain prompt)")
        try:
            expanded = slash.expand(rt, *command)
        except slash.ShellLineFailed as failed:
            conversation.messages.pop()
            return _prompt_output(rt, result=failed.printed)
        conversation.messages[-1] = {"role": "user", "content": [{"type": "text", "text": expanded.header},
                                                                 {"type": "text", "text": expanded.body}]}
        rt.session.file.command(expanded.header, expanded.body)
        conversation.granted.extend(Rule.parse(t) for t in expanded.allowed_tools)  # cleared at the next prompt
    if notes:
        conversation.messages.append(system_note("\n\n".join(notes)))
    return _prompt_output(rt, result=hook_display.printed(rt, run_conversation(rt, conversation)))


def _opening_message(rt: Runtime, prompt: str) -> dict[str, Any]:
    """The session's first user message: the CLAUDE.md block, if any, then the prompt (memory.py)."""
    files = rt.config.memory.opening
    if not files:
        return user_text(prompt)
    if rt.main_agent is not None:
        raise NotModelled("memory files with the main thread run as an agent (--agent; unmeasured)")
    return {"role": "user", "content": [memory.opening_block(files, rt.profile), {"type": "text", "text": prompt}]}


def _listings(rt: Runtime, conversation: Conversation) -> list[str]:
    tools = conversation.pool
    return [text for text, present in ((agents.agent_listing(rt), "Agent" in tools),
                                       (agents.skill_listing(rt), "Skill" in tools)) if present and text]


def _prompt_output(rt: Runtime, *, result: str) -> PromptOutput:
    """The init event lists every callable tool, the deferred ones too: built-ins and MCP tools behind
    ToolSearch (measured on 2.1.332: hook-tool-mcp-tool, clash-mcp-user-plugin list ``mcp__marker__record``,
    ``mcp__plugin_team_marker__record``). It is sent as the prompt starts, before a skill withholds a tool:
    a skill's ``disallowed-tools: Bash`` does not bring Glob and Grep into it (measured on 2.1.252 to
    2.1.332: skill-tool-disallowed-tools, plugin-skill-tool-disallowed)."""
    main = replace(_main(rt), withheld=set(), search_tools_shown=False)
    profile = rt.profile
    listed = [t for t in main.callable(profile)
              if t in main.offered(profile) or t in main.deferred(profile) or t.startswith("mcp__")]
    interrupted = rt.session.interrupted
    return PromptOutput(result=None if interrupted else result, is_error=interrupted,
                        permission_denials=tuple(rt.session.denials),
                        init_tools=tuple(reported_name(t, rt.profile) for t in listed))
