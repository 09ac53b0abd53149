"""opencode as an engine (``opencode@V``): its tools and their input keys translated at the fake API from one
table, its JSON events read as stream-json through a driver, what the adapter cannot say not-modelled with the
reason, and committed cases run on the real agent, installed from npm into the engine cache on first use."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines.opencode import TOOLS, unexpressible
from harness.engines.opencode_driver import Translator
from harness.model_request import ModelRequest
from tests.conftest import CaseWriter, run_committed_cases

#: The opencode release the suite runs.
OPENCODE = "1.18.33"
#: A skill and a built-in tool: what opencode reads of a Claude Code setup (.claude/skills).
ONE_PER_PART = ["engine-skill-listed", "builtin-read-empty"]


def test_input_keys_are_translated_both_ways() -> None:
    seen: list[ModelRequest] = []

    def scripted(request: ModelRequest) -> list[dict[str, object]]:
        seen.append(request)
        return [
            {"type": "tool_use", "id": "t2", "name": "Edit",
             "input": {"file_path": "a.txt", "old_string": "x", "new_string": "y"}},
            {"type": "tool_use", "id": "t3", "name": "Skill", "input": {"skill": "greet"}},
        ]

    history = {"type": "tool_use", "id": "t1", "name": "read", "input": {"filePath": "/w/a.txt", "offset": 2}}
    request = ModelRequest(
        system="",
        messages=({"role": "user", "content": "Go."}, {"role": "assistant", "content": [history]}),
        tools=("bash", "read", "skill", "todowrite"),
    )
    sent = TOOLS.wrap(scripted, workdir=Path("/w"))(request)
    assert seen[0].tools == ("Bash", "Read", "Skill", "TodoWrite")
    read_back = {"file_path": "/w/a.txt", "offset": 2}
    assert seen[0].messages[1]["content"][0] == {**history, "name": "Read", "input": read_back}
    assert sent[0]["name"] == "edit"
    assert sent[0]["input"] == {"filePath": "a.txt", "oldString": "x", "newString": "y"}
    assert sent[1] == {"type": "tool_use", "id": "t3", "name": "skill", "input": {"name": "greet"}}


def test_the_driver_reads_opencode_events_as_stream_json() -> None:
    translator = Translator()
    session = "ses_1"
    events = [
        {"type": "step_start", "sessionID": session, "part": {"type": "step-start"}},
        {"type": "tool_use", "sessionID": session, "part": {
            "tool": "bash", "callID": "toolu_1",
            "state": {"status": "completed", "input": {"command": "echo hi"}, "output": "hi\n"}}},
        {"type": "step_finish", "sessionID": session, "part": {"reason": "tool-calls"}},
        {"type": "step_start", "sessionID": session, "part": {}},
        {"type": "text", "sessionID": session, "part": {"text": "done"}},
        {"type": "step_finish", "sessionID": session, "part": {"reason": "stop"}},
    ]
    lines = [line for event in events for line in translator.lines(event)]
    assert lines[0] == {"type": "system", "subtype": "init", "session_id": session, "tools": []}
    kinds = [line["type"] for line in lines]
    assert kinds == ["system", "assistant", "user", "assistant", "result"]
    assert lines[2]["message"]["content"][0] == {
        "type": "tool_result", "tool_use_id": "toolu_1", "content": "hi\n", "is_error": False}
    assert lines[-1]["result"] == "done" and lines[-1]["is_error"] is False  # only the last step's text
    failed = translator.lines({"type": "error", "sessionID": session, "error": {"data": {"message": "boom"}}})
    assert failed[-1]["is_error"] is True and failed[-1]["result"] == "boom"


def test_what_the_adapter_cannot_say_is_named_not_dropped(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = write_case(
        "not-sayable",
        """\
        id: not-sayable
        title: t
        run: {permission_mode: dontAsk, flags: {plugin_dirs: [p]}}
        steps:
          - prompt: Go.
            turns:
              - call: {name: NotebookEdit, input: {}}
          - prompt: Again.
            session: resume
            turns: [{say: done}]
        """,
        files={".claude/settings.json": '{"hooks": {}}', ".claude/agents/a.md": "x", ".mcp.json": "{}"},
    )
    case = load_case(directory)
    home = tmp_path / "home"
    home.mkdir()
    reasons = " | ".join(unexpressible(case, directory, home))
    for said in ("2 prompts", "permission mode dontAsk", "plugin_dirs", ".claude/agents, .claude/settings.json",
                 "MCP servers", "calls to NotebookEdit"):
        assert said in reasons


@pytest.mark.xdist_group("opencode")
@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("rg") is None,
                    reason="opencode is installed with npm and reads skills with rg")
def test_committed_cases_run_on_opencode(tmp_path: Path) -> None:
    run_committed_cases(f"opencode@{OPENCODE}", ONE_PER_PART, tmp_path / "run.jsonl")


def test_the_driver_reads_bytes_that_are_not_utf8_as_replacement_characters(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from harness.engines import opencode_driver

    fake = tmp_path / "opencode"
    fake.write_bytes(
        b"#!/bin/sh\ncat > /dev/null\n"
        b"printf '{\"type\":\"text\",\"sessionID\":\"s\",\"part\":{\"text\":\"a \\377 b\"}}\\n'\n"
        b"printf '{\"type\":\"step_finish\",\"sessionID\":\"s\",\"part\":{\"reason\":\"stop\"}}\\n'\n"
    )
    fake.chmod(0o755)
    done = subprocess.run([sys.executable, opencode_driver.__file__, "Go.", str(fake)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["result"] == "a \ufffd b"
