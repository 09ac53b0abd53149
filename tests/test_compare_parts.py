"""``compare.transcript_changes`` sees every part of a transcript, not only exchanges, prompts and files.

The transcripts are committed snapshots; where no two committed snapshots differ in a part, one side is a
copy with that part changed as a run would change it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from harness.compare import transcript_changes

SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots"


def _snapshot(engine: str, case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SNAPSHOTS / engine / f"{case}.json").read_text())
    return data


def _kinds(old: dict[str, Any], new: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {c.where: (c.old, c.new) for c in transcript_changes(old, new)}


def test_a_script_error_on_one_version_only_is_a_change() -> None:
    # committed: the real engine opens a conversation no context scripts; the reference engine does not
    old = _snapshot("claude-2.1.332", "hook-subagent-agent-non-tool-event")
    new = _snapshot("reference", "hook-subagent-agent-non-tool-event")
    assert "script_error" in old and "script_error" not in new
    found = _kinds(old, new)
    assert found["script_error"] == (old["script_error"], "(absent)")


def test_a_race_the_reference_names_is_a_change() -> None:
    new = _snapshot("reference", "hook-tool-parallel-blocks-race")
    old = _snapshot("claude-2.1.332", "hook-tool-parallel-blocks-race")
    assert "races" in new and "races" not in old
    assert any(where.startswith("races") for where in _kinds(old, new))


def test_a_side_call_count_that_changes_is_named_by_its_side_call() -> None:
    old = _snapshot("claude-2.1.252", "hook-option-prompt-handler")
    (name,) = old["side_calls"]
    new = copy.deepcopy(old)
    new["side_calls"][name] = old["side_calls"][name] + 1
    assert _kinds(old, new) == {f"side_calls.{name}": (str(old["side_calls"][name]), str(new["side_calls"][name]))}


def test_a_stderr_line_that_changes_is_a_change() -> None:
    # committed: the engine printed none of the lines the case looks for; a version that prints one differs
    old = _snapshot("claude-2.1.332", "permission-invalid-rule-stderr")
    assert old["stderr"] == []
    new = {**copy.deepcopy(old), "stderr": ["Invalid permission rule Bash(( was skipped"]}
    assert _kinds(old, new) == {"stderr[0]": ("(absent)", "Invalid permission rule Bash(( was skipped")}


def test_the_names_of_the_run_are_not_changes() -> None:
    old = _snapshot("claude-2.1.252", "hook-option-prompt-handler")
    new = {**copy.deepcopy(old), "engine": "claude@9.9.9"}
    assert transcript_changes(old, new) == []
