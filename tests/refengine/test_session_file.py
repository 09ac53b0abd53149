"""The session transcript the reference engine writes: the measured form of the main thread's lines."""

from __future__ import annotations

import json
from pathlib import Path

from harness.refengine.runtime import new_session


def test_the_transcript_lies_where_the_payload_says_and_holds_the_measured_lines(tmp_path: Path) -> None:
    session = new_session(home=tmp_path / "home", workdir=tmp_path / "work")
    assert session.file.path == session.transcript_path
    assert session.transcript_path.parent.parent == tmp_path / "home" / ".claude" / "projects"
    session.file.prompt("Run the tests.")
    use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo OK"}}
    session.file.reply([{"type": "text", "text": "I will."}, use])
    result = {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "OK"}]}
    session.file.tool_results([result])
    session.file.reply([{"type": "text", "text": "Done."}])
    lines = [json.loads(line) for line in session.transcript_path.read_text().splitlines()]
    assert [(e["type"], e["message"]["content"]) for e in lines] == [
        ("user", "Run the tests."),
        ("assistant", [{"type": "text", "text": "I will."}]),
        ("assistant", [use]),
        ("user", [{"tool_use_id": "t1", "type": "tool_result", "content": "OK"}]),
        ("assistant", [{"type": "text", "text": "Done."}]),
    ]
    assert lines[1]["message"]["id"] == lines[2]["message"]["id"] != lines[4]["message"]["id"]
    assert [e["message"].get("stop_reason") for e in lines] == [None, "tool_use", "tool_use", None, "end_turn"]
    assert [e["parentUuid"] for e in lines[1:]] == [e["uuid"] for e in lines[:-1]] and lines[0]["parentUuid"] is None
    assert {e["sessionId"] for e in lines} == {session.session_id}
    assert all(e["isSidechain"] is False and e["cwd"] == str(tmp_path / "work") for e in lines)


def test_a_subagent_transcript_lies_beside_the_sessions_and_is_a_sidechain(tmp_path: Path) -> None:
    from harness.refengine.conversation import Conversation

    session = new_session(home=tmp_path / "home", workdir=tmp_path / "work")
    child = Conversation(kind="subagent", system="", messages=[{"role": "user", "content": [
        {"type": "text", "text": "TASK"}]}], pool=(), explicit_tools=False, depth=1, agent=None, agent_id="a1")
    kept = session.transcript_of(child)
    assert kept is not None and kept.path == session.transcript_path.with_suffix("") / "subagents" / "agent-a1.jsonl"
    kept.reply([{"type": "text", "text": "DONE"}])
    lines = [json.loads(line) for line in kept.path.read_text().splitlines()]
    assert [(e["type"], e["message"]["content"], e["isSidechain"], e["agentId"]) for e in lines] == [
        ("user", "TASK", True, "a1"), ("assistant", [{"type": "text", "text": "DONE"}], True, "a1")]
