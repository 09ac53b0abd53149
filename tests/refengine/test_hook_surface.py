"""The reference engine's hook table: every entry measured, everything else not-modelled with a named reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.refengine import hook_messages, hook_surface
from harness.refengine.errors import NotModelled
from harness.refengine.hook_results import ActionResult, combine
from harness.refengine.hooks import HookAction, parse_hook_rules
from harness.suite import Suite

SUITE = Suite.discover(Path(__file__).resolve().parents[2])


@pytest.mark.parametrize("case", sorted(hook_surface.every_case()))
def test_every_entry_is_backed_by_a_case_measured_on_every_pinned_version(case: str) -> None:
    assert (SUITE.cases / case / "case.yaml").is_file(), f"{case}: no such case"
    for version in SUITE.pinned:
        snapshot = SUITE.snapshots / f"claude-{version}" / f"{case}.json"
        assert snapshot.is_file(), f"{case}: no snapshot for claude@{version}"


@pytest.mark.parametrize("event", ["FutureEvent"])  # every event the engine knows by name is in the table now
def test_a_rule_on_an_event_not_modelled_names_it(event: str) -> None:
    with pytest.raises(NotModelled, match=event):
        hook_surface.check_rule(event, [("command", ("type", "command"))], origin=".claude/settings.json")


# if, once, shell and async are in the table; which values, events and origins are measured is hook_options.py's
# (tests/refengine/test_hook_options.py)
@pytest.mark.parametrize("option", ["asyncRewake", "model"])
def test_a_handler_option_not_modelled_names_it(option: str) -> None:
    rules = parse_hook_rules({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "true", option: True}]}]}, origin="settings.json")
    with pytest.raises(NotModelled, match=f"'{option}'"):
        hook_surface.check_rule("PreToolUse", ((a.type, a.keys) for a in rules[0].actions), origin="settings.json")


def test_a_rule_on_a_quiet_event_passes_whatever_its_handler_says() -> None:
    # Notification was measured not to fire in print mode: the rule is inert, so the run goes on
    hook_surface.check_rule("Notification", [("command", ("type", "command", "async"))], origin="settings.json")


def test_modelled_handler_options_pass() -> None:
    hook_surface.check_rule("PreToolUse", [("command", ("type", "command", "timeout"))], origin="settings.json")
    hook_surface.check_rule("Stop", [("command", ("type", "command", "if", "once", "shell"))], origin="settings.json")


@pytest.mark.parametrize(("event", "output", "named"), [
    ("Stop", {"suppressOutput": False}, "suppressOutput=false"),
    ("SessionEnd", {"hookSpecificOutput": {"hookEventName": "Stop"}}, "hookEventName=Stop on SessionEnd"),
    ("PostToolUse", {"suppressOutput": False}, "suppressOutput=false"),
    ("PostToolUse", {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "x"}},
     "hookSpecificOutput.updatedToolOutput"),
    ("PreToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "later"}},
     "permissionDecision=later"),
    ("PostToolUseFailure", {"decision": "approve"}, "decision=approve"),
    ("PreToolUse", {"decision": "approve"}, "decision=approve"),
    ("UserPromptSubmit", {"decision": "approve"}, "decision=approve"),
    ("SubagentStart", {"hookSpecificOutput": {"hookEventName": "SubagentStart", "updatedMCPToolOutput": "x"}},
     "updatedMCPToolOutput"),
    ("PostToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "x"}},
     "hookEventName=PreToolUse on PostToolUse"),
])
def test_an_output_field_not_modelled_names_it(event: str, output: dict[str, object], named: str) -> None:
    with pytest.raises(NotModelled, match=named.replace(".", r"\.")):
        hook_surface.check_output(event, output)


@pytest.mark.parametrize(("event", "output"), [
    ("PostToolUse", {"decision": "block", "reason": "x"}),
    ("PreToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                           "updatedInput": {"command": "x"}}}),
    ("Stop", {"decision": "block", "reason": "x"}),
    ("Stop", {"continue": False, "stopReason": "x"}),
    ("SessionEnd", {"hookSpecificOutput": {"hookEventName": "SessionEnd", "additionalContext": "x"}}),
    ("SubagentStop", {"hookSpecificOutput": {"hookEventName": "SubagentStop", "permissionDecision": "ask",
                                             "permissionDecisionReason": "x"}}),
    ("PostToolUseFailure", {"decision": "block", "reason": "x"}),
    ("PreToolUse", {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}),
    ("Stop", {"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "defer"}}),
    ("SessionStart", {"hookSpecificOutput": {"hookEventName": "SessionStart", "sessionTitle": "x"}}),
])
def test_modelled_outputs_pass(event: str, output: dict[str, object]) -> None:
    hook_surface.check_output(event, output)


@pytest.mark.parametrize(("event", "code", "stdout", "named"), [
    ("SessionEnd", -1, "", "timeout"),
    ("SubagentStart", -1, "", "timeout"),
    ("Stop", -1, "", "timeout"),
    ("PostToolUse", -1, "", "timeout"),
])
def test_an_ending_not_modelled_names_it(event: str, code: int, stdout: str, named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        hook_surface.check_ending(event, code, stdout, None)


def test_posttooluse_block_and_exit2_are_framed_as_measured() -> None:
    action = HookAction(type="command", command="bash post.sh")
    block = combine("PostToolUse", "Bash", [ActionResult(action=action, output={"decision": "block", "reason": "WHY"})])
    assert block.message == 'PostToolUse:Bash hook blocking error from command: "bash post.sh": WHY'
    exit2 = combine("PostToolUse", "Bash", [ActionResult(action=action, exit_code=2, stderr="ERR\n")])
    assert exit2.message == 'PostToolUse:Bash hook blocking error from command: "bash post.sh": [bash post.sh]: ERR\n'


def test_sessionstart_plain_stdout_is_a_success_note_naming_the_source() -> None:
    action = HookAction(type="command", command="echo hi")
    outcome = combine("SessionStart", None, [ActionResult(action=action, stdout="HELLO\n")], matched="startup")
    assert outcome.contexts == (hook_messages.hook_success("SessionStart", "startup", "HELLO"),)
    assert outcome.contexts[0] == "SessionStart:startup hook success: HELLO"


def test_userpromptsubmit_plain_stdout_is_a_success_note() -> None:
    action = HookAction(type="command", command="echo hi")
    outcome = combine("UserPromptSubmit", None, [ActionResult(action=action, stdout="HELLO\n")])
    assert outcome.contexts == ("UserPromptSubmit hook success: HELLO",)


def test_a_stop_block_adds_the_blocking_note_where_the_profile_says() -> None:
    action = HookAction(type="command", command="python3 gate.py")
    result = ActionResult(action=action, output={"decision": "block", "reason": "WHY"})
    old = combine("Stop", None, [result])
    assert (old.message, old.block_note) == ("Stop hook feedback:\nWHY", None)
    new = combine("Stop", None, [result], stop_block_note=True)
    assert (new.message, new.block_note) == ("Stop hook feedback:\nWHY",
                                             'Stop hook blocking error from command: "python3 gate.py": WHY')


def test_a_userpromptsubmit_json_block_is_the_reason_alone() -> None:
    action = HookAction(type="command", command="x")
    outcome = combine("UserPromptSubmit", None, [ActionResult(action=action, output={"decision": "block",
                                                                                     "reason": "NO"})])
    assert hook_messages.prompt_blocked_result(outcome.message or "", "Say hello.") == (
        "UserPromptSubmit operation blocked by hook:\nNO\n\nOriginal prompt: Say hello.")
    exit2 = combine("UserPromptSubmit", None, [ActionResult(action=action, exit_code=2, stderr="WHY\n")])
    assert hook_messages.prompt_blocked_result(exit2.message or "", "Say hello.") == (
        "UserPromptSubmit operation blocked by hook:\n[x]: WHY\n\n\nOriginal prompt: Say hello.")


def test_a_description_on_a_handler_is_measured_in_a_plugins_hooks_only() -> None:
    handler = [("command", ("type", "command", "description"))]
    hook_surface.check_rule("UserPromptSubmit", handler, origin="plugin:prompt-improver")
    with pytest.raises(NotModelled, match="'description'"):
        hook_surface.check_rule("UserPromptSubmit", handler, origin=".claude/settings.json")
