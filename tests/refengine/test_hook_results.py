"""How hook results combine into what the model sees (measured strings, notes §1.6-§1.7)."""

from __future__ import annotations

import json

from harness.refengine.hook_results import ActionResult, combine, parse_output
from harness.refengine.hooks import HookAction, PayloadSource, payload

COMMAND = HookAction(type="command", command="bash deny.sh")


def test_json_deny_reason_is_the_tool_result() -> None:
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "BLOCKED-BY-SKILL-HOOK"}})
    outcome = combine("PreToolUse", "Bash", [ActionResult(action=COMMAND, stdout=out, output=parse_output(out))])
    assert outcome.blocked and outcome.permission == "deny" and outcome.message == "BLOCKED-BY-SKILL-HOOK"


def test_exit_2_blocks_with_command_and_stderr() -> None:
    outcome = combine("PreToolUse", "Edit", [ActionResult(action=COMMAND, exit_code=2, stderr="NO\n")])
    assert outcome.message == "PreToolUse:Edit hook error: [bash deny.sh]: NO\n"


def test_exit_1_does_not_block() -> None:
    assert not combine("PreToolUse", "Bash", [ActionResult(action=COMMAND, exit_code=1, stderr="x")]).blocked


def test_prompt_hook_no_blocks_and_stops_the_turn_agent_hook_only_blocks() -> None:
    prompt = HookAction(type="prompt", prompt="CHECK")
    agent = HookAction(type="agent", prompt="CHECK")
    by_prompt = combine("PreToolUse", "Bash", [ActionResult(action=prompt, verdict_ok=False, verdict_reason="no")])
    by_agent = combine("PreToolUse", "Bash", [ActionResult(action=agent, verdict_ok=False, verdict_reason="no")])
    assert by_prompt.message == "PreToolUse:Bash hook error: [CHECK]: no" and by_prompt.stop_turn
    assert by_agent.message == "PreToolUse:Bash hook error: Agent hook condition was not met: no"
    assert not by_agent.stop_turn


def test_stop_feedback_forms() -> None:
    exit2 = combine("Stop", None, [ActionResult(action=COMMAND, exit_code=2, stderr="KEEP\n")])
    reason = json.dumps({"decision": "block", "reason": "SUB-KEEP"})
    block = combine("SubagentStop", "probe", [ActionResult(action=COMMAND, output=parse_output(reason))])
    assert exit2.message == "Stop hook feedback:\n[bash deny.sh]: KEEP\n"
    assert block.message == "Stop hook feedback:\nSUB-KEEP"


def test_additional_context_is_labelled_with_event_and_tool() -> None:
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "POST-CTX"}})
    outcome = combine("PostToolUse", "Bash", [ActionResult(action=COMMAND, output=parse_output(out))])
    assert outcome.contexts == ("PostToolUse:Bash hook additional context: POST-CTX",)


def test_payload_field_order_matches_the_real_engine() -> None:
    source = PayloadSource(session_id="s", transcript_path="/h/t.jsonl", cwd="/w", prompt_id="p",  # type: ignore[arg-type]
                           permission_mode="default")
    data = payload("PreToolUse", source=source, fields={"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t"})
    assert list(data) == ["session_id", "transcript_path", "cwd", "prompt_id", "permission_mode", "effort",
                          "hook_event_name", "tool_name", "tool_input", "tool_use_id"]
    start = payload("SubagentStart", source=source, fields={})
    assert "permission_mode" not in start and "effort" not in start


def test_2_1_332_frames_a_json_deny_reason_with_the_event() -> None:
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "BLOCKED"}})
    result = ActionResult(action=COMMAND, stdout=out, output=parse_output(out))
    assert combine("PreToolUse", "Bash", [result], deny_names_event=True).message == \
        "PreToolUse:Bash hook error: BLOCKED"


def test_a_json_deny_without_a_reason_names_the_hook_as_measured() -> None:
    """hook-pretooluse-deny-no-reason on 2.1.252 to 2.1.332: never the permission prompt's text."""
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})
    result = ActionResult(action=COMMAND, stdout=out, output=parse_output(out))
    assert combine("PreToolUse", "Bash", [result]).message == "Hook PreToolUse:Bash denied this tool"
    assert combine("PreToolUse", "Bash", [result], deny_names_event=True).message == \
        "PreToolUse:Bash hook error: Blocked by hook"
    assert combine("PreToolUse", "Write", [result], deny_names_event=True).message == \
        "Hook PreToolUse:Write denied this tool"
    assert combine("PreToolUse", "Bash", [result]).permission == "deny"


def test_a_deny_or_ask_without_a_reason_that_was_not_measured_is_not_modelled() -> None:
    import pytest

    from harness.refengine.errors import NotModelled

    deny = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})
    ask = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}})
    with pytest.raises(NotModelled):
        combine("PreToolUse", "Edit", [ActionResult(action=COMMAND, stdout=deny, output=parse_output(deny))])
    with pytest.raises(NotModelled):
        combine("PreToolUse", "Bash", [ActionResult(action=COMMAND, stdout=ask, output=parse_output(ask))])
