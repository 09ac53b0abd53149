"""What each hook event reads of a command's result (hook_results._as_read), given meaning by hook_results.combine."""

from __future__ import annotations

import pytest

from harness.refengine import hook_messages, hook_surface
from harness.refengine.errors import NotModelled
from harness.refengine.hook_reads import check_after_stopped, stopped_prompt
from harness.refengine.hook_results import ActionResult, combine
from harness.refengine.hooks import HookAction

ACTION = HookAction(type="command", command="bash h.sh")


def _result(**kwargs: object) -> ActionResult:
    return ActionResult(action=ACTION, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("event", ["SessionStart", "SubagentStart", "SessionEnd"])
def test_exit_2_is_a_non_blocking_error_where_measured(event: str) -> None:
    outcome = combine(event, None, [_result(exit_code=2, stderr="WHY\n")])
    assert (outcome.blocked, outcome.message, outcome.contexts) == (False, None, ())


@pytest.mark.parametrize("event", ["SessionStart", "SubagentStart", "SessionEnd"])
def test_decision_block_changes_nothing_where_measured(event: str) -> None:
    outcome = combine(event, None, [_result(output={"decision": "block", "reason": "WHY"})])
    assert (outcome.blocked, outcome.message) == (False, None)


@pytest.mark.parametrize("event", ["PostToolUseFailure", "Stop", "SubagentStop", "SessionStart", "SubagentStart"])
def test_continue_false_is_read_only_where_measured(event: str) -> None:
    outcome = combine(event, "Bash", [_result(output={"continue": False, "stopReason": "HALT"})])
    assert (outcome.stop_turn, outcome.stop_reason) == (False, None)


def test_continue_false_on_userpromptsubmit_keeps_its_stop_reason() -> None:
    outcome = combine("UserPromptSubmit", None, [_result(output={"continue": False, "stopReason": "HALT"})])
    assert (outcome.stop_turn, outcome.stop_reason) == (True, "HALT")


@pytest.mark.parametrize(("output", "stderr", "code", "detail"), [
    ({"decision": "block", "reason": "WHY"}, "", 0, "WHY"),
    (None, "WHY\n", 2, "[bash h.sh]: WHY\n"),
])
def test_posttoolusefailure_blocks_are_framed_as_on_posttooluse(output: dict[str, str] | None, stderr: str,
                                                                 code: int, detail: str) -> None:
    outcome = combine("PostToolUseFailure", "Bash", [_result(output=output, stderr=stderr, exit_code=code)])
    assert outcome.message == hook_messages.blocking_error("PostToolUseFailure", "Bash", "bash h.sh", detail)
    assert outcome.message.startswith('PostToolUseFailure:Bash hook blocking error from command: "bash h.sh": ')


def test_permission_fields_on_posttooluse_decide_nothing() -> None:
    output = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny",
                                     "permissionDecisionReason": "NO", "updatedInput": {"command": "x"}}}
    hook_surface.check_output("PostToolUse", output)
    outcome = combine("PostToolUse", "Bash", [_result(output=output)])
    assert (outcome.permission, outcome.blocked, outcome.updated_input) == (None, False, None)


class _Session:
    prompt_stopped = False


class _Runtime:
    def __init__(self, session: _Session | None = None) -> None:
        self.session = session or _Session()
        self.races: list[tuple[str, ...]] = []


class _Conversation:
    def __init__(self) -> None:
        self.messages: list[object] = ["earlier", "the prompt"]


def test_a_stopped_prompt_prints_the_stop_reason_and_leaves_the_conversation() -> None:
    session, conversation = _Session(), _Conversation()
    outcome = combine("UserPromptSubmit", None, [_result(output={"continue": False, "stopReason": "HALT"})])
    assert stopped_prompt(_Runtime(session), conversation, outcome, "P") == "Operation stopped by hook: HALT"  # type: ignore[arg-type]
    assert (session.prompt_stopped, conversation.messages) == (True, ["earlier"])


def test_a_stop_without_a_reason_prints_the_bare_words() -> None:
    outcome = combine("UserPromptSubmit", None, [_result(output={"continue": False})])
    assert stopped_prompt(_Runtime(), _Conversation(), outcome, "P") == "Operation stopped by hook"  # type: ignore[arg-type]


BLOCK = {"decision": "block", "reason": "WHY"}
STOP = {"continue": False, "stopReason": "HALT"}


@pytest.mark.parametrize("results", [[{**STOP, **BLOCK}], [STOP, BLOCK], [BLOCK, STOP]])
def test_a_prompt_stop_wins_over_a_json_block(results: list[dict[str, object]]) -> None:
    outcome = combine("UserPromptSubmit", None, [_result(output=o) for o in results])
    assert outcome.continue_false
    rt = _Runtime()
    assert stopped_prompt(rt, _Conversation(), outcome, "P") == "Operation stopped by hook: HALT"  # type: ignore[arg-type]
    # from two handlers the block races the stop (it won once on 2.1.278): the blocked text is the rival
    blocked = "UserPromptSubmit operation blocked by hook:\nWHY\n\nOriginal prompt: P"
    rivals = [("Operation stopped by hook: HALT", blocked)]
    assert rt.races == (rivals if len(results) > 1 else [])


@pytest.mark.parametrize(("results", "why"), [
    ([_result(output={"continue": False}), _result(output=BLOCK)], "without a stopReason beside a block"),
    ([_result(output=STOP), _result(exit_code=2, stderr="NO")], "beside an exit 2"),
    ([_result(output=STOP), _result(output={"continue": False, "stopReason": "OTHER"})], "different stopReasons"),
])
def test_a_prompt_stop_beside_what_is_not_measured_abstains(results: list[ActionResult], why: str) -> None:
    outcome = combine("UserPromptSubmit", None, results)
    with pytest.raises(NotModelled, match=why):
        stopped_prompt(_Runtime(), _Conversation(), outcome, "P")  # type: ignore[arg-type]


def test_a_prompt_after_a_stopped_one_abstains_only_if_it_reaches_the_model() -> None:
    session = _Session()
    check_after_stopped(session)  # type: ignore[arg-type]
    session.prompt_stopped = True
    with pytest.raises(NotModelled, match="reaching the model"):
        check_after_stopped(session)  # type: ignore[arg-type]


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
@pytest.mark.parametrize("results", [[{**STOP, **BLOCK}], [STOP, BLOCK], [BLOCK, STOP]])
def test_a_stop_holds_back_a_json_block_on_stop_events(event: str, results: list[dict[str, object]]) -> None:
    outcome = combine(event, None, [_result(output=o) for o in results])
    assert (outcome.blocked, outcome.message, outcome.stop_turn, outcome.continue_false) == (False, None, True, True)


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
@pytest.mark.parametrize("results", [
    [_result(output={"continue": False}), _result(output=BLOCK)],
    [_result(output=STOP), _result(exit_code=2, stderr="NO")],
    [_result(output={**STOP, "hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "MORE"}})],
])
def test_a_stop_beside_what_is_not_measured_on_stop_events_abstains(event: str, results: list[ActionResult]) -> None:
    with pytest.raises(NotModelled, match=f"a {event} continue false beside"):
        combine(event, None, results)


def test_a_stop_beside_a_block_is_not_read_on_posttoolusefailure() -> None:
    outcome = combine("PostToolUseFailure", "Bash", [_result(output=STOP), _result(output=BLOCK)])
    assert (outcome.blocked, outcome.stop_turn, outcome.continue_false) == (True, False, False)
