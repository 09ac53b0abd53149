"""Codex as an engine (``codex@V``): the case's setup laid into Codex's folders, ``Bash{command}`` translated to
``exec_command{cmd}`` at the fake API (which speaks the Responses API to it), its JSON events read as stream-json
through a driver, what the adapter cannot say not-modelled with the reason, and committed cases run on the real
agent, installed from npm into the engine cache on first use."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines import codex_driver
from harness.engines.codex import TOOLS, translated_fixture, unexpressible
from harness.engines.codex_driver import Translator, provider_args
from harness.model_request import ModelRequest
from tests.conftest import CaseWriter, run_committed_cases

#: The Codex release the suite runs.
CODEX = "0.171.0"
#: A Bash call, a PreToolUse hook that denies one, and a UserPromptSubmit hook that blocks the prompt.
CASES = ["engine-isolation-b-no-hook", "engine-isolation-a-hook-deny", "hook-event-userpromptsubmit-block-json"]


def test_bash_is_exec_command_with_cmd_both_ways() -> None:
    seen: list[ModelRequest] = []

    def scripted(request: ModelRequest) -> list[dict[str, object]]:
        seen.append(request)
        return [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "ls", "description": "list"}}]

    history = {"type": "tool_use", "id": "t1", "name": "exec_command", "input": {"cmd": "echo hi"}}
    request = ModelRequest(
        system="",
        messages=({"role": "user", "content": "Go."}, {"role": "assistant", "content": [history]}),
        tools=("exec_command", "write_stdin", "apply_patch"),
    )
    sent = TOOLS.wrap(scripted, workdir=Path("/w"))(request)
    assert seen[0].tools == ("Bash", "write_stdin", "apply_patch")
    assert seen[0].messages[1]["content"][0] == {**history, "name": "Bash", "input": {"command": "echo hi"}}
    assert sent == [{"type": "tool_use", "id": "t2", "name": "exec_command",
                     "input": {"cmd": "ls", "description": "list"}}]


def test_the_driver_reads_codex_events_as_stream_json() -> None:
    """Events as Codex 0.171.0 printed them for a call and an answer (measured)."""
    translator = Translator()
    command = {"id": "item_2", "type": "command_execution", "command": "/bin/bash -lc 'exit 3'",
               "aggregated_output": "no\n", "exit_code": 3, "status": "failed"}
    events = [
        {"type": "thread.started", "thread_id": "01a2"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "error", "message": "a warning"}},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": "Trying."}},
        {"type": "item.started", "item": {**command, "exit_code": None, "status": "in_progress"}},
        {"type": "item.completed", "item": command},
        {"type": "item.completed", "item": {"id": "item_3", "type": "agent_message", "text": "done"}},
        {"type": "turn.completed", "usage": {}},
    ]
    out = [line for event in events for line in translator.lines(event)]
    assert [o["type"] for o in out] == ["system", "assistant", "assistant", "user", "assistant", "result"]
    assert out[0]["session_id"] == "01a2"
    assert out[2]["message"]["content"][0]["input"] == {"cmd": "/bin/bash -lc 'exit 3'"}
    assert out[3]["message"]["content"][0] == {"type": "tool_result", "tool_use_id": "item_2", "content": "no\n",
                                               "is_error": True}
    assert out[-1]["result"] == "done" and out[-1]["is_error"] is False


def test_a_failed_turn_is_an_error_result() -> None:
    translator = Translator()
    translator.lines({"type": "thread.started", "thread_id": "t"})
    translator.lines({"type": "error", "message": "stream disconnected"})
    (result,) = translator.lines({"type": "turn.failed", "error": {"message": "unexpected status 500"}})
    assert result["is_error"] is True and result["result"] == "unexpected status 500"


def test_the_provider_is_the_fake_api_speaking_responses() -> None:
    args = provider_args("http://127.0.0.1:4242")
    assert args[1] == 'model_provider="ccharness"'
    assert 'base_url="http://127.0.0.1:4242/v1"' in args[3] and 'wire_api="responses"' in args[3]
    assert 'env_key="ANTHROPIC_API_KEY"' in args[3]


def test_what_the_adapter_cannot_say_is_named_not_dropped(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case(
        "not-sayable",
        """\
        id: not-sayable
        title: t
        run: {permission_mode: default, flags: {plugin_dirs: [p]}}
        steps:
          - prompt: Go.
            turns:
              - call: {name: Read, input: {file_path: a}}
          - prompt: Again.
            session: resume
            turns: [{say: done}]
        """,
        files={".claude/settings.json": '{"hooks": {}, "permissions": {"allow": ["Bash"]}}',
               ".claude/agents/a.md": "x", ".mcp.json": "{}", "CLAUDE.md": "x"},
    )
    case = load_case(directory)
    home = tmp_path / "home"
    home.mkdir()
    reasons = " | ".join(unexpressible(case, directory, home))
    for said in ("2 prompts", "permission mode default", "plugin_dirs", ".claude/agents", "settings Codex does not "
                 "read (permissions", "MCP servers", "Codex reads AGENTS.md, not CLAUDE.md", "calls to Read"):
        assert said in reasons


def test_skills_and_hooks_are_laid_out_for_the_run_and_taken_away(tmp_path: Path) -> None:
    skill = tmp_path / ".claude" / "skills" / "greet"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: greet\ndescription: d\n---\nbody\n")
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}
    with translated_fixture(tmp_path, hooks):
        assert (tmp_path / ".agents" / "skills" / "greet" / "SKILL.md").read_text().endswith("body\n")
        assert json.loads((tmp_path / ".codex" / "hooks.json").read_text()) == {"hooks": hooks}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".claude"]


def test_the_driver_reads_bytes_that_are_not_utf8_as_replacement_characters(tmp_path: Path) -> None:
    fake = tmp_path / "codex"
    fake.write_bytes(
        b"#!/bin/sh\n"
        b"printf '{\"type\":\"thread.started\",\"thread_id\":\"t\"}\\n'\n"
        b"printf '{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"a \\377 b\"}}\\n'\n"
        b"printf '{\"type\":\"turn.completed\"}\\n'\n"
    )
    fake.chmod(0o755)
    done = subprocess.run([sys.executable, codex_driver.__file__, "Go.", str(fake)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["result"] == "a \ufffd b"


@pytest.mark.xdist_group("codex")
@pytest.mark.skipif(shutil.which("npm") is None, reason="Codex is installed with npm (@openai/codex)")
def test_committed_cases_run_on_codex(tmp_path: Path) -> None:
    run_committed_cases(f"codex@{CODEX}", CASES, tmp_path / "run.jsonl")


def test_what_codex_draws_per_run_is_normalised_away(tmp_path: Path) -> None:
    from harness.transcript import Normaliser

    norm = Normaliser(workdir=tmp_path / "w", home=tmp_path / "h")
    output = "Chunk ID: f2d598\nWall time: 0.0012 seconds\nProcess exited with code 0\nOutput:\nRAN\n"
    assert norm.text(output) == "Chunk ID: <id-1>\nWall time: <n> seconds\nProcess exited with code 0\nOutput:\nRAN\n"
    rollout = f"{tmp_path}/h/.codex/sessions/2026/12/02/rollout-2026-12-02T17-26-05-x.jsonl"
    assert norm.text(rollout) == "<home>/.codex/sessions/<date>/rollout-<timestamp>-x.jsonl"
