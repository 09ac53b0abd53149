"""A ``type: prompt`` handler on Stop and SubagentStop, and ``continueOnBlock`` on prompt handlers.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (cases hook-prompt-stop-*, hook-prompt-subagentstop-*):

- The check is one request without tools whose system prompt is a stop-condition judge's
  (``_stop_judge_system``; 2.1.332 adds the verdict rules of profile ``hook_verdict_rules``). Its messages are the
  conversation that is stopping (the main thread's on Stop, the subagent's on SubagentStop) up to the reply that
  stops, then one user message: ``Based on the conversation transcript above, ...\\n\\nCondition: <prompt>``, the
  prompt's ``$ARGUMENTS`` filled with the event's payload. So its opening message is that conversation's own.
- ``{"ok": false, "reason": R}`` blocks: the stopping conversation is asked again with ``Stop hook feedback:\\n[<the
  prompt as written>]: R`` (hook_results.combine), and the check runs again at every stop with
  ``stop_hook_active: true``, up to the loop's cap of blocks (nine model calls in all, nine checks:
  hook-prompt-stop-always-not-met). ``{"ok": true}`` lets it end (hook-prompt-stop-met).
- An answer that is not a JSON verdict (``ok``) blocks nothing: the turn ends (hook-prompt-stop-malformed).
- ``continueOnBlock: true`` changes nothing on Stop and SubagentStop (hook-prompt-stop-continue-on-block,
  hook-prompt-subagentstop-continue-on-block). On PostToolUse it lets the turn go on with the reason
  (hook-option-prompt-continue-on-block). On any other event it is not measured.
- With ``if: Bash(<prefix> *)`` the handler never runs on SubagentStop (hook-prompt-subagentstop-if), as
  hook_options.py has it for every non-tool event.

Not measured, so not-modelled: a prompt without ``$ARGUMENTS`` on these events (on PreToolUse the payload is then
appended), the handler options ``once``, ``timeout``, ``statusMessage``, ``model`` and ``onFailure`` on them, an
answer with ``impossible: true``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.refengine.conversation import Conversation, user_text
from harness.refengine.errors import NotModelled
from harness.refengine.hook_messages import HOOK_VERDICT_RULES
from harness.refengine.hooks import HookAction, js_json
from harness.refengine.runtime import Request

STOP_EVENTS = frozenset({"Stop", "SubagentStop"})

_CASES: tuple[str, ...] = (
    "hook-prompt-stop-not-met", "hook-prompt-stop-met", "hook-prompt-stop-always-not-met",
    "hook-prompt-stop-malformed", "hook-prompt-subagentstop-not-met",
)
#: ``continueOnBlock`` on a prompt handler: the events measured, with their cases.
CONTINUE_ON_BLOCK: Mapping[str, tuple[str, ...]] = {
    "PostToolUse": ("hook-option-prompt-continue-on-block",),
    "Stop": ("hook-prompt-stop-continue-on-block",),
    "SubagentStop": ("hook-prompt-subagentstop-continue-on-block", "hook-prompt-subagentstop-if"),
}
#: The keys of a prompt handler measured on Stop and SubagentStop (``if`` as hook_options.py checks it).
_STOP_KEYS = frozenset({"type", "prompt", "continueOnBlock", "if"})

_HEAD = ("You are evaluating a stop-condition hook in Claude Code. Read the conversation transcript carefully, then "
         "judge whether the user-provided condition is satisfied.")
_SHAPES = (
    "Your response must be a JSON object with one of these shapes:\n"
    '- {"ok": true, "reason": "<quote evidence from the transcript that satisfies the condition>"}\n'
    '- {"ok": false, "reason": "<quote what is missing or what blocks the condition>"}\n'
    '- {"ok": false, "impossible": true, "reason": "<explain why the condition can never be satisfied>"}\n\n'
    'Always include a "reason" field, quoting specific text from the transcript whenever possible. If the transcript '
    'does not contain clear evidence that the condition is satisfied, return {"ok": false, "reason": "insufficient '
    'evidence in transcript"}.\n\n'
    'Only use {"ok": false, "impossible": true} when the condition is genuinely unachievable in this session \u2014 '
    "for example: the condition is self-contradictory, it depends on a resource or capability that is unavailable, "
    "or the assistant has explicitly tried, exhausted reasonable approaches, and stated it cannot be done. Apply your "
    "own judgment when deciding this \u2014 the assistant claiming the goal is impossible is evidence, not proof; "
    "independently confirm the condition is genuinely unachievable rather than deferring to the assistant's "
    "self-assessment. Do not use it just because the goal has not been reached yet or because progress is slow. "
    'When in doubt, return {"ok": false} without "impossible".'
)
_ASK = ("Based on the conversation transcript above, has the following stopping condition been satisfied? Answer "
        "based on transcript evidence only.\n\nCondition: ")


def _stop_judge_system(*, ruled: bool) -> str:
    """The check's system prompt (2.1.252 to 2.1.278 without the verdict rules, 2.1.332 with them)."""
    return "\n\n".join((_HEAD, HOOK_VERDICT_RULES, _SHAPES) if ruled else (_HEAD, _SHAPES))


def check_continue_on_block(event: str, action: HookAction) -> None:
    """NotModelled for ``continueOnBlock`` on a prompt handler where no case measures it."""
    if "continueOnBlock" in action.keys and (event not in CONTINUE_ON_BLOCK or action.type != "prompt"):
        raise NotModelled(f"continueOnBlock on a {action.type} hook on {event} (measured on prompt hooks on "
                          f"{', '.join(CONTINUE_ON_BLOCK)})")


def stop_request(conversation: Conversation, action: HookAction, data: Mapping[str, Any], *,
                 event: str, ruled: bool) -> Request:
    """The stop-condition check of a prompt handler on Stop or SubagentStop."""
    unmeasured = sorted(set(action.keys) - _STOP_KEYS)
    if unmeasured:
        raise NotModelled(f"the prompt hook option {unmeasured[0]!r} on {event} (measured there: "
                          f"{', '.join(sorted(_STOP_KEYS))})")
    if "$ARGUMENTS" not in action.prompt:
        raise NotModelled(f"a prompt hook on {event} without $ARGUMENTS (its request is measured with it)")
    condition = action.prompt.replace("$ARGUMENTS", js_json(data))
    return Request(system=_stop_judge_system(ruled=ruled),
                   messages=(*conversation.messages, user_text(_ASK + condition)), tools=())


def check_verdict(value: Mapping[str, Any] | None, event: str) -> None:
    """NotModelled for an answer whose effect is not measured (``impossible``)."""
    if value is not None and "impossible" in value:
        raise NotModelled(f"a prompt hook's answer with 'impossible' on {event}")
