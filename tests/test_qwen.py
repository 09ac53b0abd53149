"""Qwen Code as an engine (``qwen@V``): the case is translated into Qwen Code's folders and tool names from one
table each, what cannot be translated is not-modelled with the reason, and committed cases of each part run on
the real agent, installed from npm (with its Node.js 22) into the engine cache on first use."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines.qwen import TOOLS, qwen_settings, translated_fixture, translated_markdown, unexpressible
from harness.model_request import ModelRequest
from tests.conftest import CaseWriter, run_committed_cases

#: The Qwen Code release the suite runs.
QWEN = "0.24.4"
#: One committed case per part a team's setup has: a skill, a subagent, a hook, a built-in tool.
ONE_PER_PART = ["engine-skill-listed", "skill-subagent-agent-file", "tool-hook-pretooluse-deny", "tool-tool-no-call"]


def test_the_scripted_model_sees_claude_codes_names_and_the_agent_gets_its_own() -> None:
    seen: list[ModelRequest] = []

    def scripted(request: ModelRequest) -> list[dict[str, object]]:
        seen.append(request)
        return [
            {"type": "text", "text": "ok"},
            {"type": "tool_use", "id": "t2", "name": "Bash", "input": {}},
            {"type": "tool_use", "id": "t3", "name": "Read", "input": {"file_path": "notes.txt"}},
        ]

    request = ModelRequest(
        system="",
        messages=(
            {"role": "user", "content": "Go."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read_file", "input": {}}]},
        ),
        tools=("run_shell_command", "read_file", "get_goal"),
    )
    sent = TOOLS.wrap(scripted, workdir=Path("/w"))(request)
    assert seen[0].tools == ("Bash", "Read", "get_goal")  # a tool only Qwen Code has keeps its own name
    assert seen[0].messages[1]["content"][0]["name"] == "Read"
    assert sent[1]["name"] == "run_shell_command"
    assert sent[0] == {"type": "text", "text": "ok"}
    # Qwen Code's file tools refuse a relative path that Claude Code's resolve against the working folder
    assert sent[2] == {"type": "tool_use", "id": "t3", "name": "read_file", "input": {"file_path": "/w/notes.txt"}}


def test_the_tools_a_skill_or_agent_lists_are_named_as_qwen_code_names_them() -> None:
    text = "---\nname: helper\ntools: Bash(git *), Read\ndisallowedTools: [Write]\n---\nBody\n"
    front = translated_markdown(text).split("---")[1]
    assert "tools: run_shell_command(git *), read_file" in front
    assert "- write_file" in front
    assert translated_markdown(text).endswith("---\nBody\n")
    assert translated_markdown("no frontmatter\n") == "no frontmatter\n"


def test_hooks_keep_claude_codes_schema_with_matchers_in_qwen_codes_tool_names() -> None:
    claude = {
        "hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "x"}]}]},
        "permissions": {"deny": ["Bash(git push *)"]},
    }
    settings = qwen_settings(claude)
    assert settings["hooks"]["PreToolUse"][0]["matcher"] == "run_shell_command|write_file"
    assert settings["hooks"]["PreToolUse"][0]["hooks"] == claude["hooks"]["PreToolUse"][0]["hooks"]
    assert settings["permissions"] == {"deny": ["Bash(git push *)"]}  # Qwen Code reads Claude Code's rule syntax


def test_the_translated_setup_is_laid_in_for_the_run_and_taken_away_after_it(tmp_path: Path) -> None:
    (tmp_path / ".claude" / "skills" / "greet").mkdir(parents=True)
    (tmp_path / ".claude" / "skills" / "greet" / "SKILL.md").write_text("---\nname: greet\n---\nHi\n")
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps({"hooks": {}}))
    with translated_fixture(tmp_path):
        assert (tmp_path / ".qwen" / "skills" / "greet" / "SKILL.md").read_text() == "---\nname: greet\n---\nHi\n"
        assert json.loads((tmp_path / ".qwen" / "settings.json").read_text()) == {"hooks": {}}
    assert not (tmp_path / ".qwen").exists()


def test_what_the_tables_cannot_say_is_named_not_dropped(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case(
        "not-sayable",
        """\
        id: not-sayable
        title: t
        run: {permission_mode: dontAsk, flags: {plugin_dirs: [p]}}
        steps:
          - prompt: Go.
            turns:
              - call: {name: TodoWrite, input: {todos: []}}
          - prompt: Again.
            session: resume
            turns: [{say: done}]
        """,
        files={".claude/settings.json": '{"model": "x", "hooks": {}}', ".mcp.json": "{}"},
    )
    case = load_case(directory)
    home = tmp_path / "home"
    home.mkdir()
    reasons = " | ".join(unexpressible(case, directory, home))
    for said in ("2 prompts", "permission mode dontAsk", "plugin_dirs", "settings Qwen Code does not share (model)",
                 "MCP servers", "calls to TodoWrite"):
        assert said in reasons


@pytest.mark.xdist_group("qwen")
@pytest.mark.skipif(shutil.which("npm") is None, reason="Qwen Code is installed with npm")
def test_committed_cases_of_each_part_run_on_qwen_code(tmp_path: Path) -> None:
    run_committed_cases(f"qwen@{QWEN}", ONE_PER_PART, tmp_path / "run.jsonl")
