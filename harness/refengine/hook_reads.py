"""A prompt a UserPromptSubmit hook's ``continue: false`` stopped (what the session prints and keeps).

What each event reads of a command's result is hook_results._as_read's (exit 2, ``decision: block`` and
``continue: false`` per event, measured on 2.1.252 to 2.1.332); a stop beside a block: hook_results._HOLDS_BLOCK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.refengine import hook_messages
from harness.refengine.errors import NotModelled

if TYPE_CHECKING:
    from harness.refengine.conversation import Conversation
    from harness.refengine.hook_results import HookOutcome
    from harness.refengine.runtime import Runtime, SessionState

_STOPPED = "Operation stopped by hook"


def prompt_stop(rt: Runtime, conversation: Conversation, outcome: HookOutcome, prompt: str) -> str | None:
    """What print mode prints for a prompt a UserPromptSubmit ``continue: false`` stopped, None for one that goes on."""
    if outcome.continue_false:
        return stopped_prompt(rt, conversation, outcome, prompt)
    check_after_stopped(rt.session)
    return None


def stopped_prompt(rt: Runtime, conversation: Conversation, outcome: HookOutcome, prompt: str) -> str:
    """A prompt a UserPromptSubmit ``continue: false`` stopped: it never reaches the model, and print mode prints
    ``Operation stopped by hook: <stopReason>``, or ``Operation stopped by hook`` without one; the stop wins over a
    JSON ``decision: block`` in the same output (measured on 2.1.252 to 2.1.332, hook-output-userpromptsubmit-
    continue-false, -beside-block). A block from another handler races the stop: the stop won on 2.1.252, 2.1.257
    and 2.1.332, the block once on 2.1.278 (the prompt then prints as blocked), so the blocked text is listed in
    ``races`` as the stop's rival."""
    if outcome.stops_differ:
        raise NotModelled("several UserPromptSubmit continue false with different stopReasons (which one is printed "
                          "is a race: cc-harness explore seed 771203, x771203-0049 on 2.1.332)")
    if outcome.blocked_otherwise:
        raise NotModelled("a UserPromptSubmit continue false beside an exit 2 or a prompt or agent verdict "
                          "(measured: beside a JSON decision block)")
    if outcome.blocked and outcome.stop_reason is None:
        raise NotModelled("a UserPromptSubmit continue false without a stopReason beside a block (measured: "
                          "either alone, and a stopReason beside a block)")
    conversation.messages.pop()
    rt.session.prompt_stopped = True
    text = _STOPPED if outcome.stop_reason is None else f"{_STOPPED}: {outcome.stop_reason}"
    if outcome.blocked and outcome.block_apart:
        if outcome.suppress_prompt or outcome.raced:
            raise NotModelled("a UserPromptSubmit continue false racing several blocks or a suppressOriginalPrompt")
        rt.races.append((text, hook_messages.prompt_blocked_result(outcome.message or "", prompt)))
    return text


def check_after_stopped(session: SessionState) -> None:
    """A later prompt of a session whose earlier prompt was stopped, which the hooks let through. Measured on
    2.1.252 to 2.1.332 (hook-output-userpromptsubmit-continue-false-then-model): the model then sees the stopped
    prompt, in the same process and resumed (the session keeps it); this engine drops it.
    A later prompt stopped again is modelled (hook-output-userpromptsubmit-continue-false-next-prompt)."""
    if session.prompt_stopped:
        raise NotModelled("a prompt reaching the model after one a UserPromptSubmit continue false stopped (the "
                          "stopped prompt stays in the conversation: not modelled)")
