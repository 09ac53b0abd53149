"""Hooks: their configuration, the matcher (H2-H5) and the stdin payload.

A hook is event -> matcher -> actions (H1). Rules come from settings files, from skills once invoked
(S4) and from agent frontmatter (A6); ``HookRule.origin`` says which. Running one action is
hook_actions.py's job; this module decides *which* actions run, hook_results.py what their results mean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.refengine import hook_exec, hook_messages
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import ALIASES

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
    "PermissionDenied", "Stop", "SubagentStop", "PostToolBatch",
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
    args: tuple[str, ...] = ()
    """The exec form's arguments (hook_exec): ``command`` is then a program run without a shell."""
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
    options: Mapping[str, Any] = field(default_factory=dict)
    """Its ``if``, ``once``, ``shell``, ``async``, ``args`` and ``onFailure``, as written (hook_options, hook_exec
    and hook_failure read them)."""

    @property
    def label(self) -> str:
        """What messages to the model call this action: its command or its prompt."""
        if self.args:
            return hook_exec.label(self.command, self.args)
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
        """A settings file's rule: the kind whose repeated handlers run once (settings.handler_identity)."""
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
        "options": {k: raw[k] for k in ("if", "once", "shell", "async", "args", "onFailure")
                    if k in raw},
    }
    if kind == "command" and isinstance(raw.get("command"), str):
        return HookAction(command=raw["command"], args=hook_exec.parse(raw), **common)
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
        debug(hook_messages.invalid_matcher_debug(matcher))
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


def payload(event: str, *, source: PayloadSource, fields: Mapping[str, Any], effort: bool | None = None
            ) -> dict[str, Any]:
    """The stdin JSON of a hook, with the field order measured on 2.1.252 (hook-input.jsonl); ``effort`` says
    whether it carries the context's effort where that depends on more than the event (memory_hooks.py)."""
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
    if (event in _WITH_EFFORT if effort is None else effort) and source.effort is not None:
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
