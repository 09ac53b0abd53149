"""Handler options ``if``, ``once``, ``shell`` and ``async``: the reference engine answers only as the
hook-option-* cases measured, and says not-modelled for any other value, event, origin or call."""

from __future__ import annotations

from typing import Any

import pytest

from harness.refengine.errors import NotModelled
from harness.refengine.hook_options import check, condition_holds

ECHO = "Bash(echo *)"


def holds(event: str, tool: str, command: str = "", *, ran: str | None = None, context: str = "main") -> bool:
    tool_input: dict[str, Any] = {"command": command} if tool == "Bash" else {"file_path": "notes.txt"}
    return condition_holds(event, ECHO, tool=tool, tool_input=tool_input,
                           ran_input={"command": ran} if ran is not None else tool_input, context=context)


@pytest.mark.parametrize(("command", "expected"), [
    ("echo M1", True), ("git status --short", False), ("echo VAR=$EXPLORE_VAR", True),
    ("echo CHANGED >> notes.txt", True), ("git init -q && echo INIT", True), ("git add notes.txt && git push", False),
])
def test_if_on_bash_calls_as_measured(command: str, expected: bool) -> None:
    # hook-option-if-events on every pinned version: the same answer on PreToolUse and PostToolUse
    assert holds("PreToolUse", "Bash", command) is expected
    assert holds("PostToolUse", "Bash", command) is expected


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop",
                                   "SessionEnd"])
def test_if_never_runs_a_handler_on_events_without_a_tool(event: str) -> None:
    assert condition_holds(event, ECHO, tool=None, tool_input=None, ran_input=None, context="main") is False


def test_if_on_other_tools_failures_and_subagents() -> None:
    assert holds("PreToolUse", "Write") is False
    assert holds("PreToolUse", "Bash", "echo SUB", context="subagent") is True  # hook-option-if-subagent
    assert holds("PostToolUseFailure", "Bash", "git status --short") is False


@pytest.mark.parametrize(("event", "tool", "command", "ran", "context"), [
    ("PreToolUse", "WebFetch", "", None, "main"),  # a tool no case measures
    ("PreToolUse", "Bash", "echo A | cat", None, "main"),  # a pipe: only plain a && b is measured
    ("PreToolUse", "Bash", "echo SUB", None, "fork"),  # a forked skill's call
    ("PostToolUseFailure", "Bash", "echo A", None, "main"),  # a matching command that failed
    ("PostToolUse", "Bash", "git status --short", "echo UPDATED-1", "main"),  # updatedInput changes the answer
])
def test_if_abstains_where_unmeasured(event: str, tool: str, command: str, ran: str | None, context: str) -> None:
    with pytest.raises(NotModelled):
        holds(event, tool, command, ran=ran, context=context)


@pytest.mark.parametrize(("event", "options", "from_settings"), [
    ("PreToolUse", {"if": "Edit(src/**)"}, True),
    ("PreToolUse", {"if": ECHO}, False),
    ("Notification", {"once": True}, True),
    ("Stop", {"shell": "powershell"}, True),
    ("Stop", {"once": False}, True),
    ("Stop", {"async": True}, True),  # the process may end before it writes (hook-option-async-stop-not-awaited)
    ("SessionEnd", {"async": True}, True),
    ("PostToolUse", {"async": True}, False),  # a skill's or agent's handler: unmeasured
    ("PostToolUse", {"async": False}, True),
    ("Notification", {"async": True}, True),
])
def test_check_abstains_on_unmeasured_values_events_and_origins(event: str, options: dict[str, Any],
                                                                from_settings: bool) -> None:
    with pytest.raises(NotModelled):
        check(event, options, from_settings=from_settings, origin="o")


def test_check_lets_measured_options_through() -> None:
    check("Stop", {"once": True, "shell": "bash", "if": ECHO}, from_settings=True, origin="o")
    check("PostToolUse", {"async": True, "if": ECHO}, from_settings=True, origin="o")  # hook-option-async-outputs
