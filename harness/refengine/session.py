"""Sessions, prompts, and the loop every context runs.

``run_case`` plays a case's steps: ``new`` starts a session (and a process) in the same folder,
``same`` sends the next prompt to the running one, ``resume`` starts a new process that continues
the conversation (runtime.py lists what a new process loses). Each prompt fires UserPromptSubmit,
then the main context's loop runs until a reply holds no tool_use and the Stop hooks let it end.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from harness.case import Case
from harness.engines.base import EngineRun, StepOutput
from harness.errors import EngineError
from harness.refengine import agents
from harness.refengine.config import load_project
from harness.refengine.conversation import Conversation, system_note, text_of, user_text
from harness.refengine.dispatch import reported_name, run_tool_use
from harness.refengine.hook_actions import fire
from harness.refengine.mcp_client import McpPool
from harness.refengine.messages import STRUCTURED_OUTPUT_ENFORCE, settings_error_debug
from harness.refengine.permissions import RuleSet
from harness.refengine.profiles import Profile
from harness.refengine.runtime import Model, Runtime, new_session
from harness.scripted import ModelRequest

MAX_TURNS = 100
STOP_BLOCK_CAP = 8  # consecutive Stop-hook blocks before the turn ends anyway (notes §1.7)
HOOK_AGENT_MAX_TURNS = 50
DEPTH_VARIABLE = "CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH"
MAIN_SYSTEM = "You are Claude Code, Anthropic's official CLI for Claude (reference engine)."


class CaseModel(Model, Protocol):
    """The scripted model as the case driver uses it: told when each step's prompt goes out."""

    def begin_step(self, index: int) -> None: ...


def run_case(*, case: Case, profile: Profile, workdir: Path, home: Path, model: CaseModel) -> EngineRun:
    config = load_project(workdir=workdir, home=home, trusted=case.run.trusted)
    env = process_env(workdir=workdir, home=home, extra=case.run.env)
    main_agent = config.agents.get(case.run.agent) if case.run.agent else None
    if case.run.agent and main_agent is None:
        raise EngineError(f"reference engine: --agent {case.run.agent}: no such agent in the fixture")
    rt = Runtime(
        profile=profile, config=config,
        rules=RuleSet.from_lists(allow=config.permissions.allow, deny=config.permissions.deny,
                                 ask=config.permissions.ask),
        mode=case.run.permission_mode, env=env, model=model,
        mcp=McpPool(servers=config.mcp_servers, cwd=workdir, env=env, timeout=case.run.timeout),
        timeout=case.run.timeout, depth_cap=_depth_cap(case.run.env, profile), main_agent=main_agent,
        session=new_session(home=home, workdir=workdir),
        converse=lambda conversation: "",  # replaced next: the loop needs the runtime it runs in
    )
    rt.converse = lambda conversation: run_conversation(rt, conversation)
    rt.notes.extend(config.warnings)
    if profile.readings:
        rt.notes.append(f"Documented readings of {'.'.join(map(str, profile.version))} laid over the measured "
                        f"profile: {', '.join(profile.readings)} (harness/refengine/readings.py).")
    outputs: list[StepOutput] = []
    try:
        for index, step in enumerate(case.steps):
            model.begin_step(index)
            if index == 0:
                _start_process(rt, source="startup")
            elif step.session == "new":
                _end_process(rt)
                rt.session = new_session(home=home, workdir=workdir)
                _start_process(rt, source="startup")
            elif step.session == "resume":
                _end_process(rt)
                _start_process(rt, source="resume")
            outputs.append(run_prompt(rt, index, step.prompt))
    finally:
        _end_process(rt)
    debug = "\n".join([*rt.debug, *rt.mcp.failures])
    return EngineRun(steps=tuple(outputs), debug_log=debug, notes=tuple(rt.notes))


def process_env(*, workdir: Path, home: Path, extra: Mapping[str, str]) -> dict[str, str]:
    """What Bash, hooks and MCP servers see: the harness's environment with the engine's home and
    project directory, plus the case's ``run.env``."""
    return {**os.environ, "HOME": str(home), "CLAUDE_PROJECT_DIR": str(workdir), **extra}


def _depth_cap(env: Mapping[str, str], profile: Profile) -> int:
    value = env.get(DEPTH_VARIABLE, "")
    return int(value) if value.strip().isdigit() else profile.subagent_spawn_depth


def _start_process(rt: Runtime, *, source: str) -> None:
    """A new engine process: MCP servers connect, skill-registered hooks start empty (unless they live
    as long as the session, S4), SessionStart."""
    rt.mcp.start()
    if rt.profile.settings_errors_logged:
        rt.debug.extend(settings_error_debug(str(p.path), p.problem) for p in rt.config.settings_problems)
    if rt.profile.skill_hook_lifetime != "session":
        rt.session.forget_skill_hooks()
    rt.session.activated_skills.clear()
    if rt.session.main is not None:
        rt.session.main.start_user_turn()
    outcome = fire(rt, _main(rt), "SessionStart", subject=source, fields={"source": source})
    rt.session.pending_context.extend(outcome.contexts)


def _end_process(rt: Runtime) -> None:
    if rt.session.main is not None:
        fire(rt, rt.session.main, "SessionEnd", subject="other", fields={"reason": "other"})
    rt.mcp.close()


def _main(rt: Runtime) -> Conversation:
    """The main context, created with the session (opened by its first prompt)."""
    if rt.session.main is None:
        agent = rt.main_agent
        rt.session.main = Conversation(
            kind="main",
            system=agents.system_text(rt, agent) if agent else MAIN_SYSTEM,
            messages=[],
            pool=agents.context_tools(rt, agent, depth=0),
            depth=0,
            agent=agent,
            scoped_hooks=agents.active_agent_hooks(rt, agent, main_thread=True),
        )
    return rt.session.main


def run_prompt(rt: Runtime, index: int, prompt: str) -> StepOutput:
    conversation = _main(rt)
    rt.session.prompt_id = str(uuid.uuid4())
    conversation.start_user_turn()
    if rt.profile.skill_hook_lifetime == "turn":
        rt.session.forget_skill_hooks()  # S4 as seed 001 reads it: the hook belongs to the skill's turn
    rt.session.denials.clear()
    opening = not conversation.messages
    conversation.messages.append(user_text(prompt))
    notes = [*_listings(rt, conversation)] if opening else []
    notes += rt.session.pending_context
    rt.session.pending_context.clear()
    submitted = fire(rt, conversation, "UserPromptSubmit", subject=None, fields={"prompt": prompt})
    if submitted.blocked:
        # Exit 2 / decision block erases the prompt; the model never sees it (notes §1.6).
        conversation.messages.pop()
        return _step_output(rt, index, result="")
    notes += submitted.contexts
    if notes:
        conversation.messages.append(system_note("\n\n".join(notes)))
    return _step_output(rt, index, result=run_conversation(rt, conversation))


def _listings(rt: Runtime, conversation: Conversation) -> list[str]:
    tools = conversation.pool
    return [text for text, present in ((agents.agent_listing(rt), "Agent" in tools),
                                       (agents.skill_listing(rt), "Skill" in tools)) if present and text]


def _step_output(rt: Runtime, index: int, *, result: str) -> StepOutput:
    main = _main(rt)
    offered = main.offered(rt.profile)
    return StepOutput(step=index, result=result, is_error=False, permission_denials=tuple(rt.session.denials),
                      init_tools=tuple(reported_name(t, rt.profile) for t in offered))


def run_conversation(rt: Runtime, conversation: Conversation) -> str:
    """Ask the model until a reply has no tool_use and no Stop hook sends it back; the final text.

    Subagent and fork contexts are framed by SubagentStart and SubagentStop.
    """
    is_subagent = conversation.kind in ("subagent", "fork")
    if is_subagent:
        started = fire(rt, conversation, "SubagentStart", subject=conversation.agent_type,
                       fields={})
        if started.contexts:
            conversation.messages.append(system_note("\n\n".join(started.contexts)))
    stop_blocks = 0
    reminded = False
    limit = HOOK_AGENT_MAX_TURNS if conversation.kind == "hook_agent" else MAX_TURNS
    for _ in range(limit):
        reply = rt.model.respond(_request(rt, conversation))
        conversation.messages.append({"role": "assistant", "content": reply})
        uses = [b for b in reply if b.get("type") == "tool_use"]
        if uses:
            outcomes = [run_tool_use(rt, conversation, use) for use in uses]
            conversation.messages.append({"role": "user", "content": [b for o in outcomes for b in o.blocks]})
            notes = [n for o in outcomes for n in o.notes]
            if notes:
                conversation.messages.append(system_note("\n\n".join(notes)))
            if any(o.ends_context for o in outcomes) or any(o.stop_turn for o in outcomes):
                return ""
            continue
        text = text_of(reply)
        if conversation.kind == "hook_agent":
            if conversation.structured_output is None and not reminded:
                reminded = True
                conversation.messages.append(user_text(STRUCTURED_OUTPUT_ENFORCE))
                continue
            return text
        feedback = _stop_hooks(rt, conversation, text, active=stop_blocks > 0)
        if feedback is None or stop_blocks >= STOP_BLOCK_CAP:
            return text
        stop_blocks += 1
        conversation.messages.append(user_text(feedback))
    raise EngineError(f"reference engine: a {conversation.kind} context made {limit} model calls without ending")


def _request(rt: Runtime, conversation: Conversation) -> ModelRequest:
    tools = conversation.offered(rt.profile)
    return ModelRequest(system=conversation.system, messages=tuple(conversation.messages), tools=tools)


def _stop_hooks(rt: Runtime, conversation: Conversation, text: str, *, active: bool) -> str | None:
    """Stop (main) or SubagentStop (subagent, fork): a block returns the feedback for the model."""
    if conversation.kind == "main":
        outcome = fire(rt, conversation, "Stop", subject=None, fields={
            "stop_hook_active": active, "last_assistant_message": text, "background_tasks": [],
            "session_crons": []})
    else:
        transcript = rt.session.transcript_path.with_suffix("") / "subagents" / f"agent-{conversation.agent_id}.jsonl"
        outcome = fire(rt, conversation, "SubagentStop", subject=conversation.agent_type, fields={
            "stop_hook_active": active, "agent_transcript_path": str(transcript), "last_assistant_message": text,
            "background_tasks": [], "session_crons": []})
    return outcome.message if outcome.blocked else None
