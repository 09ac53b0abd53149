"""PostToolBatch: the hook event the engine fires once a model message's tool calls all have their results, as far
as it is measured.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332, print mode, each message with one call (the scripted model's
messages have one tool_use each; several calls in one message are not measured):

- It fires once per message with tool calls, after the calls' PostToolUse, in the main thread
  (hook-event-posttoolbatch).
- Its payload: session_id, transcript_path, cwd, prompt_id, permission_mode, effort, hook_event_name and
  tool_calls, one entry per call: tool_name, tool_input as the model wrote it, tool_use_id and tool_response, the
  tool_result's content (hook-event-posttoolbatch).
- A call refused or failed fires it the same way, its tool_response the error result's text as the model gets it,
  no other key: a deny rule's refusal, a PreToolUse hook's deny, a Bash exit code, the input check's refusal (an
  unknown skill) and an unknown tool name (hook-event-posttoolbatch-refused).
- ``hookSpecificOutput.additionalContext`` reaches the next request as ``PostToolBatch hook additional context:
  <text>`` (hook-output-posttoolbatch-additional-context).

Not measured, so not-modelled: a PostToolBatch rule outside a settings file, with a matcher other than ``*``, or
with a handler that is not a command; a batch in any context but the main thread, or an ``--agent`` main thread; a
call that ends the turn (a hook's ``continue: false`` or ``defer``) or whose answer adds blocks after its result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from harness.refengine.conversation import Conversation
from harness.refengine.dispatch import CallOutcome
from harness.refengine.errors import NotModelled
from harness.refengine.hook_actions import check_settings_command_rule, fire
from harness.refengine.hooks import HookRule
from harness.refengine.runtime import Runtime, active_rules

_EVENT = "PostToolBatch"  # its measured outputs and endings, with their cases: hook_surface.py


def _check(rule: HookRule) -> None:
    check_settings_command_rule(rule, _EVENT)


def after_batch(rt: Runtime, conversation: Conversation, uses: Sequence[Mapping[str, Any]],
                outcomes: Sequence[CallOutcome]) -> list[str]:
    """Fire PostToolBatch for the calls ``uses`` answered with ``outcomes``; the context texts for the next
    request."""
    rules = active_rules(rt, conversation, _EVENT)
    if not rules:
        return []
    for rule in rules:
        _check(rule)
    if conversation.kind != "main" or rt.main_agent is not None:
        raise NotModelled(f"a hook on {_EVENT} and a tool call in a {conversation.kind} context or an --agent main "
                          "thread (measured: the main thread)")
    if len(uses) != 1:
        raise NotModelled(f"a hook on {_EVENT} and a message of {len(uses)} tool calls (measured: one)")
    calls = []
    for use, outcome in zip(uses, outcomes, strict=True):
        if outcome.stop_turn or outcome.ends_context or len(outcome.blocks) != 1:
            raise NotModelled(f"a hook on {_EVENT} after a call that ends the turn or adds blocks after its result "
                              "(measured: calls answered with one result, refused, failed or not)")
        result = outcome.blocks[0]
        calls.append({"tool_name": use.get("name"), "tool_input": use.get("input"), "tool_use_id": use.get("id"),
                      "tool_response": result.get("content")})
    return list(fire(rt, conversation, _EVENT, subject=None, fields={"tool_calls": calls}).contexts)
