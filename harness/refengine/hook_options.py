"""The handler options ``if``, ``once`` and ``shell`` of a settings command hook, as far as they are measured.

Each answer here stands on committed cases passing on every pinned version (2.1.252 to 2.1.332); anything
else a handler writes with these keys is not-modelled, narrowly (option, value, event, where the handler lives):

- ``if`` (permission-rule syntax): on SessionStart, UserPromptSubmit, SubagentStart, SubagentStop, Stop and
  SessionEnd a handler with ``if`` never runs (hook-option-if-events). On PreToolUse and PostToolUse a
  ``Bash(<prefix> *)`` condition runs the handler for a Bash call whose command matches the prefix, a plain
  ``a && b`` command when one of its parts does, a command with a variable or a ``>>`` redirection too, and
  never for Write, Read, Edit, Skill or Agent (hook-option-if-events, hook-option-if-other-tools,
  hook-option-if), on the main thread and in a subagent alike (hook-option-if-subagent); on PostToolUseFailure
  it does not run for a command that does not match.
- ``once: true`` on a settings handler changes nothing: the handler runs on every firing, over a second
  prompt in the same process and after a resume (hook-option-once-events, hook-option-once).
- ``shell: "bash"`` changes nothing: the command line runs as without it (hook-option-shell-events).

- ``async: true``: hook_async.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from harness.refengine import hook_async
from harness.refengine.bash_shapes import is_compound, plain_parts
from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import bash_pattern_matches

#: The options this module answers for, with the cases that measure them.
MEASURED: Mapping[str, tuple[str, ...]] = {
    "if": ("hook-option-if-events", "hook-option-if-other-tools", "hook-option-if-subagent", "hook-option-if"),
    "once": ("hook-option-once-events", "hook-option-once"),
    "shell": ("hook-option-shell-events", "hook-option-shell-bash"),
    "async": hook_async.CASES,
}
#: Events the options were measured on (the explorer's events; every one fired by the reference engine).
_MEASURED_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "Stop",
    "SubagentStart", "SubagentStop", "SessionEnd",
})
_TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
#: Tools a ``Bash(...)`` condition was measured not to run the handler for.
_OTHER_TOOLS_MEASURED = frozenset({"Write", "Read", "Edit", "Skill", "Agent"})
_BASH_PREFIX = re.compile(r"Bash\(([\w.-]+(?: [\w.-]+)*) \*\)")


def check(event: str, options: Mapping[str, Any], *, from_settings: bool, origin: str) -> None:
    """NotModelled for an option value, event or origin no case measures."""
    for key, value in options.items():
        where = f"({event}, {origin})"
        if key == "async":
            hook_async.check(event, value, from_settings=from_settings, where=where)
            continue
        if key not in MEASURED:
            continue  # hook_surface names the other keys
        if event not in _MEASURED_EVENTS:
            raise NotModelled(f"the hook handler option {key!r} on {event} {where}")
        if not from_settings:
            raise NotModelled(f"the hook handler option {key!r} outside a settings file {where}")
        if key == "once" and value is not True:
            raise NotModelled(f"the hook handler option once: {value!r} {where}")
        if key == "shell" and value != "bash":
            raise NotModelled(f"the hook handler option shell: {value!r} {where}")
        if key == "if" and not (isinstance(value, str) and _BASH_PREFIX.fullmatch(value)):
            raise NotModelled(f"the hook handler option if: {value!r} (only Bash(<prefix> *) is measured) {where}")


def condition_holds(event: str, condition: str, *, tool: str | None, tool_input: Mapping[str, Any] | None,
                    ran_input: Mapping[str, Any] | None, context: str) -> bool:
    """Whether a handler with ``if: condition`` (checked by ``check``) runs for this firing.

    ``tool_input`` is the call's input as the payload reports it, ``ran_input`` the input the tool ran with
    (a PreToolUse ``updatedInput`` rewrites it): which of the two the condition reads is not measured."""
    if event not in _TOOL_EVENTS:
        return False
    if context not in ("main", "subagent"):
        raise NotModelled(f"the hook handler option 'if' on a {tool} call in a {context} context ({event})")
    if tool != "Bash":
        if tool not in _OTHER_TOOLS_MEASURED:
            raise NotModelled(f"the hook handler option 'if' Bash(...) on a {tool} call ({event})")
        return False
    holds = _bash_holds(condition, str((tool_input or {}).get("command", "")), event)
    rewritten = ran_input is not None and ran_input != tool_input
    if rewritten and _bash_holds(condition, str((ran_input or {}).get("command", "")), event) != holds:
        raise NotModelled(f"the hook handler option 'if' on {event} after a PreToolUse updatedInput")
    if holds and event == "PostToolUseFailure":
        raise NotModelled("the hook handler option 'if' on PostToolUseFailure for a matching command")
    return holds


def _bash_holds(condition: str, command: str, event: str) -> bool:
    match = _BASH_PREFIX.fullmatch(condition)
    assert match is not None  # check() let only this form through
    pattern = match.group(1) + " *"
    if not is_compound(command):
        return bash_pattern_matches(pattern, command)
    parts = plain_parts(command)
    if parts is None:
        raise NotModelled(f"the hook handler option 'if' on the compound command {command!r} ({event})")
    return any(bash_pattern_matches(pattern, part) for part in parts)
