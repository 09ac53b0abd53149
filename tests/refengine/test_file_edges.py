"""Hook rewrites the tool's schema refuses, and Edit rules with a path against Write calls (measured on 2.1.252 to
2.1.332: hook-pretooluse-updated-input-invalid, rule-edit-path-write-*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.refengine.edit_rules import cannot_bind, write_decision
from harness.refengine.errors import NotModelled
from harness.refengine.hook_rewrite import refusal
from harness.refengine.permission_request import Request
from harness.refengine.permission_rules import RuleSet
from harness.refengine.profiles import profile_for

HEAD = ("PreToolUse hook for Write returned updatedInput that failed schema validation: Write failed due to the "
        "following")


def test_a_rewrite_missing_every_key_lists_each_issue_per_version() -> None:
    rewrite = {"command": "echo UPDATED"}
    assert refusal("Write", rewrite, profile_for("2.1.252")) == (
        f"{HEAD} issues:\nThe required parameter `file_path` is missing\nThe required parameter `content` is missing")
    assert refusal("Write", rewrite, profile_for("2.1.278")) == (
        f"{HEAD} issues:\nThe parameter `file_path` type is expected as `string` but provided as `unknown`\n"
        "The parameter `content` type is expected as `string` but provided as `unknown`")
    assert str(refusal("Write", rewrite, profile_for("2.1.332"))).endswith(
        "\nThe tool input from the model was valid; the hook's rewrite of it was not.")


def test_one_issue_is_singular_and_an_unknown_key_is_ignored() -> None:
    assert refusal("Write", {"file_path": "c.txt", "content": 5}, profile_for("2.1.257")) == (
        f"{HEAD} issue:\nThe parameter `content` type is expected as `string` but provided as `number`")
    assert refusal("Write", {"file_path": "d.txt", "content": "D", "extra": 1}, profile_for("2.1.332")) is None


def test_unmeasured_rewrites_are_not_modelled() -> None:
    with pytest.raises(NotModelled):
        refusal("Bash", {"cmd": "x"}, profile_for("2.1.332"))
    with pytest.raises(NotModelled):
        refusal("Write", {"content": 5}, profile_for("2.1.332"))  # one missing and one mistyped


def test_a_folder_rule_cannot_bind_a_file_outside_such_a_folder() -> None:
    assert cannot_bind("src/**", Path("/w/out.txt")) and cannot_bind("/src/**", Path("/w/out.txt"))
    assert not cannot_bind("/src/**", Path("/w/src/new.txt")) and not cannot_bind("*.txt", Path("/w/out.txt"))
    assert cannot_bind("out*.txt", Path("/w/src/new2.txt")) and not cannot_bind("out*.txt", Path("/w/out1.txt"))
    assert not cannot_bind("*.txt", Path("/w/src/new2.txt")) and not cannot_bind("src/*.txt", Path("/w/out.txt"))


def _write(tmp_path: Path, mode: str, **lists: list[str]) -> Request:
    rules = RuleSet.from_lists(allow=lists.get("allow", []), deny=lists.get("deny", []), ask=lists.get("ask", []))
    return Request(tool="Write", tool_input={"file_path": "src/new.txt", "content": "S"},
                   mode=mode, workdir=tmp_path, rules=rules)  # type: ignore[arg-type]


def test_edit_rules_govern_a_write_where_measured(tmp_path: Path) -> None:
    assert write_decision(_write(tmp_path, "default", allow=["Edit(src/**)"])) is not None
    asked = write_decision(_write(tmp_path, "acceptEdits", ask=["Edit(src/**)"]))
    assert asked is not None and asked.behaviour == "ask" and "requested permissions to write to" in asked.message
    with pytest.raises(NotModelled):
        write_decision(_write(tmp_path, "default", ask=["Edit(src/**)"]))
    with pytest.raises(NotModelled):
        write_decision(_write(tmp_path, "plan", allow=["Edit(src/**)"]))
    with pytest.raises(NotModelled):
        write_decision(_write(tmp_path, "default", allow=["Edit(src/**)", "Write"]))
    # a Write rule that cannot bind the call leaves it to the Edit rule (explorer seed 20261202, x20261202-0026)
    assert write_decision(_write(tmp_path, "default", allow=["Edit(src/**)"], ask=["Write(out*.txt)"])) is not None
