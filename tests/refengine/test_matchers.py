"""Hook matcher semantics (H2-H5) as measured on 2.1.252, and their version history."""

from __future__ import annotations

import pytest

from harness.refengine.hooks import matcher_hits
from harness.refengine.profiles import profile_for

P252 = profile_for("2.1.252")


def hits(matcher: str | None, subject: str, version: str = "2.1.252") -> bool:
    return matcher_hits(matcher, subject, profile=profile_for(version), debug=lambda line: None)


@pytest.mark.parametrize("matcher", [None, "", "*"])
def test_empty_and_star_match_everything(matcher: str | None) -> None:
    assert hits(matcher, "Bash") and hits(matcher, "mcp__jira__get")


def test_pipe_list_is_exact_names() -> None:
    assert hits("Write|Edit", "Write") and hits("Write|Edit", "Edit")
    assert not hits("Write|Edit", "NotebookEdit")


def test_plain_word_is_exact_not_prefix() -> None:
    assert not hits("Ba", "Bash")
    assert not hits("bash", "Bash")  # case-sensitive


def test_regex_is_searched_not_anchored() -> None:
    # Measured on 2.1.252: "as." fired for Bash, "^as" did not.
    assert hits("as.", "Bash")
    assert not hits("^as", "Bash")
    assert hits("Edit.*", "NotebookEdit")


def test_bare_mcp_server_matches_nothing_but_full_pattern_does() -> None:
    assert not hits("mcp__jira", "mcp__jira__get_issue")
    assert hits("mcp__jira__.*", "mcp__jira__get_issue")


def test_comma_list_only_from_2_1_191() -> None:
    assert hits("Bash, Read", "Read")
    assert not hits("Bash,Read", "Read", version="2.1.190")


def test_hyphen_made_a_regex_before_2_1_195() -> None:
    assert not hits("code-reviewer", "senior-code-reviewer")
    assert hits("code-reviewer", "senior-code-reviewer", version="2.1.194")


def test_invalid_regex_is_no_match_and_one_debug_line() -> None:
    lines: list[str] = []
    assert not matcher_hits("([", "Bash", profile=P252, debug=lines.append)
    assert lines == ["[DEBUG] Invalid regex pattern in hook matcher: (["]


def test_task_in_a_matcher_names_the_agent_tool() -> None:
    # Measured on 2.1.252: a PreToolUse rule with matcher Task fires for an Agent call (A4, H6).
    assert hits("Task", "Agent") and hits("Write|Task", "Agent")
