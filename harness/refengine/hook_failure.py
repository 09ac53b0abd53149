"""A command handler's ``onFailure``, as far as it is measured.

2.1.332 reads ``onFailure: "block"`` (its hook schema has the key; the older pinned releases' schemas do not, and
they run the handler as without it). On every pinned version (2.1.252 to 2.1.332), a handler with
``onFailure: "block"`` that does not fail, that exits 0 with no output or with JSON, runs and is read as without
the option: on every event the explorer draws (hook-option-on-failure-events) and beside a PostToolUse
``decision: block`` (hook-option-on-failure-posttooluse-block).

What a failure (an exit other than 0 and 2, a timeout) does with the option differs per version (2.1.332 blocks
a PreToolUse call: hook-option-on-failure-block, a known difference on the older releases) and is not modelled
here, nor any other value, nor the option in the background (``async``) or outside a settings file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.refengine.errors import NotModelled

#: The cases that measure ``onFailure`` on a command handler (hook_surface's HANDLER_OPTIONS names them).
CASES: tuple[str, ...] = ("hook-option-on-failure-events", "hook-option-on-failure-posttooluse-block")
#: Events the option was measured on (hook-option-on-failure-events).
_MEASURED_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "Stop",
    "SubagentStart", "SubagentStop", "SessionEnd",
})


def check_handler(event: str, options: Mapping[str, Any], *, from_settings: bool, where: str) -> None:
    """NotModelled for an ``onFailure`` value, event, origin or background handler no case measures."""
    if "onFailure" not in options:
        return
    value = options["onFailure"]
    if value != "block":
        raise NotModelled(f"the hook handler option onFailure: {value!r} (only block is measured) {where}")
    if event not in _MEASURED_EVENTS:
        raise NotModelled(f"the hook handler option 'onFailure' on {event} {where}")
    if not from_settings:
        raise NotModelled(f"the hook handler option 'onFailure' outside a settings file {where}")
    if options.get("async") is True:
        raise NotModelled(f"the hook handler option 'onFailure' on an async handler {where}")


def check_ending(event: str, options: Mapping[str, Any], ending: str) -> None:
    """NotModelled when a handler with ``onFailure`` ended otherwise than with exit 0 (hook_surface.ending)."""
    if "onFailure" in options and ending != "exit 0":
        raise NotModelled(f"a {event} hook with onFailure block that ends with {ending} (2.1.332 reads the option, "
                          "the older pinned releases do not; measured only for handlers that exit 0)")
