"""A command handler's ``args`` (the exec form), as far as it is measured.

With ``args`` the handler's ``command`` is a program and ``args`` its arguments: the engine starts the program
with them and no shell in between, so a ``$VARIABLE`` or a space in an argument arrives as written
(hook-option-args, on PreToolUse). Measured on 2.1.252 to 2.1.332:

- every event the explorer draws runs an exec-form handler, with the same payload and output handling as a
  command line (hook-option-args-events); two handlers with the same command and other args both run;
- messages to the model name the handler as the command and its args joined by spaces
  (``bash .claude/hooks/fail.sh ONE ARG``, hook-option-args-exit2).

Not measured, so not-modelled: args that is not a list of strings (or is empty), args outside a settings file,
a program that is not found, and two settings handlers with the same command and the same args (which one runs,
or both).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from typing import Any

from harness.refengine.errors import NotModelled

#: The cases that measure ``args`` (hook_surface's HANDLER_OPTIONS names them).
CASES: tuple[str, ...] = ("hook-option-args", "hook-option-args-events", "hook-option-args-exit2")
#: Events an exec-form handler was measured on (hook-option-args-events).
_MEASURED_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "Stop",
    "SubagentStart", "SubagentStop", "SessionEnd",
})


def parse(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """A handler's ``args`` as a tuple of strings; ``()`` without the key. Ill-typed args are kept out here and
    refused by ``check`` (what the engine does with them, a schema error or the handler skipped, is not measured)."""
    value = raw.get("args")
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return ()


def check(event: str, command: str, value: Any, *, from_settings: bool, where: str) -> None:
    """NotModelled for args no case measures (a value, an event, an origin, a program not found)."""
    if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
        raise NotModelled(f"the hook handler option args: {value!r} (only a list of strings is measured) {where}")
    if not from_settings:
        raise NotModelled(f"the hook handler option 'args' outside a settings file {where}")
    if event not in _MEASURED_EVENTS:
        raise NotModelled(f"the hook handler option 'args' on {event} {where}")
    if shutil.which(command) is None:
        raise NotModelled(f"the hook handler option 'args' with the program {command!r}, which is not found {where}")


def label(command: str, args: tuple[str, ...]) -> str:
    """How messages to the model name an exec-form handler (hook-option-args-exit2)."""
    return " ".join((command, *args))
