"""Permission decisions in print mode (E2) and bypass, with skill layers (S1, S3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.refengine import modes
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import Decision, Mode, Request
from harness.refengine.permission_rules import Rule, RuleSet, bash_pattern_matches
from harness.refengine.permissions import decide, mcp_removed_by_deny

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


def call(tool: str, tool_input: dict[str, str], *, mode: Mode = "default", **lists: tuple[str, ...]) -> Decision:
    rules = RuleSet.from_lists(allow=lists.get("allow", ()), deny=lists.get("deny", ()), ask=lists.get("ask", ()))
    return decide(Request(tool=tool, tool_input=tool_input, mode=mode, workdir=WORKDIR, rules=rules))


def test_a_bash_deny_rule_binds_a_part_of_a_compound_of_plain_words() -> None:
    # rule-bash-compound-deny, rule-bash-compound-git-push: the refusal names the whole command.
    denied = call("Bash", {"command": "echo staged && git push origin main"}, mode="bypass", deny=("Bash(git push:*)",))
    assert denied == Decision(
        behaviour="deny",
        message="Permission to use Bash with command echo staged && git push origin main has been denied.")
    assert call("Bash", {"command": "echo staged && echo git push"}, mode="bypass",
                deny=("Bash(git push:*)",)).behaviour == "allow"
    # rule-bash-prefix-space: "rm *" is a word prefix, so "echo rm keep.txt" is not bound.
    assert call("Bash", {"command": "rm keep.txt"}, mode="bypass", deny=("Bash(rm *)",)).behaviour == "deny"
    assert call("Bash", {"command": "echo rm keep.txt"}, mode="bypass", deny=("Bash(rm *)",)).behaviour == "allow"


@pytest.mark.parametrize("command", ["echo a; rm x", "echo a | rm x", "echo 'a' && rm x", "echo a > f && rm x"])
def test_other_compound_shapes_against_a_bash_deny_rule_are_not_modelled(command: str) -> None:
    with pytest.raises(NotModelled):
        call("Bash", {"command": command}, mode="bypass", deny=("Bash(rm:*)",))


def test_a_compound_against_a_bash_ask_rule_is_not_modelled() -> None:
    with pytest.raises(NotModelled):
        call("Bash", {"command": "echo a && touch x"}, mode="bypass", ask=("Bash(touch *)",))


def test_webfetch_domain_rules_name_the_host_and_stay_silent_where_unmeasured() -> None:
    deny = ("WebFetch(domain:*.example.com)",)
    assert call("WebFetch", {"url": "https://docs.example.com/", "prompt": "p"}, mode="bypass", deny=deny) == Decision(
        behaviour="deny", message="WebFetch denied access to domain:docs.example.com.")
    local = call("WebFetch", {"url": "http://127.0.0.1:9/", "prompt": "p"}, mode="bypass", deny=deny)
    assert local.behaviour == "allow"
    with pytest.raises(NotModelled):  # whether *.example.com binds example.com itself is not measured
        call("WebFetch", {"url": "https://example.com/", "prompt": "p"}, mode="bypass", deny=deny)
    with pytest.raises(NotModelled):  # nor whether example.com binds its subdomains
        call("WebFetch", {"url": "https://a.example.com/", "prompt": "p"}, mode="bypass",
             deny=("WebFetch(domain:example.com)",))
    with pytest.raises(NotModelled):  # only deny is measured
        call("WebFetch", {"url": "https://example.com/", "prompt": "p"}, allow=("WebFetch(domain:example.com)",))


def test_a_websearch_rule_with_a_query_binds_no_search() -> None:
    # rule-websearch-query: WebSearch(claude ai) in deny lets a search for "claude ai" run.
    assert call("WebSearch", {"query": "claude ai"}, mode="bypass", deny=("WebSearch(claude ai)",)).behaviour == "allow"


@pytest.mark.parametrize("rule", ["mcp__marker__*", "mcp__marker__rec*", "mcp__marker__record"])
def test_mcp_allow_rules_pre_approve_the_tools_they_name(rule: str) -> None:
    assert call("mcp__marker__record", {"text": "x"}, allow=(rule,)).behaviour == "allow"
    assert call("mcp__other__record", {"text": "x"}, allow=(rule,)) == Decision(
        behaviour="ask",
        message="Claude requested permissions to use mcp__other__record, but you haven't granted it yet.")


def test_mcp_prefix_rules_cover_only_their_prefix() -> None:
    assert Rule.parse("mcp__marker__rec*").covers_tool("mcp__marker__record")
    assert not Rule.parse("mcp__marker__rec*").covers_tool("mcp__marker__note")


def test_a_bare_mcp_server_deny_removes_its_tools_and_other_mcp_rules_are_not_modelled() -> None:
    rules = RuleSet.from_lists(allow=(), deny=("mcp__marker",), ask=())
    assert mcp_removed_by_deny(rules, "mcp__marker__note")
    assert not mcp_removed_by_deny(rules, "mcp__other__note")
    for lists in ({"deny": ("mcp__marker__record",)}, {"ask": ("mcp__marker__*",)}, {"allow": ("mcp__marker",)}):
        with pytest.raises(NotModelled):
            call("mcp__marker__record", {"text": "x"}, **lists)


def test_a_read_ask_rule_with_a_path_refuses_in_default_mode_only() -> None:
    # rule-read-path-ask (2.1.252 to 2.1.332): the text of a Read outside the working copy
    ask = ("Read(src/**)",)
    assert call("Read", {"file_path": "src/code.py"}, ask=ask) == Decision(
        behaviour="ask",
        message="Claude requested permissions to read from /work/copy/src/code.py, but you haven't granted it yet.")
    assert call("Read", {"file_path": "notes.txt"}, ask=ask).behaviour == "allow"
    with pytest.raises(NotModelled, match="bypass mode"):
        call("Read", {"file_path": "src/code.py"}, mode="bypass", ask=ask)
    with pytest.raises(NotModelled, match="allow rule"):
        call("Read", {"file_path": "src/code.py"}, allow=ask)


def test_edit_rules_with_a_path_bind_a_write_and_allow_an_edit() -> None:
    # rule-edit-path-write-deny (2.1.252 to 2.1.332): the input validation refuses it first; decide agrees
    assert call("Write", {"file_path": "src/new.py", "content": ""}, mode="bypass",
                deny=("Edit(src/**)",)).behaviour == "deny"
    # rule-edit-root-slash-local-allow: an Edit allow rule with a path lets the Edit run in default mode
    edit = {"file_path": "src/app.py", "old_string": "a", "new_string": "b"}
    assert call("Edit", edit, allow=("Edit(src/**)",)).behaviour == "allow"
    assert call("Edit", {**edit, "file_path": "top.py"}, allow=("Edit(src/**)",)).behaviour == "ask"
    with pytest.raises(NotModelled):
        call("Edit", edit, mode="dontAsk", allow=("Edit(src/**)",))


def moded(tool: str, tool_input: dict[str, object], mode: Mode, *, rules: RuleSet | None = None) -> Decision:
    request = Request(tool=tool, tool_input=tool_input, mode=mode, workdir=WORKDIR, rules=rules or RuleSet())
    return modes.adjust(decide(request), request, refusals=0)


def test_read_outside_the_working_copy_asks_in_default_mode() -> None:
    assert moded("Read", {"file_path": "notes.txt"}, "default").behaviour == "allow"
    assert moded("Read", {"file_path": "/etc/hostname"}, "default") == Decision(
        behaviour="ask",
        message="Claude requested permissions to read from /etc/hostname, but you haven't granted it yet.")


def test_accept_edits_writes_inside_the_working_copy_only() -> None:
    assert moded("Write", {"file_path": "out.txt", "content": "x"}, "acceptEdits").behaviour == "allow"
    assert moded("Write", {"file_path": "/elsewhere/out.txt", "content": "x"}, "acceptEdits").behaviour == "ask"
    for command in ("mkdir made", "touch t.txt", "echo X > r.txt", "echo X >> notes.txt"):
        assert moded("Bash", {"command": command}, "acceptEdits").behaviour == "allow", command
    assert moded("Bash", {"command": "python3 -c pass"}, "acceptEdits").message == "This command requires approval"
    with pytest.raises(NotModelled, match="rm command"):
        moded("Bash", {"command": "rm notes.txt"}, "acceptEdits")
    with pytest.raises(NotModelled, match="outside the working copy"):
        moded("Bash", {"command": "touch /elsewhere/t.txt"}, "acceptEdits")


def test_dont_ask_refuses_what_default_mode_asks_about() -> None:
    refused = moded("Write", {"file_path": "out.txt", "content": "x"}, "dontAsk")
    assert refused.behaviour == "deny"
    assert refused.message.startswith("Permission to use Write has been denied because Claude Code is running in "
                                      "don't ask mode.")
    assert moded("Bash", {"command": "echo hi"}, "dontAsk").behaviour == "allow"
    rules = RuleSet.from_lists(allow=["Bash(python3 *)"], deny=[], ask=["Bash(echo ASKED)"])
    assert moded("Bash", {"command": "python3 -c pass"}, "dontAsk", rules=rules).behaviour == "allow"
    assert moded("Bash", {"command": "echo ASKED"}, "dontAsk", rules=rules).message.startswith(
        "Permission to use Bash has been denied because")
    assert moded("Bash", {"command": "echo ASKED"}, "acceptEdits", rules=rules).behaviour == "ask"
    with pytest.raises(NotModelled, match="plan mode with a permission rule"):
        moded("Bash", {"command": "python3 -c pass"}, "plan", rules=rules)


def test_plan_reads_everywhere_and_refuses_writes_and_mcp_tools() -> None:
    assert moded("Read", {"file_path": "/etc/hostname"}, "plan").behaviour == "allow"
    assert moded("Edit", {"file_path": "notes.txt", "old_string": "a", "new_string": "b"}, "plan") == Decision(
        behaviour="deny", message="Cannot write to /work/copy/notes.txt while in plan mode.")
    assert moded("mcp__srv__ping", {}, "plan").message == "Cannot call mcp__srv__ping while in plan mode."
    for tool, tool_input in (("Bash", {"command": "python3 -c pass"}), ("Agent", {"prompt": "p"})):
        with pytest.raises(NotModelled, match="auto-mode classifier"):
            moded(tool, tool_input, "plan")

def test_an_agent_type_deny_rule_is_not_modelled() -> None:
    # claude names the rule and its settings source (cc-harness explore seed 22061, x22061-0154); unmeasured here
    rules = RuleSet(deny=(Rule.parse("Agent(probe)"),))
    with pytest.raises(NotModelled, match="Agent"):
        decide(Request(tool="Agent", tool_input={"subagent_type": "probe", "prompt": "p", "description": "d"},
                       mode="bypass", workdir=WORKDIR, rules=rules))


def test_a_prefix_allow_rule_leaves_an_output_redirection_to_the_path_check() -> None:
    # rule-bash-redirect-allow-prefix: refused as without the rule; /dev/null stays allowed; a bare Bash rule runs it
    rules = RuleSet(allow=(Rule.parse("Bash(echo *)"),))
    refused = bash("echo CHANGED >> notes.txt", rules=rules)
    assert refused.behaviour == "ask" and refused.by_tool and refused.message.startswith("Output redirection to")
    assert bash("echo QUIET > /dev/null", rules=rules).behaviour == "allow"
    assert bash("echo CHANGED >> notes.txt", rules=RuleSet(allow=(Rule.parse("Bash"),))).behaviour == "allow"


def test_unmeasured_allow_rules_against_an_output_redirection_are_not_modelled() -> None:
    with pytest.raises(NotModelled, match="other than Bash"):
        bash("echo CHANGED >> notes.txt", rules=RuleSet(allow=(Rule.parse("Bash(echo:*)"),)))
    with pytest.raises(NotModelled, match="allowed-tools"):
        bash("echo CHANGED >> notes.txt", granted=(Rule.parse("Bash(echo *)"),))


def test_an_ask_rule_against_a_command_that_writes_a_file() -> None:
    # rule-bash-redirect-ask-bare: a bare rule gives the path check's text; -ask-prefix: a prefix rule its own
    bare = RuleSet(ask=(Rule.parse("Bash"),))
    assert bash("echo CHANGED >> notes.txt", rules=bare).message.startswith("Output redirection to")
    assert bash("echo PLAIN", rules=bare).message == "Claude requested permissions to use Bash, but you haven't " \
                                                     "granted it yet."
    prefix = RuleSet(ask=(Rule.parse("Bash(echo *)"),))
    assert bash("echo CHANGED >> notes.txt", rules=prefix).message.startswith("Claude requested permissions")
