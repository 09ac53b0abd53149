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

An http handler whose request fails (``http_failure``), measured on PreToolUse for a refused connection
(hook-option-http-on-failure-block), a 500 answer (hook-option-http-on-failure-status) and no answer within the
handler's ``timeout`` (hook-option-http-on-failure-timeout), each against its contrast without ``onFailure``
(hook-option-http-handler-refused, -status-absent, -timeout-absent): without the option, and with it up to 2.1.278
(which do not read it), the failure is a non-blocking error and the call runs; with it on 2.1.332
(``Profile.hook_on_failure_blocks``) the call is refused with ``PreToolUse:Bash hook error: [<url>]: failed;
blocking because onFailure is "block"`` and a line naming the failure (``connect ECONNREFUSED <host>:<port>``,
``HTTP 500 from <url>``), or ``[<url>]: timed out; blocking ...`` alone.

Not measured, so not-modelled: ``onFailure`` on an mcp_tool call that fails or on an http handler of another event
(hook_failure.py: a command handler's), and ``timeout`` on a call that fails otherwise than by a refused connection
or a timeout (an mcp_tool call that fails, an http request that gets an error answer). The values and events the
options were measured with are hook_options.py's and hook_failure.py's checks, which every handler type goes
through.

A prompt handler's ``if``, ``once``, ``statusMessage`` and ``timeout`` on PreToolUse: its request goes out for the
matching Bash calls only, as without the options (hook-option-prompt-handler-plain); ``onFailure`` on a prompt
handler is not measured.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookAction
from harness.refengine.profiles import Profile

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


HttpFailure = Literal["refused", "status", "timeout", "other"]
_BLOCKING = 'blocking because onFailure is "block"'
#: Events whose http handler's onFailure was measured on a failed request: PreToolUse blocks the call; on Stop the
#: failure stays a non-blocking error, the model is not asked again (hook-option-http-on-failure-refused-stop). On
#: PostToolUse 2.1.332 hands the model the failure as a block, in words not measured
#: (hook-option-http-on-failure-refused-posttooluse); on UserPromptSubmit it blocks the prompt, printed without the
#: ``Original prompt`` line an exit 2 adds (hook-option-http-on-failure-refused-userpromptsubmit): both not modelled.
_ON_FAILURE_EVENTS = frozenset({"PreToolUse", "Stop"})


def http_failure(profile: Profile, event: str, action: HookAction, failure: HttpFailure, *,
                 status: int = 0) -> str | None:
    """What a failed http request leaves: the stderr of a block (``onFailure: "block"`` where the release reads
    it), None for a non-blocking error; NotModelled outside what was measured."""
    where = f"({event}, http handler {action.label!r})"
    if action.timeout is not None and failure not in ("refused", "timeout"):
        raise NotModelled(f"an http hook with timeout whose call failed otherwise than by a refused connection or a "
                          f"timeout {where}")
    if "onFailure" not in action.options:
        if failure == "other":
            raise NotModelled(f"an http hook whose call failed otherwise than by a refused connection, an error "
                              f"status or a timeout {where}")
        return None
    if failure == "other" or event not in _ON_FAILURE_EVENTS or (event != "PreToolUse" and failure != "refused"):
        raise NotModelled(f"an http hook with onFailure whose call failed on {event} or otherwise than by a refused "
                          f"connection, an error status or a timeout {where} (measured: PreToolUse; a refused "
                          f"connection on {', '.join(sorted(_ON_FAILURE_EVENTS - {'PreToolUse'}))})")
    if profile.hook_on_failure_blocks is None:
        raise NotModelled(f"an http hook with onFailure whose call failed {where} (read from 2.1.332, not by 2.1.278; "
                          "the first release that reads it is not measured)")
    if not profile.hook_on_failure_blocks or event != "PreToolUse":
        return None
    if failure == "timeout":
        return f"timed out; {_BLOCKING}"
    if failure == "status":
        return f"failed; {_BLOCKING}\nHTTP {status} from {action.url}"
    parts = urlsplit(action.url)
    if parts.hostname != "127.0.0.1" or parts.port is None:
        raise NotModelled(f"the refused-connection text of an http hook on a host other than 127.0.0.1 with a port "
                          f"{where}")
    return f"failed; {_BLOCKING}\nconnect ECONNREFUSED {parts.hostname}:{parts.port}"
