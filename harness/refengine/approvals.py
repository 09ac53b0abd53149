"""The user's answer to a permission prompt, where the run has someone to ask (a case's ``approvals``).

Print mode asks no one: an ask is a refusal (dispatch.py). Given a permission prompt tool
(``--permission-prompt-tool``), the real engine asks it instead, and its answer decides. Measured on
2.1.252, 2.1.257, 2.1.278 and 2.1.332 for a main-thread Bash call only, asked for three reasons:
the tool's own check in default mode (approval-prompt-allow, approval-prompt-deny,
approval-prompt-updated-input), a ``permissions.ask`` rule in bypass mode (approval-rule-ask) and a
PreToolUse hook's ``ask`` in bypass mode (approval-hook-ask); an allow rule asks nothing
(approval-rule-allow). The prompt carries the call's input; an allow runs the call with the answer's
``updatedInput`` (the call's own input unless the user changed it); a deny's message is the tool result,
alone, and the call is listed in ``permission_denials``. Anything else that would ask (another tool, a
subagent's call, a hook's ask outside bypass mode, a deny without a message) is not-modelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.approvals_server import UNSCRIPTED
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime

#: The tools whose prompts are measured.
_MEASURED_TOOLS = frozenset({"Bash"})


@dataclass(frozen=True, kw_only=True)
class Answer:
    allowed: bool
    tool_input: Mapping[str, Any]
    """With allow: the input the call runs with."""
    message: str = ""
    """With deny: the tool result."""


def can_ask(rt: Runtime, conversation: Conversation, name: str, *, hook_ask: bool) -> bool:
    """Whether this ask goes to the user (a case with ``approvals``), checking that it is measured first."""
    if rt.approvals is None:
        return False
    if name not in _MEASURED_TOOLS:
        raise NotModelled(f"a permission prompt for {name} (measured for Bash only)")
    if conversation.kind != "main":
        raise NotModelled(f"a permission prompt for a {conversation.kind} context's call (measured on the main thread)")
    if hook_ask and (conversation.mode or rt.mode) != "bypass":
        raise NotModelled("a permission prompt after a PreToolUse hook's ask outside bypass mode")
    return True


def ask_user(rt: Runtime, name: str, tool_input: Mapping[str, Any]) -> Answer:
    """Put the call to the user: the case's next answer, recorded as the permission prompt tool records it."""
    assert rt.approvals is not None
    number = len(rt.asked)
    given = number if number < len(rt.approvals) else None
    rt.asked.append({"tool": name, "input": dict(tool_input), "answer": given})
    if given is None:
        return Answer(allowed=False, tool_input=tool_input, message=UNSCRIPTED)
    answer = rt.approvals[given]
    if answer["answer"] == "allow":
        return Answer(allowed=True, tool_input=answer.get("updated_input", tool_input))
    if not answer.get("message"):
        raise NotModelled("a user's deny without a message (measured with a message)")
    return Answer(allowed=False, tool_input=tool_input, message=str(answer["message"]))
