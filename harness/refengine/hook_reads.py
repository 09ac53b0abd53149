"""A prompt a UserPromptSubmit hook's ``continue: false`` stopped (what the session prints and keeps).

What each event reads of a command's result is hook_results.as_read's (exit 2, ``decision: block`` and
``continue: false`` per event, measured on 2.1.252 to 2.1.332).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.refengine.errors import NotModelled

if TYPE_CHECKING:
    from harness.refengine.conversation import Conversation
    from harness.refengine.hook_results import HookOutcome
    from harness.refengine.runtime import SessionState

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
