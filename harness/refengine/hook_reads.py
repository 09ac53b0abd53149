"""What an event does not read of a command's result: the parts hook_results.combine must not act on.

Every hook event takes the same exit codes and JSON fields, but each reads only some of them. Measured on
2.1.252 to 2.1.332, each output alone (an explorer-style hook per output) and all together in one committed case
per event (hook_surface names them): exit 2 on SessionStart, SubagentStart and SessionEnd is a non-blocking
error (nothing reaches the model, nothing stops); a top-level ``decision: block`` there is ignored; ``continue:
false`` stops the turn on PreToolUse and PostToolUse, stops the prompt on UserPromptSubmit, and is ignored on
every other event here (after a failing call, the model is asked again). Reading a result through ``as_read``
keeps hook_results.combine's rules per field instead of per event and field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from harness.refengine.errors import NotModelled

if TYPE_CHECKING:  # hook_results.py imports this module
    from harness.refengine.conversation import Conversation
    from harness.refengine.hook_results import ActionResult, HookOutcome
    from harness.refengine.runtime import SessionState

#: Events where exit 2 is measured to be a non-blocking error, as exit 1 is.
EXIT_2_IGNORED = frozenset({"SessionStart", "SubagentStart", "SessionEnd"})
#: Events where a top-level ``decision: block`` is measured to change nothing.
BLOCK_IGNORED = frozenset({"SessionStart", "SubagentStart", "SessionEnd"})
#: Events where ``continue: false`` is measured to act (hook_surface cites the cases).
CONTINUE_READ = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit"})


def as_read(event: str, result: ActionResult) -> ActionResult:
    """``result`` without what ``event`` does not read (an ignored exit 2 becomes an exit 1)."""
    if result.exit_code == 2 and event in EXIT_2_IGNORED:
        result = replace(result, exit_code=1)
    if result.output is None:
        return result
    output: Mapping[str, Any] = result.output
    if event in BLOCK_IGNORED and output.get("decision") == "block":
        output = {k: v for k, v in output.items() if k not in ("decision", "reason")}
    if event not in CONTINUE_READ and "continue" in output:
        output = {k: v for k, v in output.items() if k not in ("continue", "stopReason")}
    return replace(result, output=output) if output is not result.output else result


def stopped_prompt(session: SessionState, conversation: Conversation, outcome: HookOutcome) -> str:
    """A prompt a UserPromptSubmit ``continue: false`` stopped: it never reaches the model, and print mode prints
    ``Operation stopped by hook: <stopReason>`` (measured on 2.1.252 to 2.1.332,
    hook-output-userpromptsubmit-continue-false). The session's later prompts are not measured (run_prompt)."""
    if outcome.blocked or outcome.stop_reason is None:
        raise NotModelled("a UserPromptSubmit continue false beside a block, or without a stopReason (measured: "
                          "alone, with one)")
    conversation.messages.pop()
    session.prompt_stopped = True
    return f"Operation stopped by hook: {outcome.stop_reason}"
