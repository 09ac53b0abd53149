"""The Skill tool: validation (E5), its own approval (S6), inline runs (E6, S1, S3, S4), forks (S2, S7).

A skill does nothing by itself: inline, its body becomes a hidden user message the model reads;
forked, it becomes a subagent's task. What the engine *does* guarantee are the frontmatter effects:
``allowed-tools`` pre-approves, ``disallowed-tools`` denies, ``hooks`` registers for the session.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.refengine import messages
from harness.refengine.agents import GENERAL_PURPOSE, all_agents, subagent, tools_used_summary
from harness.refengine.config_model import SkillDef
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import Rule
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import ToolResult, skill_name

_MAX_SUGGESTION_DISTANCE = 2


def validation_error(rt: Runtime, tool_input: Mapping[str, Any]) -> str | None:
    """The Skill tool's validateInput: runs before hooks, so a bad name fires no PreToolUse."""
    name = skill_name(tool_input)
    if not name:
        return messages.invalid_skill_format(str(tool_input.get("skill", "")))
    skill = rt.config.skill(name)
    if skill is not None and skill.hidden_from_tool:
        raise NotModelled(f"a Skill call on the command {skill.name!r}, which carries hide-from-slash-command-tool "
                          "(measured only listed and typed: slash-command-hide-from-tool)")
    if skill is not None and skill.alias and name == skill.name and rt.profile.plugin_skill_name_replaces_folder:
        skill = None  # L3 as the notes read it: the folder's name is replaced, not kept
    if skill is None and name in messages.UI_COMMANDS:
        return messages.ui_command_not_skill(name)
    available = [s.name for s in rt.config.skills.values() if s.available(activated=rt.session.activated_skills)]
    if skill is None or skill.name not in available:
        full = _plugin_name_for(name, available)
        if full is not None and rt.profile.unknown_skill_names_plugin_skill:
            return messages.unknown_skill_plugin_name(name, full)
        return messages.unknown_skill(name, _suggestion(name, [*available, *messages.SUGGESTED_COMMANDS]))
    if skill.disable_model_invocation:
        return messages.skill_model_invocation_disabled(name)
    return None


def needs_approval(rt: Runtime, tool_input: Mapping[str, Any]) -> bool:
    """S6. The real engine lists the loaded skill's properties and auto-approves only when each
    non-empty one is on a safe list of 44 names (found in the 2.1.252 binary). Of the properties a
    SKILL.md can set, three are off that list: ``allowedTools`` (from ``allowed-tools`` only; a
    camelCase ``allowedTools:`` key is not read, measured), ``disallowedTools`` (from either
    spelling) and ``hooks``. ``context``, ``agent``, ``model`` and the rest are safe."""
    skill = rt.config.skill(skill_name(tool_input))
    if skill is None:
        return True
    if not rt.profile.safe_skills_skip_approval:
        return True
    return bool(_allowed_tools(rt, skill) or skill.disallowed_tools or skill.hooks)


def _allowed_tools(rt: Runtime, skill: SkillDef) -> tuple[str, ...]:
    return skill.allowed(camel_case_read=rt.profile.skill_camel_allowed_tools)


@dataclass(frozen=True, kw_only=True)
class SkillRun:
    result: ToolResult
    injected: tuple[dict[str, Any], ...] = ()
    """Blocks that follow the tool_result in the same user message (the inline body, E6)."""


def invoke(rt: Runtime, conversation: Conversation, tool_input: Mapping[str, Any]) -> SkillRun:
    """Run the skill the call names. A plugin skill called by its second name (``alias``) answers under the
    name it was called by (measured: ``Launching skill: team:fancy``)."""
    called = skill_name(tool_input)
    skill = rt.config.skill(called)
    assert skill is not None  # validation_error ran first
    if skill.command and skill.plugin is None and ":" in skill.name:
        raise NotModelled(f"the namespaced command {skill.name!r} called through the Skill tool (measured: typed as "
                          "a prompt)")
    if skill.command and skill.plugin is None and skill.allowed_tools:
        raise NotModelled(f"the project or user command {skill.name!r} with allowed-tools called through the Skill "
                          "tool (what it pre-approves then is not measured)")
    body = _render(rt, skill, str(tool_input.get("args") or ""))
    if skill.fork:
        # A forked skill's hooks do not register for the session: the main thread's later Bash runs (measured on
        # 2.1.252, 2.1.278 and 2.1.332 by cc-harness explore, seed 1234 x1234-0187). Whether they apply inside
        # the fork is not measured; here they do not.
        return _fork(rt, conversation, skill, body, called=called)
    _register_hooks(rt, skill)
    _apply_layers(rt, conversation, skill)
    response = {"success": True, "commandName": called}
    if _allowed_tools(rt, skill):
        response["allowedTools"] = list(_allowed_tools(rt, skill))
    # A plugin's command is injected as its body alone (measured); a skill with its base directory first (E6).
    injected = body if skill.command else messages.skill_base_directory(skill.directory, body)
    return SkillRun(
        result=ToolResult(content=messages.launching_skill(called), response=response),
        injected=({"type": "text", "text": injected},),
    )


def _render(rt: Runtime, skill: SkillDef, args: str) -> str:
    """The body with its placeholders filled (notes §2.4); arguments are appended when the body
    does not place them. ``${CLAUDE_PLUGIN_ROOT}`` is filled in a plugin's skills only: measured, a
    project skill's stays as written."""
    if "!`" in skill.body:
        # The real engine runs the command and puts its output in the body (measured: skill-setting-shell-enabled).
        raise NotModelled(f"skill {skill.name!r}: a !`command` in its body (inline shell execution)")
    body = skill.body.replace("${CLAUDE_SKILL_DIR}", str(skill.directory))
    if skill.plugin_root is not None:
        body = body.replace("${CLAUDE_PLUGIN_ROOT}", str(skill.plugin_root))
    body = body.replace("${CLAUDE_PROJECT_DIR}", str(rt.workdir))
    body = body.replace("${CLAUDE_SESSION_ID}", rt.session.session_id)
    if "$ARGUMENTS" in body:
        return body.replace("$ARGUMENTS", args)
    return f"{body}\n\nARGUMENTS: {args}" if args else body


def _register_hooks(rt: Runtime, skill: SkillDef) -> None:
    """S4: once invoked, a skill's hooks stay registered, in a trusted folder or not (S8), for as long as
    the profile's ``skill_hook_lifetime`` says (session.py forgets them). A second invocation does not
    register them twice."""
    registered = {rule.origin for rule in rt.session.skill_hooks}
    if skill.hooks and skill.hooks[0].origin not in registered:
        rt.session.skill_hooks.extend(skill.hooks)


def _apply_layers(rt: Runtime, conversation: Conversation, skill: SkillDef) -> None:
    """S1 and S3: both last until the next user message."""
    if rt.profile.skill_allowed_tools_pre_approve:
        conversation.granted.extend(Rule.parse(t) for t in _allowed_tools(rt, skill))
    if rt.profile.skill_disallowed_tools:
        if scoped := [t for t in skill.disallowed_tools if Rule.parse(t).specifier is not None]:
            raise NotModelled(f"disallowed-tools rule {', '.join(scoped)} with a specifier (unmodelled rule form)")
        conversation.withheld.update(Rule.parse(t).tool for t in skill.disallowed_tools)
        if "Bash" in conversation.withheld and rt.profile.search_tools_stay_next_prompt:
            conversation.search_tools_shown = True


def _fork(rt: Runtime, parent: Conversation, skill: SkillDef, body: str, *, called: str) -> SkillRun:
    """S2/S7: the body is a subagent's task; print mode waits for it and returns its reply.
    An ``agent:`` naming no agent falls back to general-purpose without a word (silent fail), a plugin
    agent's bare name included (measured: ``agent: reviewer`` for ``team:reviewer``)."""
    agents = all_agents(rt)
    agent = agents.get(skill.agent or GENERAL_PURPOSE) or agents[GENERAL_PURPOSE]
    opening = [{"type": "text", "text": messages.skill_base_directory(skill.directory, body)}]
    child = subagent(rt, parent, agent, opening, fork=True)
    _apply_layers(rt, child, skill)
    answered_before = frozenset(rt.session.tools_answered)
    reply = rt.converse(child)
    response = {"success": True, "commandName": called, "status": "forked", "agentId": child.agent_id,
                "result": reply}
    used = tools_used_summary(rt, child, answered_before=answered_before)
    content = messages.forked_skill_result(called, reply, used)
    return SkillRun(result=ToolResult(content=content, response=response))


def activate_for_path(rt: Runtime, path: Path) -> set[str]:
    """Conditional skills whose globs match ``path`` become available (notes §2.2 ``paths``)."""
    relative = path.relative_to(rt.workdir).as_posix() if path.is_relative_to(rt.workdir) else path.as_posix()
    newly = {s.name for s in rt.config.skills.values()
             if s.paths and s.name not in rt.session.activated_skills
             and any(_glob_hits(g, relative) for g in s.paths)}
    rt.session.activated_skills.update(newly)
    return newly


def _glob_hits(glob: str, relative: str) -> bool:
    return relative == glob or relative.startswith(glob.rstrip("/") + "/") or fnmatch.fnmatch(relative, glob)


def _plugin_name_for(name: str, available: list[str]) -> str | None:
    """The plugin skill whose last segment is ``name`` (``lookup`` for ``team:lookup``), if any."""
    return next((full for full in available if full.endswith(f":{name}") and ":" not in name), None)


def _suggestion(name: str, known: list[str]) -> str | None:
    """The closest known name within edit distance 2, as in ``Unknown skill: x. Did you mean y?``."""
    scored = sorted((_distance(name, k), k) for k in known)
    return scored[0][1] if scored and scored[0][0] <= _MAX_SUGGESTION_DISTANCE else None


def _distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
