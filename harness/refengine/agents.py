"""Subagents: the Agent tool, tool-pool resolution (A1-A5), and new model contexts.

A subagent is a new context whose opening user message is the task and whose system text is the
agent's body. Its tools: the definition's ``tools`` is a real allowlist (A1), absent means inherit
(A2), ``disallowedTools`` removes, and at the depth cap the Agent tool is withheld whatever the
definition says (A5; seed 001's reading, ``depth_cap_error``, keeps it and refuses the call instead).
``skills:`` preloads bodies as text and adds no tool (A3). A bare deny rule takes a built-in out of
every pool. Glob and Grep follow their own rule (``search_tools_hidden_while_bash_available``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from harness.refengine import agent_isolation, agent_keys, agent_rules, memory, messages
from harness.refengine.config_model import AgentDef, SkillDef
from harness.refengine.conversation import AGENT, Conversation, system_note
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookRule
from harness.refengine.permissions import mcp_removed_by_deny, removed_by_deny
from harness.refengine.runtime import Runtime, active_rules, new_agent_id
from harness.refengine.tool_model import ALIASES, MODELLED_BUILTINS, SEARCH_TOOLS, ToolResult

GENERAL_PURPOSE = "general-purpose"
_READ_ONLY_EXCLUDED = ("Agent", "ExitPlanMode", "Edit", "Write", "NotebookEdit")
_BUILTIN_AGENTS: Mapping[str, AgentDef] = {
    GENERAL_PURPOSE: AgentDef(
        name=GENERAL_PURPOSE, builtin=True, tools=None, disallowed_tools=(), skills=(), hooks=(),
        description="General-purpose agent for researching complex questions, searching for code, and "
                    "executing multi-step tasks.",
        body="You are an agent for Claude Code. Given the user's message, use the tools available to complete "
             "the task. Complete the task fully, then respond with a concise report.",
    ),
    "Explore": AgentDef(
        name="Explore", builtin=True, tools=None, disallowed_tools=_READ_ONLY_EXCLUDED, skills=(), hooks=(),
        description="Read-only search agent for broad fan-out searches.",
        body="You are a file search specialist for Claude Code. You only read; you never modify files.",
    ),
    "Plan": AgentDef(
        name="Plan", builtin=True, tools=None, disallowed_tools=_READ_ONLY_EXCLUDED, skills=(), hooks=(),
        description="Software architect agent for designing implementation plans.",
        body="You are a software architect for Claude Code. You explore the code and design a plan; you never "
             "modify files.",
    ),
    "claude": AgentDef(
        name="claude", builtin=True, tools=None, disallowed_tools=(), skills=(), hooks=(),
        description="Catch-all for any task that doesn't fit a more specific agent.",
        body="You are an agent for Claude Code. Complete the task you are given.",
    ),
}


def all_agents(rt: Runtime) -> dict[str, AgentDef]:
    """Built-ins, overridden by same-named definitions from the folder (notes §3.1)."""
    return {**_BUILTIN_AGENTS, **rt.config.agents}


def full_pool(rt: Runtime) -> tuple[str, ...]:
    """Every modelled tool the session has, sorted as the real engine sorts built-ins, MCP tools after them."""
    removed = removed_by_deny(rt.rules)
    mcp = (t for t in rt.mcp.offered_tools() if not mcp_removed_by_deny(rt.rules, t))
    return (*sorted(t for t in MODELLED_BUILTINS if t not in removed), *mcp)


def _canonical(name: str) -> str:
    """``Task`` and ``Agent(x, y)`` both name the Agent tool (A4, notes §3.5)."""
    base = re.sub(r"\(.*\)\s*$", "", name.strip())
    return ALIASES.get(base, base)


def is_allowlist(agent: AgentDef | None) -> bool:
    """The definition names its tools (``*`` is inheriting)."""
    return agent is not None and agent.tools is not None and "*" not in agent.tools


def resolve_tools(agent: AgentDef | None, pool: tuple[str, ...], *, depth: int, cap: int,
                  withhold_agent_at_cap: bool = True, search_tools_hidden: bool = False) -> tuple[str, ...]:
    """The tools of a context at ``depth`` running ``agent`` (None: inherit everything).

    ``disallowedTools`` is applied first, then ``tools`` against what remains (notes §3.3); an
    explicit list keeps its own order (measured: ``tools: [Read, Bash]`` is offered as Read, Bash).
    ``withhold_agent_at_cap`` is False where the profile has the cap refuse the call instead (A5).
    ``search_tools_hidden``: the profile's ``search_tools_hidden_while_bash_available`` (_search_tools).
    """
    remaining = list(pool)
    if agent is not None:
        removed = {_canonical(t) for t in agent.disallowed_tools}
        remaining = [t for t in remaining if t not in removed and not _server_listed(t, removed)]
        if agent.tools is not None and "*" not in agent.tools:
            wanted = [_canonical(t) for t in agent.tools]
            listed = [t for t in dict.fromkeys(wanted) if t in remaining]
            whole_servers = [t for t in remaining if t not in listed and _server_listed(t, set(wanted))]
            remaining = listed + whole_servers
    if search_tools_hidden and not is_allowlist(agent):
        remaining = _search_tools(remaining, base=pool)
    if depth >= cap and withhold_agent_at_cap:
        remaining = [t for t in remaining if t != AGENT]
    return tuple(remaining)


def _search_tools(inherited: list[str], *, base: tuple[str, ...]) -> list[str]:
    """Glob and Grep in an inherited pool (measured on 2.1.252 to 2.1.332). They stay where Bash does, for
    a skill's ``disallowed-tools: Bash`` to reveal them (Conversation.callable hides them meanwhile), and
    where a deny rule took Bash out of the session's pool; an agent's ``disallowedTools: Bash`` leaves
    them out. An explicit ``tools:`` list keeps the ones it names (hidden if it names Bash too)."""
    if "Bash" in inherited or "Bash" not in base:
        return inherited
    return [t for t in inherited if t not in SEARCH_TOOLS]


def context_tools(rt: Runtime, agent: AgentDef | None, *, depth: int) -> tuple[str, ...]:
    """The tools of a main or subagent context at ``depth`` under this run's profile and cap."""
    return resolve_tools(agent, full_pool(rt), depth=depth, cap=rt.depth_cap,
                         withhold_agent_at_cap=not rt.profile.depth_cap_error,
                         search_tools_hidden=rt.profile.search_tools_hidden_while_bash_available)


def _server_listed(tool: str, names: set[str]) -> bool:
    """``mcp__server`` or ``mcp__server__*`` in a tools field stands for all of that server's tools."""
    return any(tool.startswith(n.removesuffix("*") if n.endswith("__*") else n + "__")
               for n in names if n.startswith("mcp__"))


def active_agent_hooks(rt: Runtime, agent: AgentDef | None, *, main_thread: bool) -> tuple[HookRule, ...]:
    """Agent-frontmatter hooks for a context running ``agent`` (A6).

    Measured on 2.1.252: inside a subagent they apply when the folder is trusted and are dropped when
    it is not; the untrusted case is what A6a reports as "does nothing". ``~/.claude/agents`` and
    ``--agents`` definitions are exempt (measured on 2.1.252 to 2.1.332); a plugin agent has none (its
    ``hooks`` field is ignored at load, plugins.py). In a subagent ``Stop`` becomes ``SubagentStop``
    (notes §1.10).
    """
    if agent is None or not agent.hooks or not rt.profile.agent_frontmatter_hooks:
        return ()
    if rt.profile.agent_hooks_need_trust and not rt.config.trusted and not agent.trust_exempt:
        return ()
    if main_thread:
        return agent.hooks if rt.profile.agent_hooks_on_main_agent else ()
    return tuple(
        HookRule(event="SubagentStop", matcher=r.matcher, actions=r.actions, origin=r.origin,
                 plugin_root=r.plugin_root)
        if r.event == "Stop" else r
        for r in agent.hooks
    )


def system_text(rt: Runtime, agent: AgentDef) -> str:
    return f"{agent.body}\n\nWorking directory: {rt.workdir}"


def _opening_blocks(rt: Runtime, prompt: str, skills: tuple[str, ...]) -> list[dict[str, Any]]:
    """The task, then each preloaded skill as the real engine injects it (measured on 2.1.252:
    the command tags, under the name as ``skills:`` writes it, then ``Base directory for this skill`` + body)."""
    preloaded = [(name, skill) for name in skills if (skill := _preloadable(rt, name)) is not None]
    blocks = [{"type": "text", "text": prompt + ("\n" if preloaded else "")}]
    for name, skill in preloaded:
        blocks.append({"type": "text", "text": messages.preloaded_skill_tags(name)})
        blocks.append({"type": "text", "text": messages.skill_base_directory(skill.directory, skill.body)})
    return blocks


def _preloadable(rt: Runtime, name: str) -> SkillDef | None:
    """The skill ``skills: [name]`` preloads. Measured on 2.1.252 to 2.1.332: a plugin skill's bare name finds
    it (``greet`` preloads ``team:greet``), where the Skill tool refuses that name (L1); which one of several
    plugins' skills of that name is not measured."""
    skill = rt.config.skills.get(name)
    if skill is None and ":" not in name and rt.profile.skill_preload_finds_plugin_bare_name:
        found = [s for s in rt.config.skills.values() if s.plugin and s.name == f"{s.plugin}:{name}"]
        if len(found) > 1:
            raise NotModelled(f"skills: [{name}] where several plugins have a skill {name}")
        skill = found[0] if found else None
    return None if skill is None or skill.disable_model_invocation else skill


def subagent(rt: Runtime, parent: Conversation, agent: AgentDef, opening: list[dict[str, Any]], *,
             fork: bool = False) -> Conversation:
    """A fresh context one level below ``parent``; ``fork`` marks a forked skill's context."""
    depth = parent.depth + 1
    if problem := agent_keys.run_problem(agent, context="fork" if fork else "subagent", workdir=rt.workdir):
        raise NotModelled(problem)
    tools = context_tools(rt, agent, depth=depth)
    if is_allowlist(agent):
        tools = agent_keys.memory_tools(agent, tools)
    if rt.config.memory.present:
        # Measured: a general-purpose subagent's task opens with the main thread's CLAUDE.md block, and so does a
        # project agent's (memory-opening-block-project-agent). Other agents (Explore, a plugin's, one with
        # omitClaudeMd) and forked skills were not measured.
        same_block = agent.name == GENERAL_PURPOSE if agent.builtin else \
            agent.source in ("project", "user") and "omitClaudeMd" not in dict(agent.run_keys)
        if fork or not same_block:
            raise NotModelled(f"memory files with a {'forked skill' if fork else f'{agent.name} subagent'} "
                              "(measured: a general-purpose subagent)")
        if active_rules(rt, parent, "InstructionsLoaded"):  # memory_hooks.check_context's test, without its loop
            raise NotModelled("a hook on InstructionsLoaded with memory files in a subagent's opening block "
                              "(not measured)")
        opening = [memory.opening_block(rt.config.memory.opening, rt.profile), *opening] \
            if rt.config.memory.opening else opening
    conversation = Conversation(
        kind="fork" if fork else "subagent",
        system=system_text(rt, agent),
        messages=[{"role": "user", "content": opening}],
        pool=tools,
        explicit_tools=is_allowlist(agent),
        depth=depth,
        agent=agent,
        agent_id=new_agent_id(),
        scoped_hooks=active_agent_hooks(rt, agent, main_thread=False),
    )
    if "Skill" in tools:
        listing = skill_listing(rt)
        if listing:
            conversation.messages.append(system_note(listing))
    return conversation


def skill_listing(rt: Runtime, only: set[str] | None = None) -> str:
    lines = [_listing_line(rt, s) for s in rt.config.skills.values()
             if s.listed(activated=rt.session.activated_skills,
                         without_description=rt.profile.skill_listed_without_description)
             and (only is None or s.name in only)]
    return f"{messages.SKILL_LISTING_HEADER}\n\n" + "\n".join(lines) if lines else ""


def _listing_line(rt: Runtime, skill: SkillDef) -> str:
    """``- name: text``. A plugin skill's second name follows its own on 2.1.332 (``- team:greet-dir
    (team:fancy): ...``) and replaces it in the notes' reading (L3); seed 004 has the listing append
    ``(plugin:<plugin>)`` to its text (a reading, L2)."""
    name = skill.name
    if skill.alias and rt.profile.plugin_skill_name_replaces_folder:
        name = skill.alias
    elif skill.alias and rt.profile.plugin_skill_listing_shows_alias:
        name = f"{skill.name} ({skill.alias})"
    text = skill.listing_text
    if skill.plugin and rt.profile.plugin_skill_description_names_plugin:
        text = f"{text} (plugin:{skill.plugin})"
    return f"- {name}: {text}"


def _offered_agents(rt: Runtime) -> dict[str, AgentDef]:
    """The agents the model is told of: all but those a deny rule ``Agent(x)`` names (agent_rules.unlisted)."""
    agents = all_agents(rt)
    builtins = {*_BUILTIN_AGENTS, *messages.UNDEFINED_BUILTIN_AGENTS}
    unlisted = agent_rules.unlisted(rt.rules, builtins=builtins, mode=rt.mode)
    return {name: agent for name, agent in agents.items() if name not in unlisted}


def agent_listing(rt: Runtime) -> str:
    def tools_of(agent: AgentDef) -> str:
        if agent.tools is not None:
            return ", ".join(agent.tools)
        if agent.disallowed_tools:
            return "All tools except " + ", ".join(agent.disallowed_tools)
        return "*" if agent.builtin else "All tools"

    agents = sorted(_offered_agents(rt).values(), key=lambda a: a.name.lower())
    return messages.AGENT_LISTING_HEADER + "\n" + "\n".join(
        f"- {a.name}: {a.description} (Tools: {tools_of(a)})" for a in agents)


def launch(rt: Runtime, parent: Conversation, tool_input: Mapping[str, Any]) -> ToolResult:
    """The Agent tool: run the subagent in the foreground; its final text is the result."""
    if rt.profile.depth_cap_error and parent.depth >= rt.depth_cap:
        return ToolResult(content=messages.subagent_nesting_limit(parent.depth), is_error=True)
    wanted = str(tool_input.get("subagent_type") or GENERAL_PURPOSE)
    agents = all_agents(rt)
    agent = agents.get(wanted) or next(
        (a for a in agents.values() if _loose(a.name) == _loose(wanted)), None)
    if agent is None:
        if any(r.covers_tool("Agent") and r.specifier == wanted for r in rt.rules.deny):
            raise NotModelled(f"a deny rule Agent({wanted}) naming no agent")
        listed = _offered_agents(rt)
        return ToolResult(content=messages.agent_type_not_found(wanted, sorted(listed, key=str.lower)),
                          is_error=True)
    if (refusal := agent_rules.denial(rt.rules, wanted, mode=parent.mode or rt.mode)) is not None:
        return ToolResult(content=refusal, is_error=True)
    if tool_input.get("run_in_background") is not False:
        # The real engine (background by default since 2.1.198) answers 'Async agent launched successfully' and
        # hands the reply back later; running it in the foreground here would be a guess.
        raise NotModelled("an Agent call that runs in the background (without run_in_background: false)")
    if agent_isolation.isolated(agent):
        return _isolation_refusal(rt, parent, agent)
    child = subagent(rt, parent, agent, _opening_blocks(rt, str(tool_input["prompt"]), agent.skills))
    answered_before = frozenset(rt.session.tools_answered)
    started = time.monotonic()
    reply = rt.converse(child)
    elapsed = int((time.monotonic() - started) * 1000)
    used = tools_used_summary(rt, child, answered_before=answered_before)
    hint = parent.kind == "main" or not rt.profile.send_message_hint_only_on_main
    limit = agent_keys.turn_limit(agent) if child.stopped_at_turn_limit else None
    content = [{"type": "text", "text": messages.agent_result_report(
                   reply if limit is None else messages.turn_limit_note(limit),
                   framed=rt.profile.agent_result_hand_back_frame, tools_used=used, header=limit is None)},
               {"type": "text", "text": messages.agent_result_trailer(
                   child.agent_id or "", child.tool_uses, elapsed, tokens=_subagent_tokens(child),
                   send_message_hint=hint)}]
    response = {"status": "completed", "prompt": tool_input["prompt"], "agentId": child.agent_id,
                "agentType": agent.name, "content": [{"type": "text", "text": reply}],
                "totalDurationMs": elapsed, "totalToolUseCount": child.tool_uses}
    return ToolResult(content=content, response=response)


def _isolation_refusal(rt: Runtime, parent: Conversation, agent: AgentDef) -> ToolResult:
    """An isolated agent's launch outside a git repository: refused before it starts (agent_isolation.py)."""
    config = rt.config
    hooks = (*config.hooks, *parent.scoped_hooks, *(r for s in config.skills.values() for r in s.hooks),
             *(r for a in config.agents.values() for r in a.hooks))
    others = agent_keys.run_problem(agent_isolation.without_isolation(agent), context="subagent", workdir=rt.workdir)
    if problem := agent_isolation.problem(agent, workdir=rt.workdir, hooks=hooks, other_keys_problem=others):
        raise NotModelled(problem)
    return ToolResult(content=agent_isolation.REFUSAL, is_error=True)


def _subagent_tokens(child: Conversation) -> int:
    """The trailer's ``_subagent_tokens``: the subagent's final response's usage as the fake API reports it
    (input_tokens 1, output_tokens one per content block, harness/engines/fakeapi.py), input plus output.
    Measured: 2 after a final reply of one text block, whether or not the subagent called a tool before
    (so the last response's usage, not a sum), on 2.1.252 and 2.1.332 (cc-harness explore, seed 1) and
    on 2.1.257, 2.1.278 (subagent-result-usage-tokens). A final reply of several blocks is not measured."""
    last = next((m for m in reversed(child.messages) if m.get("role") == "assistant"), None)
    blocks = last.get("content") if last is not None else None
    if not isinstance(blocks, list) or len(blocks) != 1:
        raise NotModelled("subagent_tokens after a subagent's final reply of other than one content block")
    return 1 + 1


def tools_used_summary(rt: Runtime, child: Conversation, *, answered_before: frozenset[str]) -> tuple[str, ...] | None:
    """2.1.332's ``<tools-used-before-summary>``: the tools ``child`` called, in the order of their first call,
    but those whose calls had been answered anywhere in the session before ``child`` started
    (``answered_before``: the main thread's, an earlier subagent's, a refusal or a ``No such tool available``
    alike); no summary when none is left. Measured on 2.1.332: Bash then Agent, the subagent calling Bash,
    no summary (subagent-hook-absent, tool-subagent-no-call); an unavailable Glob then Agent, the subagent
    calling Glob then Grep, ``Grep`` (subagent-tool-search-allowlist); Bash then Agent, the subagent calling
    Glob and Grep, ``Glob, Grep`` (tool-builtin-glob-grep); a refused Skill and Write then Agent, ``Bash``,
    and a second subagent calling Bash, none (cc-harness explore seed 4242, x4242-0125 and x4242-0178); a
    subagent whose own Agent call was answered ``No such tool available``, ``Agent``
    (subagent-subagent-depth-cap-252); a subagent with ``tools: Read`` calling Bash (answered ``No such tool
    available``) then Read, ``Read`` (subagent-tools-used-summary-unavailable). Tools a subagent's own subagents
    called are not measured apart."""
    if not rt.profile.tools_used_summary:
        return None
    left = tuple(t for t in dict.fromkeys(child.tools_called) if t not in answered_before)
    callable_here, session_tools = child.callable(rt.profile), full_pool(rt)
    for t in left:
        if t in callable_here or _canonical(t) == AGENT:
            continue
        if t not in session_tools or t in child.pool:
            raise NotModelled(f"the tools-used summary of a subagent that called {t}, which it lacks for another "
                              "reason than its definition's tool list")
    # A tool the session has but the subagent's definition leaves out is not named (subagent-tools-used-summary-
    # unavailable: tools: Read, Bash called, "Read"; cc-harness explore, seed 20261202, x20261202-0003, -0084).
    left = tuple(t for t in left if t in callable_here or _canonical(t) == AGENT)
    return left or None


def _loose(name: str) -> str:
    """``subagent_type`` is matched ignoring case and separators (notes §3.4, since 2.1.140)."""
    return re.sub(r"[\s_-]", "", name).lower()
