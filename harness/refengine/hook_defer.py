"""A PreToolUse hook's ``permissionDecision: "defer"``, as far as it is measured.

Measured on 2.1.252 to 2.1.332 in print mode: the call does not run and the turn ends there, with no tool
result sent and no Stop hook run; the printed result is empty, not an error, and lists no permission denial
(hook-output-pretooluse-defer: Bash in bypass mode; hook-output-pretooluse-defer-default-mode: Read in default
mode, where PostToolUse, PostToolUseFailure and Stop handlers do not run; hook-output-pretooluse-defer-beside-context:
another handler's additionalContext is then never sent). On the other events a defer changes
nothing (hook-output-defer-ignored-events; hook_surface lists it with each event's ignored outputs).

Not measured, so not-modelled: a defer in a subagent, in another permission mode, with a scripted approval,
beside another handler's decision, stop or rewritten input, beside other calls of the same reply,
and what a later prompt of the same process or a resumed session does with the deferred call.
"""

from __future__ import annotations

from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.hook_results import HookOutcome
from harness.refengine.runtime import Runtime

CASES: tuple[str, ...] = ("hook-output-pretooluse-defer", "hook-output-pretooluse-defer-default-mode",
                          "hook-output-pretooluse-defer-beside-context")
#: Permission modes a defer was measured in.
_MEASURED_MODES = frozenset({"default", "bypass"})


def check(rt: Runtime, conversation: Conversation, pre: HookOutcome) -> None:
    """NotModelled for a deferred call in a situation no case measures; else the session keeps the deferral."""
    mode = conversation.mode or rt.mode
    if conversation.kind != "main":
        raise NotModelled(f"a PreToolUse defer in a {conversation.kind} context (measured on the main thread)")
    if mode not in _MEASURED_MODES:
        raise NotModelled(f"a PreToolUse defer in {mode} mode (measured in default and bypass modes)")
    if rt.approvals is not None:
        raise NotModelled("a PreToolUse defer in a run that answers permission prompts")
    # Another handler's additionalContext is never sent: no request follows
    # (hook-output-pretooluse-defer-beside-context).
    if pre.stop_turn or pre.updated_input is not None:
        raise NotModelled("a PreToolUse defer beside a stop or a rewritten input")
    reply = conversation.messages[-1].get("content") if conversation.messages else None
    calls = [b for b in reply if isinstance(b, dict) and b.get("type") == "tool_use"] if isinstance(reply, list) else []
    if len(calls) != 1:
        raise NotModelled("a PreToolUse defer of one of several calls in a reply")
    rt.session.deferred_call = True


def check_next_prompt(rt: Runtime) -> None:
    """A later prompt of a session with a deferred call. Measured on 2.1.252 to 2.1.332
    (hook-output-pretooluse-defer-next-prompt): the next request carries the call's result as the error
    ``[Tool result missing due to internal error]``; how that request is built is not modelled."""
    if rt.session.deferred_call:
        raise NotModelled("a prompt after a PreToolUse defer in the same session (the deferred call's result)")
