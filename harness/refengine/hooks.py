"""Hooks: their configuration, the matcher (H2-H5), the stdin payload, and how results combine.

A hook is event -> matcher -> actions (H1). Rules come from settings files, from skills once invoked
(S4) and from agent frontmatter (A6); ``HookRule.origin`` says which. Running one action is
hook_actions.py's job; this module decides *which* actions run and what their results mean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.refengine import messages
from harness.refengine.errors import NotModelled
from harness.refengine.hook_reads import as_read
from harness.refengine.profiles import Profile
from harness.refengine.tools import ALIASES

# The 33 events of the official reference as listed by seed 001, and one more. A name outside this set is
# skipped without a word (H4); most of these never fire in the reference engine (NOT_MODELLED.md).
KNOWN_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "UserPromptSubmit",
    "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop", "StopFailure", "SubagentStart",
    "SubagentStop", "PreCompact", "PostCompact", "PreModelSwitch", "PostModelSwitch", "PermissionRequest",
    "PermissionDenied", "Setup", "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation",
    "ElicitationResult", "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded",
    "CwdChanged", "FileChanged", "DirectoryAdded", "MessageDisplay",
    # 2.1.332's bundle names a 34th (docs/surface/claude-2.1.332.json): known, so a rule on it is checked against
    # hook_surface and the run is not-modelled rather than the rule skipped as H4 would skip a typo.
    "PreSkillShellCommand",
})
# Events whose matcher is ignored: every rule on them fires (notes §1.3 rule 6).
EVENTS_WITHOUT_MATCHER = frozenset({
    "UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated", "TaskCompleted",
    "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged",
})
# Which action types an event runs (docs table, notes §1.2). H13 says mcp_tool/prompt/agent run only
# on tool events; measured on 2.1.252, UserPromptSubmit runs agent and mcp_tool actions too.
_EVENTS_WITH_EVERY_TYPE = frozenset({
    "PermissionDenied", "PermissionRequest", "PostToolBatch", "PostToolUse", "PostToolUseFailure", "PreToolUse",
    "Stop", "SubagentStop", "TaskCompleted", "TaskCreated", "TeammateIdle", "UserPromptExpansion",
    "UserPromptSubmit",
})
_EVENTS_WITHOUT_HTTP = frozenset({"SessionStart", "Setup"})
# H13 as seed 001 words it (a documented reading): these types only on these events.
_RICH_ACTIONS = frozenset({"mcp_tool", "prompt", "agent"})
_TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PermissionRequest"})
# Payload fields that only some events carry (measured order: see payload()).
_WITH_PERMISSION_MODE = frozenset({
    "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
    "PermissionDenied", "Stop", "SubagentStop",
})
_WITH_EFFORT = _WITH_PERMISSION_MODE - {"UserPromptSubmit"}

ActionType = Literal["command", "http", "mcp_tool", "prompt", "agent"]
_ACTION_TYPES: tuple[ActionType, ...] = ("command", "http", "mcp_tool", "prompt", "agent")
_EXACT_LIST_CHARS = re.compile(r"[A-Za-z0-9_ ,|-]+")


@dataclass(frozen=True, kw_only=True)
class HookAction:
    """One entry of a rule's inner ``hooks`` list; only the fields of its ``type`` are set."""

    type: ActionType
    command: str = ""
    timeout: float | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    allowed_env_vars: tuple[str, ...] = ()
    server: str = ""
    tool: str = ""
    input: Mapping[str, Any] = field(default_factory=dict)
    prompt: str = ""
    continue_on_block: bool = False
    keys: tuple[str, ...] = ()
    """Every key the handler was written with (hook_surface checks them against what is modelled)."""

    @property
    def label(self) -> str:
        """What messages to the model call this action: its command or its prompt."""
        return self.command or self.prompt or (f"{self.server}:{self.tool}" if self.server else self.url)


@dataclass(frozen=True, kw_only=True)
class HookRule:
    event: str
    matcher: str | None
    actions: tuple[HookAction, ...]
    origin: str
    """A settings file's path, ``plugin:<name>`` (a plugin's hooks.json), ``skill:<name>`` or ``agent:<name>``."""
    plugin_root: Path | None = None
    """``CLAUDE_PLUGIN_ROOT`` for its command actions: a plugin's folder for the plugin's hooks.json and its
    skills' hooks, a skill's own folder for other skills' hooks (measured); None for settings and agent hooks."""

    @property
    def from_plugin(self) -> bool:
        return self.origin.startswith("plugin:")

    @property
    def from_settings(self) -> bool:
        """A settings file's rule: the kind whose repeated handlers run once (config.handler_identity)."""
        return not self.origin.startswith(("skill:", "agent:", "plugin:"))


class InvalidHooks(ValueError):
    """A ``hooks`` value that fails the schema: the caller drops the whole source (notes §1.11).

    ``where`` is the settings path in 2.1.332's debug-log form (``hooks.PreToolUse.0``)."""

    def __init__(self, origin: str, where: str, problem: str) -> None:
        super().__init__(f"{origin}: {where}: {problem}")
        self.where = where
        self.problem = problem


def parse_hook_rules(raw: Any, *, origin: str, plugin_root: Path | None = None) -> tuple[HookRule, ...]:
    """The rules of a ``hooks`` mapping.

    An unknown event name is skipped without a word (H4). A malformed entry under a known event
    (a flat ``{type, command}`` without the matcher group, a matcher that is not a string, an action
    of no known type) raises InvalidHooks: measured on 2.1.252, one such entry silences every hook of
    its settings file, the good entries beside it included.
    """
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise InvalidHooks(origin, "hooks", f"Invalid input: expected object, received {_js_type(raw)}")
    rules = []
    for event, groups in raw.items():
        if event not in KNOWN_EVENTS:
            continue
        if not isinstance(groups, list):
            raise InvalidHooks(origin, f"hooks.{event}", f"Invalid input: expected array, received {_js_type(groups)}")
        for index, group in enumerate(groups):
            where = f"hooks.{event}.{index}"
            inner = group.get("hooks") if isinstance(group, Mapping) else None
            if not isinstance(inner, list):
                # Measured text (2.1.332, a flat {type, command} entry).
                raise InvalidHooks(origin, where, 'Hook matcher "hooks" must be an array of hook entries; '
                                                  f"received {_js_type(inner)}")
            matcher = group.get("matcher")
            if matcher is not None and not isinstance(matcher, str):
                # Measured text (2.1.332, a list and a number as matcher).
                raise InvalidHooks(origin, where, "Invalid hook matcher (matcher: Invalid input: expected string, "
                                                  f"received {_js_type(matcher)})")
            actions = tuple(_parse_action(h, origin=origin, where=f"{where}.hooks.{i}") for i, h in enumerate(inner))
            rules.append(HookRule(event=event, matcher=matcher, actions=actions, origin=origin,
                                  plugin_root=plugin_root))
    return tuple(rules)


def unknown_events(raw: Any) -> tuple[str, ...]:
    """Event names of a ``hooks`` mapping that name no event (H4: skipped; 2.1.332 logs them)."""
    return tuple(str(e) for e in raw if e not in KNOWN_EVENTS) if isinstance(raw, Mapping) else ()


def unknown_event_problem(event: str) -> str:
    """2.1.332's words (measured up to ``Valid events:``; the list's form is this engine's own)."""
    return f'Unknown hook event "{event}" was ignored. Valid events: {", ".join(sorted(KNOWN_EVENTS))}'


def _js_type(value: Any) -> str:
    """The type name a JavaScript schema validator reports for a JSON value."""
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"


def _parse_action(raw: Any, *, origin: str, where: str) -> HookAction:
    kind = raw.get("type") if isinstance(raw, Mapping) else None
    if kind not in _ACTION_TYPES or not isinstance(raw, Mapping):
        raise InvalidHooks(origin, where, "an action of no known type")
    timeout = raw.get("timeout")
    common: dict[str, Any] = {
        "type": kind,
        "timeout": float(timeout) if isinstance(timeout, int | float) else None,
        "keys": tuple(str(k) for k in raw),
    }
    if kind == "command" and isinstance(raw.get("command"), str):
        return HookAction(command=raw["command"], **common)
    if kind == "http" and isinstance(raw.get("url"), str):
        allowed = tuple(v for v in raw.get("allowedEnvVars") or () if isinstance(v, str))
        return HookAction(url=raw["url"], headers=dict(raw.get("headers") or {}), allowed_env_vars=allowed, **common)
    if kind == "mcp_tool" and isinstance(raw.get("server"), str) and isinstance(raw.get("tool"), str):
        return HookAction(server=raw["server"], tool=raw["tool"], input=dict(raw.get("input") or {}), **common)
    if kind in ("prompt", "agent") and isinstance(raw.get("prompt"), str):
        return HookAction(prompt=raw["prompt"], continue_on_block=raw.get("continueOnBlock") is True, **common)
    raise InvalidHooks(origin, where, f"a {kind} action without its required field")


def event_runs(event: str, action_type: ActionType, *, profile: Profile) -> bool:
    """Whether ``event`` runs an action of ``action_type``; other actions are skipped."""
    if profile.rich_hook_actions_only_on_tool_events and action_type in _RICH_ACTIONS:
        return event in _TOOL_EVENTS
    if event in _EVENTS_WITH_EVERY_TYPE:
        return True
    if event in _EVENTS_WITHOUT_HTTP:
        return action_type in ("command", "mcp_tool")
    return action_type in ("command", "http", "mcp_tool")


# -- matching ----------------------------------------------------------------------------------


def matcher_hits(matcher: str | None, subject: str, *, profile: Profile, debug: Callable[[str], None]) -> bool:
    """The matcher algorithm of notes §1.3, as measured on 2.1.252.

    ``*``, empty or absent match everything. A value of only letters, digits, ``_``, ``-``, space,
    ``,`` and ``|`` is a list of exact names (so ``mcp__jira`` matches no tool, H5). Anything else is
    a JavaScript-style regex, *searched* rather than anchored (measured: ``as.`` fires for Bash,
    ``^as`` does not). A regex that does not compile counts as no match and logs one debug line (H3).
    """
    if matcher is None or matcher in ("", "*"):
        return True
    if _is_exact_list(matcher, profile=profile):
        separators = r"[|,]" if profile.matcher_comma_list else r"\|"
        names = {name.strip() for name in re.split(separators, matcher)}
        return subject in {ALIASES.get(n, n) for n in names}  # measured: matcher Task fires for Agent
    try:
        return re.search(matcher, subject) is not None
    except re.error:
        debug(messages.invalid_matcher_debug(matcher))
        return False


def _is_exact_list(matcher: str, *, profile: Profile) -> bool:
    if _EXACT_LIST_CHARS.fullmatch(matcher) is None:
        return False
    return profile.matcher_hyphen_exact or "-" not in matcher


# -- payload -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PayloadSource:
    """Where a hook fires: the session, and the context (subagent) it fires in."""

    session_id: str
    transcript_path: Path
    cwd: Path
    prompt_id: str | None
    permission_mode: str
    agent_id: str | None = None
    agent_type: str | None = None
    effort: str | None = "high"
    """The effort level of the context's model; None for a model without one (measured: a ``model:
    haiku`` agent's payloads have no ``effort``)."""


def payload(event: str, *, source: PayloadSource, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The stdin JSON of a hook, with the field order measured on 2.1.252 (hook-input.jsonl)."""
    out: dict[str, Any] = {
        "session_id": source.session_id,
        "transcript_path": str(source.transcript_path),
        "cwd": str(source.cwd),
    }
    if source.prompt_id is not None:
        out["prompt_id"] = source.prompt_id
    if event in _WITH_PERMISSION_MODE:
        out["permission_mode"] = source.permission_mode
    if source.agent_id is not None:
        out["agent_id"] = source.agent_id
    if source.agent_type is not None:
        out["agent_type"] = source.agent_type
    if event in _WITH_EFFORT and source.effort is not None:
        out["effort"] = {"level": source.effort}
    out["hook_event_name"] = event
    out.update(fields)
    return out


def js_json(value: Any) -> str:
    """JSON as JavaScript's JSON.stringify writes it: compact, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def encode_payload(data: Mapping[str, Any]) -> str:
    """A hook's payload, plus the newline the real engine sends after it."""
    return js_json(data) + "\n"


def substitute(template: Any, data: Mapping[str, Any]) -> Any:
    """``${tool_input.command}``-style placeholders in an mcp_tool action's input (H9)."""
    if isinstance(template, str):
        return re.sub(r"\$\{([A-Za-z0-9_.]+)\}", lambda m: _lookup(data, m.group(1)), template)
    if isinstance(template, Mapping):
        return {k: substitute(v, data) for k, v in template.items()}
    if isinstance(template, list):
        return [substitute(v, data) for v in template]
    return template


def _lookup(data: Mapping[str, Any], path: str) -> str:
    value: Any = data
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


# -- results -----------------------------------------------------------------------------------

Permission = Literal["allow", "deny", "ask", "defer"]
_PRECEDENCE: dict[Permission, int] = {"deny": 3, "defer": 2, "ask": 1, "allow": 0}
# Exit 2 and decision block reach the model as '<event>:<tool> hook blocking error from command: ...' (measured on
# 2.1.252 to 2.1.332: hook-output-posttooluse-exit2, -block, hook-output-posttoolusefailure-exit2, -block).
_BLOCKING_ERROR_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure"})


@dataclass(frozen=True, kw_only=True)
class ActionResult:
    """What one action produced, before the event gives it meaning."""

    action: HookAction
    exit_code: int = 0
    stdout: str = ""
    stderr: str = ""
    output: Mapping[str, Any] | None = None
    """Parsed JSON output (command/http/mcp_tool), if any."""
    verdict_ok: bool | None = None
    """prompt/agent actions: the model's ``ok``; None when it gave no usable verdict."""
    verdict_reason: str = ""


@dataclass(frozen=True, kw_only=True)
class HookOutcome:
    """The combined effect of every action that ran for one event."""

    permission: Permission | None = None
    message: str | None = None
    """The text the model gets: a deny reason, a block message, or Stop feedback."""
    blocked: bool = False
    stop_turn: bool = False
    contexts: tuple[str, ...] = ()
    updated_input: Mapping[str, Any] | None = None
    block_note: str | None = None
    """A system note sent after a Stop/SubagentStop block's feedback (the profile's ``stop_block_adds_note``)."""
    suppress_prompt: bool = False
    stop_reason: str | None = None
    """The first ``stopReason`` beside a ``continue: false`` the event reads (hook_reads.CONTINUE_READ)."""
    """A UserPromptSubmit block whose printed message leaves the original prompt out (suppressOriginalPrompt)."""
    updated_without_decision: bool = False
    """``updated_input`` came with no permissionDecision: the rewritten call still needs the permission check."""
    actions: int = 0
    """How many actions ran for the event."""
    raced: tuple[str, ...] = ()
    """When several actions blocked with different texts: every one of them, ``message`` (the first) first.
    Which one the real engine gives is a race (combine), so a run's answer is any of them."""


def parse_output(stdout: str) -> Mapping[str, Any] | None:
    """Stdout is JSON only when its first non-space character is ``{`` (notes §1.6)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def combine(event: str, tool: str | None, results: Iterable[ActionResult], *,
            deny_names_event: bool = False, stop_block_note: bool = False,
            matched: str | None = None) -> HookOutcome:
    """Give the results of one event's actions their meaning (notes §1.6-§1.7, measured strings).

    ``deny_names_event``: a PreToolUse deny reason is framed as ``PreToolUse:<tool> hook error:``
    (the profile's ``hook_deny_reason_names_event``). ``matched``: what the rules were matched against (a
    SessionStart's source), named in a plain-stdout success note. ``stop_block_note``: a Stop or SubagentStop
    JSON block also leaves a note framed like a PostToolUse block (the profile's ``stop_block_adds_note``).

    Several blocking actions with different texts on one event: the actions run in parallel and the text
    of the first to finish wins, so with actions of like duration which one it is is a race. Measured on
    2.1.332: two UserPromptSubmit commands exiting 2 at once gave the first in 6 runs of 6, and the second
    in 3 of 3 once the first slept 0.5 s first; two PreToolUse scripts of like duration gave one, then the
    other, on successive calls of one run (cc-harness explore seed 4242, x4242-0017); 2.1.252 named the
    first, 2.1.332 the second (seed 7, x7-0122). The outcome names the first in definition order and lists
    every text in ``raced``: a run's answer is any of them (harness/refengine/NOT_MODELLED.md, races)."""
    permission: Permission | None = None
    message: str | None = None
    blocked = stop = False
    contexts: list[str] = []
    updated: Mapping[str, Any] | None = None
    updated_alone = False
    block_note: str | None = None
    suppress = False
    subject = tool or ""

    raced: list[str] = []

    def block(text: str, decision: Permission = "deny") -> None:
        nonlocal permission, message, blocked
        if blocked and text not in raced:
            raced.append(text)
        blocked = True
        if permission is None or _PRECEDENCE[decision] > _PRECEDENCE[permission]:
            permission = decision
        if message is None:
            message = text
            raced.append(text)

    stop_reason: str | None = None
    results = [as_read(event, r) for r in results]
    for r in results:
        specific = _specific(r.output)
        if r.output is not None and r.output.get("continue") is False:
            stop = True
            if stop_reason is None and isinstance(r.output.get("stopReason"), str):
                stop_reason = r.output["stopReason"]
        if r.action.type in ("prompt", "agent"):
            if r.verdict_ok is False:
                if event in ("Stop", "SubagentStop"):
                    block(messages.stop_feedback(r.action.prompt, r.verdict_reason))
                elif r.action.type == "prompt":
                    block(messages.hook_error(event, subject, r.action.prompt, r.verdict_reason))
                    stop = stop or not r.action.continue_on_block
                else:
                    block(messages.agent_hook_not_met(event, subject, r.verdict_reason))
            continue
        if r.exit_code == 2:
            if event in ("Stop", "SubagentStop"):
                block(messages.stop_feedback(r.action.label, r.stderr))
            elif event == "UserPromptSubmit":
                block(messages.prompt_blocked(r.action.label, r.stderr))
            elif event in _BLOCKING_ERROR_EVENTS:
                block(messages.blocking_error(event, subject, r.action.label, f"[{r.action.label}]: {r.stderr}"))
            else:
                block(messages.hook_error(event, subject, r.action.label, r.stderr))
            continue
        if r.output is None:
            if r.exit_code == 0 and r.stdout.strip() and event in ("SessionStart", "UserPromptSubmit"):
                contexts.append(messages.hook_success(event, matched, r.stdout.strip()))
            continue
        decision = specific.get("permissionDecision") or _legacy_decision(r.output.get("decision"), event)
        reason = str(specific.get("permissionDecisionReason") or r.output.get("reason") or "")
        if event == "PreToolUse" and decision in _PRECEDENCE:
            if decision == "deny" and not reason:
                block(_deny_without_reason(event, subject, deny_names_event=deny_names_event), decision)
            elif decision == "deny" and deny_names_event and _deny_names_event_for(subject):
                block(messages.hook_denied(event, subject, reason), decision)
            elif decision in ("deny", "ask"):
                if not reason:
                    raise NotModelled("the text of a PreToolUse ask without a reason (only a deny without one is "
                                      "measured)")
                block(reason, decision)
            elif permission is None or _PRECEDENCE[decision] > _PRECEDENCE[permission]:
                permission = decision
            if isinstance(specific.get("updatedInput"), dict):
                updated = specific["updatedInput"]
        elif event == "PreToolUse" and decision is None and isinstance(specific.get("updatedInput"), dict):
            # Measured on 2.1.252 to 2.1.332 (hook-output-pretooluse-updated-input-alone): without a decision the
            # rewritten input is what runs, through the usual permission check (dispatch gates that check).
            updated = specific["updatedInput"]
            updated_alone = True
        elif r.output.get("decision") == "block":
            if event in ("Stop", "SubagentStop"):
                block(messages.stop_feedback(None, reason))
                if stop_block_note and block_note is None:
                    block_note = messages.blocking_error(event, None, r.action.label, reason)
            elif event in _BLOCKING_ERROR_EVENTS:
                block(messages.blocking_error(event, subject, r.action.label, reason))
            elif event == "UserPromptSubmit":
                block(messages.prompt_blocked_reason(reason))
                # Measured on 2.1.252 to 2.1.332 (hook-output-userpromptsubmit-suppress-original-prompt).
                suppress = suppress or specific.get("suppressOriginalPrompt") is True
            else:
                block(messages.hook_error(event, subject, r.action.label, reason))
        if isinstance(specific.get("additionalContext"), str):
            contexts.append(messages.additional_context(event, tool, specific["additionalContext"]))
    return HookOutcome(
        permission=permission, message=message, blocked=blocked, stop_turn=stop, contexts=tuple(contexts),
        updated_input=updated, actions=len(results), raced=tuple(raced) if len(raced) > 1 else (),
        updated_without_decision=updated_alone and permission is None, block_note=block_note,
        suppress_prompt=suppress, stop_reason=stop_reason,
    )


#: Where the profile's ``hook_deny_reason_names_event`` holds, a PreToolUse JSON deny reason reaches the model
#: as ``PreToolUse:<tool> hook error: <reason>`` for these tools, and as the bare reason for ``DENY_REASON_BARE``.
#: Measured on 2.1.332 (hook-pretooluse-deny-prefix-tools, -bypass: Bash prefixed, Read and Write bare, in print
#: mode and with bypass; hook-subagent-matcher-agent: Agent prefixed; cc-harness explore seed 7, x7-0025: Skill
#: prefixed). Other tools are not measured.
DENY_REASON_NAMES_EVENT = frozenset({"Bash", "Agent", "Skill"})
DENY_REASON_BARE = frozenset({"Read", "Write"})


def _deny_names_event_for(tool: str) -> bool:
    if tool in DENY_REASON_NAMES_EVENT:
        return True
    if tool in DENY_REASON_BARE:
        return False
    raise NotModelled(f"the text of a PreToolUse JSON deny reason for {tool} (prefixed for Bash, Agent and Skill, bare "
                      "for Read and Write, measured)")


#: The tools a PreToolUse JSON deny without a reason is measured for (hook-pretooluse-deny-no-reason, -bypass, on
#: 2.1.252 to 2.1.332, print mode and bypass alike: ``Hook PreToolUse:<tool> denied this tool``, and where the
#: profile's ``hook_deny_reason_names_event`` holds, Bash's ``PreToolUse:Bash hook error: Blocked by hook``; every
#: such call is a permission denial in the result event).
DENY_WITHOUT_REASON_MEASURED = frozenset({"Bash", "Read", "Write"})


def _deny_without_reason(event: str, tool: str, *, deny_names_event: bool) -> str:
    if tool not in DENY_WITHOUT_REASON_MEASURED:
        raise NotModelled(f"the text of a PreToolUse JSON deny without a reason for {tool} (measured for Bash, Read "
                          "and Write)")
    if deny_names_event and _deny_names_event_for(tool):
        return messages.hook_denied(event, tool, messages.HOOK_DENY_DEFAULT_REASON)
    return messages.hook_denied_without_reason(event, tool)


def _specific(output: Mapping[str, Any] | None) -> Mapping[str, Any]:
    value = (output or {}).get("hookSpecificOutput")
    return value if isinstance(value, Mapping) else {}


def _legacy_decision(value: Any, event: str) -> Permission | None:
    """The deprecated top-level ``decision: approve|block`` of PreToolUse maps to allow|deny."""
    if event != "PreToolUse":
        return None
    return {"approve": "allow", "block": "deny"}.get(value)  # type: ignore[return-value]
