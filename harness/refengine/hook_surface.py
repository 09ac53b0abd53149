"""What the reference engine models of hooks, each element with the cases that measure it.

The reference engine answers only where a measurement on every pinned version stands behind the answer.
For hooks that is this table: the events it fires, the handler options it reads, the output fields and
values it gives meaning to (per event), and the exit codes and plain stdout it handles (per event). Every
entry names cases that pass on every pinned version (tests/test_hook_surface.py checks that they exist, have
a snapshot per pinned version and no known difference). A run whose hooks reach anything else is
not-modelled, with a reason naming the element: a guess would be a false verdict on a setup this suite has
never seen.

Checked where it matters: the rules' events and handler options each time an event fires (so a rule on an
event neither fired nor measured quiet makes the run not-modelled at its start), an
action's output and exit code when its result is combined (hooks.combine).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from harness.refengine import hook_exec, hook_failure, hook_handler_types, hook_options, hook_prompt_stop, hook_quiet
from harness.refengine.errors import NotModelled
from harness.refengine.hook_defer import CASES as DEFER_CASES
from harness.refengine.hook_handler_types import Cases

#: Events the reference engine fires, each measured firing where this engine fires it.
EVENTS: Mapping[str, Cases] = {
    "PreToolUse": ("tool-hook-pretooluse-deny", "tool-hook-around"),
    "PostToolUse": ("tool-hook-around", "hook-event-posttooluse-formatter"),
    "PostToolUseFailure": ("hook-event-posttoolusefailure",),
    "UserPromptSubmit": ("hook-prompt-submit-exit2-result", "hook-event-userpromptsubmit-context"),
    "Stop": ("hook-stop-additional-context", "hook-event-stop-gate"),
    "SubagentStart": ("hook-event-subagentstop-block",),
    "SubagentStop": ("hook-event-subagentstop-block",),
    "SessionStart": ("hook-event-sessionstart-stdout", "hook-event-sessionstart-matcher-resume"),
    "SessionEnd": ("hook-event-sessionend",),
    "MessageDisplay": ("hook-event-messagedisplay",),
    "PostToolBatch": ("hook-event-posttoolbatch", "hook-output-posttoolbatch-additional-context"),
    "InstructionsLoaded": ("hook-event-instructionsloaded",),  # memory_hooks.py
}

#: Events measured not to fire in a print-mode run on every pinned version (hook_quiet.py, with what wakes each): a
#: rule on one is inert, where a rule on any other event outside EVENTS makes the run not-modelled.
QUIET_EVENTS: Mapping[str, Cases] = {event: quiet.cases for event, quiet in hook_quiet.QUIET.items()}

#: Keys of a handler (an entry of a rule's inner ``hooks`` list) that the engine reads, by action type.
HANDLER_OPTIONS: Mapping[str, Mapping[str, Cases]] = {
    "command": {"type": ("tool-hook-pretooluse-deny",), "command": ("tool-hook-pretooluse-deny",),
                "timeout": ("hook-option-timeout", "user-hooks-same-command-other-timeout"),
                "statusMessage": ("hook-option-status-message",), "args": hook_exec.CASES,
                "onFailure": hook_failure.CASES,
                **hook_options.MEASURED},  # if, once, shell: measured per value, event and origin there
    "http": {"type": ("hook-http-action",), "url": ("hook-http-action",), "headers": ("hook-http-action",),
             "allowedEnvVars": ("hook-http-action",), **hook_handler_types.OPTIONS["http"]},
    "mcp_tool": {"type": ("hook-tool-mcp-tool",), "server": ("hook-tool-mcp-tool",),
                 "tool": ("hook-tool-mcp-tool",), "input": ("hook-tool-mcp-tool",),
                 **hook_handler_types.OPTIONS["mcp_tool"]},
    "prompt": {"type": ("hook-prompt-action",), "prompt": ("hook-prompt-action",),
               "continueOnBlock": tuple(c for cases in hook_prompt_stop.CONTINUE_ON_BLOCK.values() for c in cases),
               **hook_handler_types.OPTIONS["prompt"]},
    "agent": {"type": ("hook-subagent-agent-action",), "prompt": ("hook-subagent-agent-action",)},
}

#: The permission fields of PreToolUse, as the explorer's hooks print them on any event (with the event's own
#: hookEventName): measured to change nothing on the events whose ``*-ignored`` case lists them.
_PERMISSION_FIELDS = (
    "hookSpecificOutput.hookEventName", "hookSpecificOutput.permissionDecision=deny",
    "hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.permissionDecision=ask",
    "hookSpecificOutput.permissionDecisionReason", "hookSpecificOutput.updatedInput with allow",
    "hookSpecificOutput.updatedInput without allow",
)
_UNREAD_FIELDS = ("continue=false", "stopReason", "suppressOutput=true", "systemMessage")
#: A defer on any event but PreToolUse changes nothing (measured on each of them at once; hook_defer for PreToolUse).
_DEFER = "hookSpecificOutput.permissionDecision=defer"
_DEFER_IGNORED = "hook-output-defer-ignored-events"
#: PermissionRequest's answers, measured where permission_request_hooks.py runs the event.
_PERMISSION_REQUEST_CASES: Cases = ("hook-output-permissionrequest-outputs", "approval-permissionrequest-hook-deny",
                                   "approval-permissionrequest-hook-allow", "hook-event-permissionrequest-refused")


def _measured(case: str, *names: str) -> dict[str, Cases]:
    """Each name backed by ``case`` (an ``*-ignored`` case measures many outputs of one event at once)."""
    return {name: (case,) for name in names}


#: Output fields (``field`` or ``field=value``; ``hookSpecificOutput.x`` for the event's own) per event.
_OUTPUTS: Mapping[str, Mapping[str, Cases]] = {
    "PreToolUse": {
        "hookSpecificOutput.hookEventName": ("tool-hook-pretooluse-deny",),
        "hookSpecificOutput.permissionDecision=deny": ("tool-hook-pretooluse-deny",),
        "hookSpecificOutput.permissionDecision=allow": ("hook-output-pretooluse-allow-default-mode",
                                                        "hook-output-pretooluse-allow-vs-deny-rule"),
        "hookSpecificOutput.permissionDecisionReason": ("tool-hook-pretooluse-deny",),
        "hookSpecificOutput.updatedInput with allow": ("hook-output-pretooluse-updated-input-allow",),
        "hookSpecificOutput.updatedInput without allow": ("hook-output-pretooluse-updated-input-alone",),
        "hookSpecificOutput.permissionDecision=ask": ("hook-output-pretooluse-ask",),
        _DEFER: DEFER_CASES,
        "continue=false": ("hook-output-pretooluse-continue-false",),
        "stopReason": ("hook-output-pretooluse-continue-false",),
        "hookSpecificOutput.additionalContext": ("hook-output-pretooluse-additional-context",),
        # An mcp_tool action's reply {"result": "recorded"} (the MCP SDK's structured result) decides nothing.
        "result": ("hook-tool-mcp-tool", "hook-tool-mcp-tool-no-reentry"),
        **_measured("hook-output-pretooluse-decision-block", "decision=block", "reason"),
        **_measured("hook-output-pretooluse-ignored", "suppressOutput=true", "systemMessage"),
    },
    "PostToolUse": {
        _DEFER: (_DEFER_IGNORED,),
        "hookSpecificOutput.hookEventName": ("hook-output-posttooluse-additional-context",),
        "hookSpecificOutput.additionalContext": ("hook-output-posttooluse-additional-context",),
        "decision=block": ("hook-output-posttooluse-block",),
        "reason": ("hook-output-posttooluse-block",),
        "continue=false": ("hook-output-continue-false",),
        "stopReason": ("hook-output-continue-false",),
        "suppressOutput=true": ("hook-output-suppress-output",),
        "systemMessage": ("hook-output-system-message",),
        "hookSpecificOutput.classifierContext": ("hook-output-posttooluse-classifier-context-bypass",),
        "result": ("hook-option-mcp-tool-handler-events",),
        **_measured("hook-output-posttooluse-permission-ignored", *_PERMISSION_FIELDS[1:]),
    },
    "PostToolUseFailure": {
        _DEFER: (_DEFER_IGNORED,),
        **_measured("hook-output-posttoolusefailure-ignored", *_PERMISSION_FIELDS, *_UNREAD_FIELDS),
        "hookSpecificOutput.hookEventName": ("hook-event-posttoolusefailure",),
        "hookSpecificOutput.additionalContext": ("hook-event-posttoolusefailure",),
        **_measured("hook-output-posttoolusefailure-block", "decision=block", "reason"),
    },
    "UserPromptSubmit": {
        _DEFER: (_DEFER_IGNORED,),
        "hookSpecificOutput.hookEventName": ("hook-event-userpromptsubmit-context",),
        "hookSpecificOutput.additionalContext": ("hook-event-userpromptsubmit-context",),
        "hookSpecificOutput.sessionTitle": ("hook-output-session-title",),
        "decision=block": ("hook-event-userpromptsubmit-block-json",),
        "reason": ("hook-event-userpromptsubmit-block-json",),
        "hookSpecificOutput.suppressOriginalPrompt=true with block": (
            "hook-output-userpromptsubmit-suppress-original-prompt",),
        **_measured("hook-output-userpromptsubmit-ignored", *_PERMISSION_FIELDS[1:], "suppressOutput=true",
                    "systemMessage"),
        **_measured("hook-output-userpromptsubmit-continue-false", "continue=false", "stopReason"),
        # An mcp_tool action's reply {"result": "recorded"} decides nothing (as on PreToolUse).
        "result": ("hook-option-mcp-tool-handler-events",),
    },
    "Stop": {
        _DEFER: (_DEFER_IGNORED,),
        "hookSpecificOutput.hookEventName": ("hook-stop-additional-context",),
        "hookSpecificOutput.additionalContext": ("hook-stop-additional-context",),
        "decision=block": ("hook-event-stop-gate",),
        "reason": ("hook-event-stop-gate",),
        **_measured("hook-output-stop-ignored", *_PERMISSION_FIELDS[1:], *_UNREAD_FIELDS),
        "result": ("hook-option-mcp-tool-handler-events",),
    },
    "SubagentStart": {
        _DEFER: (_DEFER_IGNORED,),
        **_measured("hook-output-subagentstart-ignored", *_PERMISSION_FIELDS[1:], *_UNREAD_FIELDS,
                    "decision=block", "reason"),
        "hookSpecificOutput.hookEventName": ("hook-output-subagentstart-additional-context",),
        "hookSpecificOutput.additionalContext": ("hook-output-subagentstart-additional-context",),
    },
    "SubagentStop": {
        _DEFER: (_DEFER_IGNORED,),
        "decision=block": ("hook-event-subagentstop-block",),
        "reason": ("hook-event-subagentstop-block",),
        **_measured("hook-output-subagentstop-ignored", *_PERMISSION_FIELDS, *_UNREAD_FIELDS),
        "hookSpecificOutput.additionalContext": ("hook-output-subagentstop-additional-context",),
    },
    "SessionStart": {
        _DEFER: (_DEFER_IGNORED,),
        **_measured("hook-output-sessionstart-ignored", *_PERMISSION_FIELDS[1:], *_UNREAD_FIELDS,
                    "decision=block", "reason"),
        "hookSpecificOutput.hookEventName": ("hook-event-sessionstart-additional-context",),
        "hookSpecificOutput.sessionTitle": ("hook-output-sessionstart-session-title-unseen",
                                            "hook-output-sessionstart-session-title"),
        "hookSpecificOutput.additionalContext": ("hook-event-sessionstart-additional-context",),
    },
    "SessionEnd": {
        _DEFER: (_DEFER_IGNORED,),
        **_measured("hook-output-sessionend-ignored", *_PERMISSION_FIELDS, *_UNREAD_FIELDS,
                    "hookSpecificOutput.additionalContext", "decision=block", "reason"),
    },
    "MessageDisplay": {
        **_measured("hook-output-messagedisplay-ignored", *_PERMISSION_FIELDS, *_UNREAD_FIELDS, "decision=block",
                    "reason", "hookSpecificOutput.permissionDecision=defer", "hookSpecificOutput.additionalContext",
                    "terminalSequence"),
        "hookSpecificOutput.displayContent": ("hook-output-messagedisplay-display-content",
                                               "hook-output-messagedisplay-display-content-earlier"),
    },
    # What each decision does, and which shapes of it are measured: permission_request_hooks.py.
    "PermissionRequest": {"hookSpecificOutput.hookEventName": _PERMISSION_REQUEST_CASES,
                          "hookSpecificOutput.decision": _PERMISSION_REQUEST_CASES},
    "PostToolBatch": {
        **_measured("hook-output-posttoolbatch-ignored", *_PERMISSION_FIELDS[1:],
                    "hookSpecificOutput.permissionDecision=defer", "suppressOutput=true", "systemMessage",
                    "terminalSequence"),
        "hookSpecificOutput.hookEventName": ("hook-output-posttoolbatch-additional-context",),
        "hookSpecificOutput.additionalContext": ("hook-output-posttoolbatch-additional-context",),
        "stopReason": ("hook-output-posttoolbatch-stop-reason",),  # without continue false: changes nothing
    },
    "InstructionsLoaded": _measured("hook-event-instructionsloaded", "continue=false", "stopReason", "systemMessage",
                                    "hookSpecificOutput.hookEventName", "hookSpecificOutput.additionalContext"),
}

#: How an action ended, per event: ``exit 0`` (no output, or JSON), ``exit 0 plain stdout`` (text that is not
#: JSON), ``exit 2``, ``exit other`` (any other code: a non-blocking error) and ``timeout``.
_ENDINGS: Mapping[str, Mapping[str, Cases]] = {
    "PreToolUse": {"exit 0": ("tool-hook-pretooluse-deny",), "exit 2": ("hook-tool-parallel-blocks-race",),
                   "exit other": ("hook-output-pretooluse-exit1",),
                   "exit 0 plain stdout": ("hook-output-pretooluse-stdout-exit0",),
                   "timeout": ("hook-option-timeout",)},
    "PostToolUse": {"exit 0": ("tool-hook-around",), "exit 2": ("hook-output-posttooluse-exit2",),
                    "exit other": ("hook-output-posttooluse-exit1",),
                    "exit 0 plain stdout": ("hook-output-posttooluse-stdout-exit0",)},
    "PostToolUseFailure": {"exit 0": ("hook-event-posttoolusefailure",),
                           "exit 2": ("hook-output-posttoolusefailure-exit2",),
                           **_measured("hook-output-posttoolusefailure-ignored", "exit other", "exit 0 plain stdout")},
    "UserPromptSubmit": {"exit 0": ("hook-event-userpromptsubmit-context",),
                         "exit 2": ("hook-prompt-submit-exit2-result",),
                         "exit 0 plain stdout": ("hook-event-userpromptsubmit-stdout",),
                         "exit other": ("hook-output-userpromptsubmit-ignored",)},
    "Stop": {"exit 0": ("hook-event-stop-gate",), "exit 2": ("hook-event-stop-exit2",),
             **_measured("hook-output-stop-ignored", "exit other", "exit 0 plain stdout")},
    "SubagentStart": {"exit 0": ("hook-event-subagentstop-block",),
                      **_measured("hook-output-subagentstart-ignored", "exit 2", "exit other", "exit 0 plain stdout")},
    "SubagentStop": {"exit 0": ("hook-event-subagentstop-block",), "exit 2": ("hook-output-subagentstop-exit2",),
                     **_measured("hook-output-subagentstop-ignored", "exit other", "exit 0 plain stdout")},
    "SessionStart": {"exit 0": ("hook-event-sessionstart-additional-context",),
                     "exit 0 plain stdout": ("hook-event-sessionstart-stdout",),
                     **_measured("hook-output-sessionstart-ignored", "exit 2", "exit other")},
    "SessionEnd": {"exit 0": ("hook-event-sessionend",),
                   **_measured("hook-output-sessionend-ignored", "exit 2", "exit other", "exit 0 plain stdout")},
    "MessageDisplay": {"exit 0": ("hook-event-messagedisplay",),
                       **_measured("hook-output-messagedisplay-ignored", "exit 2", "exit other",
                                   "exit 0 plain stdout")},
    # Exit 1 and 2 and plain text decide nothing: the call is refused as without the hook (2.1.268 and later).
    "PermissionRequest": {"exit 0": _PERMISSION_REQUEST_CASES, "exit 2": ("hook-output-permissionrequest-outputs",),
                          "exit other": ("hook-output-permissionrequest-outputs",),
                          "exit 0 plain stdout": ("hook-output-permissionrequest-outputs",)},
    "PostToolBatch": {"exit 0": ("hook-event-posttoolbatch",),
                      **_measured("hook-output-posttoolbatch-ignored", "exit other", "exit 0 plain stdout")},
    "InstructionsLoaded": _measured("hook-event-instructionsloaded", "exit 0", "exit 2"),
}


#: Handler options measured in a plugin's hooks.json only: a settings file validates its hooks against a schema,
#: in which ``description`` is not (what an unknown key does there is not measured).
_PLUGIN_HANDLER_OPTIONS: Mapping[str, Mapping[str, Cases]] = {
    "command": {"description": ("hook-option-description", "hook-option-description-absent")},
}


def every_case() -> set[str]:
    """Every case the table names (for the test that keeps the table honest)."""
    found: set[str] = set()
    for table in (*HANDLER_OPTIONS.values(), *_PLUGIN_HANDLER_OPTIONS.values(), *_OUTPUTS.values(), *_ENDINGS.values(),
                  EVENTS, QUIET_EVENTS):
        for cases in table.values():
            found.update(cases)
    return found


def check_rule(event: str, handlers: Iterable[tuple[str, Iterable[str]]], *, origin: str) -> None:
    """NotModelled unless ``event`` and every key of each handler (its type, its keys) are in the table; a rule on
    a quiet event never fires, but a handler key no case measures might still make claude drop the settings file."""
    if event not in EVENTS and event not in QUIET_EVENTS:
        raise NotModelled(f"a hook on {event} ({origin}): the event is not modelled")
    for kind, keys in handlers:
        known = {**HANDLER_OPTIONS.get(kind, {}),
                 **(_PLUGIN_HANDLER_OPTIONS.get(kind, {}) if origin.startswith("plugin:") else {})}
        for key in keys:
            if key not in known:
                raise NotModelled(f"the hook handler option {key!r} on a {kind} hook ({event}, {origin})")


def output_fields(event: str, output: Mapping[str, Any]) -> list[str]:
    """The table's names for what a hook printed: ``decision=block``, ``hookSpecificOutput.additionalContext``."""
    fields: list[str] = []
    for key, value in output.items():
        if key == "hookSpecificOutput" and isinstance(value, Mapping):
            fields += _specific_fields(event, value, output)
        elif key in ("decision", "continue", "suppressOutput"):
            fields.append(f"{key}={_js(value)}")
        else:
            fields.append(key)
    return fields


def _specific_fields(event: str, specific: Mapping[str, Any], output: Mapping[str, Any]) -> list[str]:
    fields: list[str] = []
    for key, value in specific.items():
        name = f"hookSpecificOutput.{key}"
        if key == "hookEventName":
            fields.append(name if value == event else f"{name}={_js(value)} on {event}")
        elif key == "permissionDecision":
            fields.append(f"{name}={_js(value)}")
        elif key == "updatedInput":
            allowed = specific.get("permissionDecision") == "allow"
            fields.append(f"{name} with allow" if allowed else f"{name} without allow")
        elif key == "suppressOriginalPrompt":
            blocks = output.get("decision") == "block"
            fields.append(f"{name}={_js(value)} {'with' if blocks else 'without'} block")
        else:
            fields.append(name)
    return fields


def _js(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_output(event: str, output: Mapping[str, Any]) -> None:
    """NotModelled for the first output field the table has no measurement of for ``event``."""
    known = _OUTPUTS.get(event, {})
    for name in output_fields(event, output):
        if name not in known:
            raise NotModelled(f"the hook output {name} on {event}")


#: Output fields measured only in some permission modes (elsewhere another reader may take them: plan mode asks
#: the auto mode classifier, which reads classifierContext in auto mode, hook-output-posttooluse-classifier-context).
_MODE_BOUND: Mapping[str, frozenset[str]] = {"hookSpecificOutput.classifierContext": frozenset({"bypass"})}


def check_output_mode(event: str, output: Mapping[str, Any], mode: str) -> None:
    """NotModelled for an output field of MODE_BOUND in a mode it was not measured in."""
    for name in output_fields(event, output):
        if name in _MODE_BOUND and mode not in _MODE_BOUND[name]:
            raise NotModelled(f"the hook output {name} on {event} in {mode} mode")


def ending(exit_code: int, stdout: str, output: Mapping[str, Any] | None) -> str:
    """The table's name for how an action ended."""
    if exit_code < 0:
        return "timeout"
    if exit_code == 2:
        return "exit 2"
    if exit_code != 0:
        return "exit other"
    return "exit 0 plain stdout" if output is None and stdout.strip() else "exit 0"


def check_ending(event: str, exit_code: int, stdout: str, output: Mapping[str, Any] | None) -> None:
    name = ending(exit_code, stdout, output)
    if name not in _ENDINGS.get(event, {}):
        raise NotModelled(f"a hook on {event} that ends with {name}")
