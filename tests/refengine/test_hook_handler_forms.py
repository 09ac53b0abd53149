"""A command handler's exec form (args), onFailure and a PreToolUse defer: what is modelled, and where the
reference engine abstains (hook_exec, hook_failure, hook_defer, hook_results.combine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.refengine import hook_exec, hook_failure, hook_surface, launch
from harness.refengine.errors import NotModelled
from harness.refengine.hook_results import ActionResult, combine, parse_output
from harness.refengine.hooks import HookAction, parse_hook_rules
from harness.refengine.settings import handler_identity


def _rules(handler: dict[str, object]) -> HookAction:
    rules = parse_hook_rules({"PostToolUse": [{"hooks": [handler]}]}, origin="settings.json")
    return rules[0].actions[0]


def test_args_are_read_and_name_the_handler_in_messages() -> None:
    action = _rules({"type": "command", "command": "bash", "args": [".claude/hooks/fail.sh", "ONE ARG"]})
    assert action.args == (".claude/hooks/fail.sh", "ONE ARG")
    assert action.label == "bash .claude/hooks/fail.sh ONE ARG"  # hook-option-args-exit2
    other = _rules({"type": "command", "command": "bash", "args": [".claude/hooks/other.sh"]})
    assert handler_identity(action) != handler_identity(other)  # both run (hook-option-args-events)


def test_exec_form_passes_arguments_without_a_shell(tmp_path: Path) -> None:
    done = launch.run_shell_command("printf", env={"PATH": "/usr/bin:/bin"}, cwd=tmp_path, stdin=b"", timeout=10,
                                    args=("%s|", "$HOME", "a b"), stand_in=launch.EXEC_STAND_IN)
    assert done.returncode == 0 and done.stdout == b"$HOME|a b|"


@pytest.mark.parametrize(("event", "value", "from_settings", "named"), [
    ("PreToolUse", "not a list", True, "args: 'not a list'"),
    ("PreToolUse", [], True, "args: \\[\\]"),
    ("PreToolUse", ["x", 1], True, "only a list of strings"),
    ("Notification", ["x"], True, "'args' on Notification"),
    ("PreToolUse", ["x"], False, "outside a settings file"),
])
def test_args_not_measured_abstain(event: str, value: object, from_settings: bool, named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        hook_exec.check(event, "bash", value, from_settings=from_settings, where="(here)")


def test_args_with_a_program_not_found_abstain() -> None:
    with pytest.raises(NotModelled, match="not found"):
        hook_exec.check("PreToolUse", "no-such-program-anywhere", ["x"], from_settings=True, where="(here)")


def test_on_failure_is_read_only_for_a_handler_that_exits_0() -> None:
    hook_failure.check_handler("PostToolUse", {"onFailure": "block"}, from_settings=True, where="(here)")
    hook_failure.check_ending("PostToolUse", {"onFailure": "block"}, "exit 0")
    for ending in ("exit other", "exit 2", "timeout", "exit 0 plain stdout"):
        with pytest.raises(NotModelled, match=ending):
            hook_failure.check_ending("PreToolUse", {"onFailure": "block"}, ending)
    hook_failure.check_ending("PreToolUse", {}, "exit other")  # without the option: hook_surface decides


@pytest.mark.parametrize(("options", "named"), [
    ({"onFailure": "continue"}, "onFailure: 'continue'"),
    ({"onFailure": "block", "async": True}, "async handler"),
])
def test_on_failure_not_measured_abstains(options: dict[str, object], named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        hook_failure.check_handler("PostToolUse", options, from_settings=True, where="(here)")


def test_the_options_are_in_the_hook_table() -> None:
    assert {"args", "onFailure"} <= set(hook_surface.HANDLER_OPTIONS["command"])


def _answer(decision: str) -> ActionResult:
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                             "permissionDecisionReason": "R"}})
    return ActionResult(action=HookAction(type="command", command=f"bash {decision}.sh"), stdout=out,
                        output=parse_output(out))


def test_a_defer_alone_is_the_outcome() -> None:
    outcome = combine("PreToolUse", "Read", [_answer("defer")])
    assert outcome.permission == "defer" and not outcome.blocked


@pytest.mark.parametrize("other", ["deny", "allow", "ask", "defer"])
def test_a_defer_beside_another_decision_abstains(other: str) -> None:
    with pytest.raises(NotModelled, match="defer beside"):
        combine("PreToolUse", "Read", [_answer("defer"), _answer(other)])


def test_a_defer_on_another_event_decides_nothing() -> None:
    out = json.dumps({"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "defer"}})
    outcome = combine("Stop", None, [ActionResult(action=HookAction(type="command", command="x"), stdout=out,
                                                  output=parse_output(out))])
    assert outcome.permission is None and not outcome.blocked and not outcome.stop_turn
