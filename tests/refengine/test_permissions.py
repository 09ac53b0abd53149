"""Permission decisions in print mode (E2) and bypass, with skill layers (S1, S3)."""

from __future__ import annotations

from pathlib import Path

from harness.refengine.permissions import Decision, Request, Rule, RuleSet, bash_pattern_matches, decide

WORKDIR = Path("/work/copy")


def bash(command: str, *, rules: RuleSet | None = None, granted: tuple[Rule, ...] = ()) -> Decision:
    return decide(Request(tool="Bash", tool_input={"command": command}, mode="default", workdir=WORKDIR,
                          rules=rules or RuleSet(), granted=granted))


def test_read_only_bash_runs_without_asking() -> None:
    assert bash("echo HELLO").behaviour == "allow"
    assert bash("cat a.txt | head -1").behaviour == "allow"


def test_file_changing_bash_is_refused_with_the_measured_path_message() -> None:
    decision = bash("touch x")
    assert decision.behaviour == "ask"
    assert decision.message == (
        "touch in '/work/copy/x' was blocked. For security, Claude Code may only create or modify files in "
        "the allowed working directories for this session: '/work/copy'."
    )


def test_other_programs_require_approval_and_compounds_name_the_part() -> None:
    assert bash("python3 -c 'print(1)'").message == "This command requires approval"
    assert bash("echo ERR >&2; exit 3").message == (
        "This Bash command contains multiple operations. The following part requires approval: exit 3"
    )


def test_allow_rule_and_skill_grant_pre_approve() -> None:
    assert bash("touch x", rules=RuleSet(allow=(Rule.parse("Bash(touch:*)"),))).behaviour == "allow"
    assert bash("touch x", granted=(Rule.parse("Bash"),)).behaviour == "allow"


def test_bypass_allows_but_not_a_skill_withholding() -> None:
    bypass = Request(tool="Bash", tool_input={"command": "touch x"}, mode="bypass", workdir=WORKDIR, rules=RuleSet())
    assert decide(bypass).behaviour == "allow"
    withheld = Request(tool="Bash", tool_input={"command": "echo hi"}, mode="bypass", workdir=WORKDIR,
                       rules=RuleSet(), withheld=frozenset({"Bash"}))
    assert decide(withheld) == Decision(behaviour="deny", message="Permission to use Bash has been denied.")


def test_write_asks_with_the_absolute_path() -> None:
    write = Request(tool="Write", tool_input={"file_path": "b.txt", "content": "x"}, mode="default",
                    workdir=WORKDIR, rules=RuleSet())
    assert decide(write).message == (
        "Claude requested permissions to write to /work/copy/b.txt, but you haven't granted it yet."
    )


def test_skill_needing_approval_is_execute_skill() -> None:
    def skill(needs: bool) -> Decision:
        return decide(Request(tool="Skill", tool_input={"skill": "tooltest"}, mode="default", workdir=WORKDIR,
                              rules=RuleSet(), skill_needs_approval=needs))

    assert skill(False).behaviour == "allow"
    assert skill(True) == Decision(behaviour="ask", message="Execute skill: tooltest")


def test_task_rules_name_the_agent_tool_and_mcp_server_rules_cover_its_tools() -> None:
    assert Rule.parse("Task").tool == "Agent"
    assert Rule.parse("mcp__marker").covers_tool("mcp__marker__record")
    assert Rule.parse("mcp__marker__*").covers_tool("mcp__marker__record")
    assert not Rule.parse("mcp__marker").covers_tool("mcp__other__record")


def test_bash_rule_patterns() -> None:
    assert bash_pattern_matches("git:*", "git status")
    assert bash_pattern_matches("ls *", "ls")
    assert not bash_pattern_matches("ls *", "lsof")
