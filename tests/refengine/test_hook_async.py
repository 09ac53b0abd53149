"""``async: true``: an async handler's answer decides nothing where hook-option-async-outputs measured it, and
whatever reaches a later request (additionalContext, systemMessage) or may outlive the run is not-modelled."""

from __future__ import annotations

import subprocess

import pytest

from harness.explore.vocabulary import hook_output
from harness.refengine import hook_async, hook_surface
from harness.refengine.errors import NotModelled
from harness.refengine.hook_results import parse_output

#: The explorer's answers (harness/explore/vocabulary.py) that hook-option-async-outputs and -context measured.
IGNORED = ("marker", "exit2", "exit1", "stdout", "deny", "allow", "ask", "updated-allow", "updated-alone", "block",
           "continue-false", "suppress")
LATE = ("context", "system-message")


def _answer(event: str, kind: str) -> tuple[str, list[str]]:
    """How the explorer's handler answering ``kind`` ends, and its output's fields, in hook_surface's names."""
    done = subprocess.run(["bash", "-c", hook_output(event, kind, 0)], capture_output=True, text=True, check=False)
    output = parse_output(done.stdout)
    return hook_surface.ending(done.returncode, done.stdout, output), hook_surface.output_fields(event, output or {})


@pytest.mark.parametrize("event", sorted(hook_async.EVENTS))
@pytest.mark.parametrize("kind", IGNORED)
def test_measured_answers_change_nothing(event: str, kind: str) -> None:
    ending, fields = _answer(event, kind)
    hook_async.check_answer(event, timed_out=False, ending=ending, fields=fields)


@pytest.mark.parametrize("event", sorted(hook_async.EVENTS))
@pytest.mark.parametrize("kind", LATE)
def test_text_for_a_later_request_is_not_modelled(event: str, kind: str) -> None:
    ending, fields = _answer(event, kind)
    with pytest.raises(NotModelled, match="a race"):
        hook_async.check_answer(event, timed_out=False, ending=ending, fields=fields)


def test_a_slow_handler_or_an_unmeasured_field_is_not_modelled() -> None:
    with pytest.raises(NotModelled, match="still running"):
        hook_async.check_answer("PostToolUse", timed_out=True, ending="timeout", fields=[])
    with pytest.raises(NotModelled, match="updatedToolOutput"):
        hook_async.check_answer("PostToolUse", timed_out=False, ending="exit 0",
                                fields=["hookSpecificOutput.updatedToolOutput"])


def test_a_handler_started_after_the_process_last_tool_call_began_is_not_modelled() -> None:
    """x20261202-0030: a PostToolUseFailure handler of the run's last call did not write before the process ended."""
    unsettled: list[str] = []
    hook_async.started(unsettled, "PostToolUseFailure", "(PostToolUseFailure, settings.json)")
    with pytest.raises(NotModelled, match=r"PostToolUseFailure .*after the process's last tool call began"):
        hook_async.check_settled(unsettled)


def test_a_handler_followed_by_another_tool_call_is_settled() -> None:
    unsettled: list[str] = []
    hook_async.started(unsettled, "PostToolUse", "(PostToolUse, settings.json)")
    hook_async.settle(unsettled)  # the next tool call begins
    hook_async.check_settled(unsettled)
