"""The handler option ``async: true`` of a settings command hook, as far as it is measured.

The engine starts such a handler and goes on without waiting for it. Measured on every pinned version
(2.1.252 to 2.1.332):

- On SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, SubagentStart and
  SubagentStop the handler runs once per firing, on the main thread and in a subagent, and what it writes lands
  while the run goes on, also for the last firing before the run's last answer (hook-option-async-events,
  hook-option-async, hook-option-async-outputs). Only the order of the lines several handlers append is the
  engine's race: a case compares such a file as ``unordered_files``.
- Its exit 2 or other exit code with a stderr text, permissionDecision deny, allow or ask with a reason,
  updatedInput with or without allow, decision block with a reason, continue false with a stopReason and
  suppressOutput decide nothing and reach no request (hook-option-async-outputs); nor does plain stdout
  (hook-option-async-context).
- Its additionalContext and systemMessage reach the model on the request the engine makes after it collects
  the handler's answer (hook-option-async-context): which request that is races the run, so not modelled.
- On Stop and SessionEnd the process may end before the handler has written (hook-option-async-stop-not-awaited):
  not modelled.

The reference engine runs the handler to its end before going on (so its writes land as they do on the engine)
and drops its answer. Whether a handler writes before the engine's process ends is a race the engine does not
wait out: on seed 20261202 (x20261202-0030, x20261202-0078, 2.1.332 under load) a PostToolUseFailure handler of
the run's last tool call never wrote, where the same position wrote on a quiet machine (hook-option-async). So a
handler is modelled only where a later tool call of the same process begins after it started (the engine has
made at least two more model requests by then), a rule read from the case's script, not from the clock; one
started after the process's last tool call began is not modelled (``settle``). A handler still running after
``BUDGET`` seconds is not modelled either: the measured handlers end within milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from harness.refengine.errors import NotModelled

CASES = ("hook-option-async-events", "hook-option-async", "hook-option-async-outputs", "hook-option-async-context")
#: Events an async handler was measured on, each firing followed by at least one more request of the run.
EVENTS = frozenset({
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStart",
    "SubagentStop",
})
#: The measured handlers end within milliseconds. A handler built to be slow may still run when the engine's
#: process ends; this bound is far above what load makes of a quick one (1 s was once exceeded on a loaded
#: machine, which made hook-option-async's answer depend on the load).
BUDGET = 10.0
#: Output fields (hook_surface's names) measured to change nothing on an async handler of any of EVENTS.
_IGNORED_FIELDS = frozenset({
    "hookSpecificOutput.hookEventName", "hookSpecificOutput.permissionDecision=deny",
    "hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.permissionDecision=ask",
    "hookSpecificOutput.permissionDecisionReason", "hookSpecificOutput.updatedInput with allow",
    "hookSpecificOutput.updatedInput without allow", "decision=block", "reason", "continue=false", "stopReason",
    "suppressOutput=true",
})
#: Fields whose text the engine adds to a later request, when it has collected the answer.
_LATE_FIELDS = frozenset({"hookSpecificOutput.additionalContext", "systemMessage"})
_IGNORED_ENDINGS = frozenset({"exit 0", "exit 0 plain stdout", "exit 2", "exit other"})


def check(event: str, value: Any, *, from_settings: bool, where: str) -> None:
    """NotModelled for an ``async`` value, event or origin no case measures."""
    if value is not True:
        raise NotModelled(f"the hook handler option async: {value!r} {where}")
    if event in ("Stop", "SessionEnd"):
        raise NotModelled(f"the hook handler option async: true on {event} (not waited for: the process may end "
                          f"before the handler writes) {where}")
    if event not in EVENTS:
        raise NotModelled(f"the hook handler option async: true on {event} {where}")
    if not from_settings:
        raise NotModelled(f"the hook handler option async: true outside a settings file {where}")


def check_answer(event: str, *, timed_out: bool, ending: str, fields: Iterable[str]) -> None:
    """NotModelled unless how an async handler ended (hook_surface's ``ending``) and the fields of its output
    (hook_surface's ``output_fields``) are measured to change nothing."""
    if timed_out:
        raise NotModelled(f"an async hook handler on {event} still running after {BUDGET:g} s (whether it "
                          "finishes before the run ends is a race)")
    if ending not in _IGNORED_ENDINGS:
        raise NotModelled(f"an async hook handler on {event} that ends with {ending}")
    for field in fields:
        if field in _LATE_FIELDS:
            raise NotModelled(f"the hook output {field} of an async handler on {event} (it reaches the request "
                              "made after the engine collects it: a race)")
        if field not in _IGNORED_FIELDS:
            raise NotModelled(f"the hook output {field} of an async handler on {event}")


def started(unsettled: list[str], event: str, where: str) -> None:
    """Record an async handler just started: it is unsettled until a later tool call of the process begins."""
    unsettled.append(f"the hook handler option async: true on {event} {where}".rstrip())


def settle(unsettled: list[str]) -> None:
    """A tool call begins: the async handlers started before it had two model requests' time to write."""
    unsettled.clear()


def check_settled(unsettled: list[str]) -> None:
    """The engine's process ends: NotModelled if an async handler started after its last tool call began."""
    if unsettled:
        raise NotModelled(f"{unsettled[0]}, started after the process's last tool call began (whether it writes "
                          "before the process ends is a race)")
