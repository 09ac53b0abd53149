"""Whole cases through the reference engine and the scripted model, on a temporary fixture."""

from __future__ import annotations

import textwrap
from pathlib import Path

from harness.engines.reference import ReferenceEngine
from tests.conftest import CaseWriter, run_in_copy

HEAD = """\
id: {id}
title: t
combination: {combination}
claims: [{claim}]
source: seed 000
documented_for: 2.1.252
"""


def case_yaml(case_id: str, combination: str, claim: str, body: str) -> str:
    return HEAD.format(id=case_id, combination=combination, claim=claim) + textwrap.dedent(body)


def test_forked_skill_returns_the_subagents_reply(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case("fork", case_yaml("fork", "skill -> subagent", "S2", """\
        steps:
          - prompt: Invoke the forktest skill now.
            turns:
              - call: {name: Skill, input: {skill: forktest}}
              - say: done
        contexts:
          forked:
            opens_with: "Reply with exactly one word: FORKED"
            turns:
              - offered: {tools: {include: [Bash, Read], exclude: [Glob]}}
                say: FORKED
        """), files={".claude/skills/forktest/SKILL.md": """\
        ---
        name: forktest
        description: Test skill.
        context: fork
        ---

        Reply with exactly one word: FORKED
        """})
    model, result, _ = run_in_copy(directory, ReferenceEngine(version="2.1.252"), tmp_path)
    skill_call = model.exchanges[0]
    assert skill_call.result == 'Skill "forktest" completed (forked execution).\n\nResult:\nFORKED'
    assert not skill_call.is_error
    fork_turn = next(e for e in model.exchanges if e.context == "forked")
    assert fork_turn.problems == []
    assert result.steps[0].result == "done" and result.steps[0].permission_denials == ()


def test_skill_hooks_block_for_the_rest_of_the_session_only(write_case: CaseWriter, tmp_path: Path) -> None:
    deny = """echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",""" \
           """"permissionDecisionReason":"BLOCKED-BY-SKILL-HOOK"}}'\n"""
    directory = write_case("hooks", case_yaml("hooks", "skill -> hook", "S4", """\
        run: {permission_mode: bypass}
        steps:
          - prompt: Run echo BEFORE, then invoke hooktest.
            turns:
              - call: {name: Bash, input: {command: echo BEFORE}}
              - call: {name: Skill, input: {skill: hooktest}}
              - call: {name: Bash, input: {command: echo AFTER}}
              - say: blocked
          - prompt: Run echo AFTER in a new session.
            session: new
            turns:
              - call: {name: Bash, input: {command: echo AFTER}}
              - say: ran
        """), files={
            ".claude/skills/hooktest/deny.sh": deny,
            ".claude/skills/hooktest/SKILL.md": """\
            ---
            description: Test skill.
            hooks:
              PreToolUse:
                - matcher: Bash
                  hooks:
                    - type: command
                      command: bash .claude/skills/hooktest/deny.sh
            ---
            Call the Bash tool with command: echo HELLO
            """})
    model, result, _ = run_in_copy(directory, ReferenceEngine(version="2.1.252"), tmp_path)
    bash = [e for e in model.exchanges if e.reply.call and e.reply.call.name == "Bash"]
    assert [b.result for b in bash] == ["BEFORE", "BLOCKED-BY-SKILL-HOOK", "AFTER"]
    assert result.steps[0].permission_denials == ({"tool_name": "Bash", "tool_input": {"command": "echo AFTER"}},)
    assert result.steps[1].permission_denials == ()


def test_subagent_allowlist_and_untrusted_agent_hooks(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case("agent", case_yaml("agent", "subagent -> tool", "A1", """\
        run: {permission_mode: bypass, trusted: false}
        steps:
          - prompt: Ask probe to run echo SUB.
            turns:
              - call: {name: Agent, input: {subagent_type: probe, prompt: Run echo SUB, description: d,
                                            run_in_background: false}}
              - say: done
        contexts:
          probe:
            opens_with: Run echo SUB
            turns:
              - offered: {tools: {exactly: [Read, Bash]}}
                call: {name: Bash, input: {command: echo SUB}}
              - say: SUB ran
        """), files={".claude/agents/probe.md": """\
        ---
        name: probe
        description: Probe.
        tools: [Read, Bash]
        hooks:
          PreToolUse:
            - matcher: Bash
              hooks:
                - {type: command, command: touch marker.txt; exit 2}
        ---
        You are a probe.
        """})
    model, _, workdir = run_in_copy(directory, ReferenceEngine(version="2.1.252"), tmp_path)
    sub_bash = next(e for e in model.exchanges if e.context == "probe" and e.reply.call)
    assert sub_bash.result == "SUB" and sub_bash.problems == []
    assert not (workdir / "marker.txt").exists()  # untrusted folder: the agent's hooks are dropped (A6)
    agent_result = model.exchanges[0].result or ""
    assert agent_result.startswith("SUB ran\nagentId: a")
