"""The handler options ``if``, ``once``, ``timeout``, ``statusMessage`` and ``onFailure`` on http, mcp_tool and prompt
handlers.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332, each option beside a handler without it on the same event:
on these handlers each does what it does on a command handler (hook_options.py, hook_failure.py).
``if: Bash(<prefix> *)`` runs the handler for a matching Bash call on PreToolUse and PostToolUse, not for another
command or tool, and never on UserPromptSubmit or Stop; ``once: true`` runs it on every firing; ``timeout``,
``statusMessage`` and ``onFailure: "block"`` change nothing when the call answers (hook-option-mcp-tool-handler,
hook-option-http-handler, and on the events the explorer draws hook-option-mcp-tool-handler-events,
hook-option-http-handler-events). An http handler whose connection is refused (nothing listens on the port) is a
non-blocking error with ``if``, ``once``, ``timeout`` and ``statusMessage`` as without them
(hook-option-http-handler-refused); SessionStart runs no http handler, with ``timeout`` or without.

Not measured, so not-modelled: ``onFailure`` on a call that fails (2.1.332 reads the option, the older releases
do not: hook_failure.py), and ``timeout`` on a call that fails otherwise than by a refused connection (an
mcp_tool call that fails, an http request that times out or gets another error). The values and events the
options were measured with are hook_options.py's and hook_failure.py's checks, which every handler type goes
through.

A prompt handler's ``if``, ``once``, ``statusMessage`` and ``timeout`` on PreToolUse: its request goes out for the
matching Bash calls only, as without the options (hook-option-prompt-handler-plain); ``onFailure`` on a prompt
handler is not measured.
"""

from __future__ import annotations

from collections.abc import Mapping

from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookAction

Cases = tuple[str, ...]

_MCP_TOOL: Cases = ("hook-option-mcp-tool-handler", "hook-option-mcp-tool-handler-events")
_HTTP: Cases = ("hook-option-http-handler", "hook-option-http-handler-events", "hook-option-http-handler-refused")
_KEYS = ("if", "once", "timeout", "statusMessage", "onFailure")
_PROMPT: Cases = ("hook-option-prompt-handler-plain",)

#: The options measured per handler type, with their cases (hook_surface's HANDLER_OPTIONS takes them).
OPTIONS: Mapping[str, Mapping[str, Cases]] = {
    "http": {key: _HTTP for key in _KEYS},
    "mcp_tool": {key: _MCP_TOOL for key in _KEYS},
    "prompt": {key: _PROMPT for key in _KEYS if key != "onFailure"},
}


def check_failure(event: str, action: HookAction, *, refused: bool) -> None:
    """NotModelled when an http or mcp_tool handler that failed holds an option measured only on calls that
    answered (or, for an http handler, whose connection was refused)."""
    where = f"({event}, {action.type} handler {action.label!r})"
    if "onFailure" in action.options:
        raise NotModelled(f"a {action.type} hook with onFailure whose call failed {where} (2.1.332 reads the "
                          "option, the older pinned releases do not; measured only on calls that answered)")
    if action.timeout is not None and not refused:
        raise NotModelled(f"a {action.type} hook with timeout whose call failed otherwise than by a refused "
                          f"connection {where}")
