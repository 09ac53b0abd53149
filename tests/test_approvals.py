"""The permission prompt tool: a case's ``approvals`` answered in order over MCP, logged, and checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness import approvals_server
from harness.case import load_case
from harness.checks import check
from harness.engines.approvals import TOOL, ApprovalsTool, not_scripted_here
from harness.engines.claude import ClaudeEngine
from harness.errors import CaseFormatError, NotObservable
from tests.conftest import CaseWriter
from tests.test_case_format import GOOD

APPROVALS = """\
approvals:
  - {tool: Bash, answer: allow}
  - {answer: allow, updated_input: {command: echo CHANGED}}
  - {answer: deny, message: USER-SAYS-NO}
"""


def _rpc(ident: int, method: str, params: dict[str, object] | None = None) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params or {}})


def _call(ident: int, tool_input: dict[str, object]) -> str:
    return _rpc(ident, "tools/call", {"name": "approve", "arguments": {"tool_name": "Bash", "input": tool_input}})


def test_the_server_speaks_mcp_and_answers_each_prompt_in_order(tmp_path: Path) -> None:
    answers, log = tmp_path / "answers.json", tmp_path / "asked.jsonl"
    answers.write_text(json.dumps([
        {"answer": "allow"},
        {"answer": "allow", "updated_input": {"command": "echo CHANGED"}},
        {"answer": "deny", "message": "USER-SAYS-NO"},
    ]))
    lines = [
        _rpc(1, "initialize", {"protocolVersion": "2025-06-18"}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _rpc(2, "tools/list"),
        _call(3, {"command": "touch a"}),
        _call(4, {"command": "touch b"}),
        _call(5, {"command": "touch c"}),
        _call(6, {"command": "touch d"}),
    ]
    done = subprocess.run(
        [sys.executable, approvals_server.__file__, str(answers), str(log)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=30, check=True,
    )
    replies = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert set(replies) == {1, 2, 3, 4, 5, 6}  # the notification gets no reply
    assert replies[1]["result"]["protocolVersion"] == "2025-06-18"
    assert [t["name"] for t in replies[2]["result"]["tools"]] == ["approve"]
    decisions = [json.loads(replies[i]["result"]["content"][0]["text"]) for i in (3, 4, 5, 6)]
    assert decisions == [
        {"behavior": "allow", "updatedInput": {"command": "touch a"}},
        {"behavior": "allow", "updatedInput": {"command": "echo CHANGED"}},
        {"behavior": "deny", "message": "USER-SAYS-NO"},
        {"behavior": "deny", "message": approvals_server.UNSCRIPTED},
    ]
    asked = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(a["input"]["command"], a["answer"]) for a in asked] == [
        ("touch a", 0), ("touch b", 1), ("touch c", 2), ("touch d", None)]


def test_a_second_process_goes_on_through_the_answers(tmp_path: Path) -> None:
    # a resumed session is a new engine process, so a new server: the log says where the answers stand
    answers, log = tmp_path / "answers.json", tmp_path / "asked.jsonl"
    answers.write_text(json.dumps([{"answer": "allow"}, {"answer": "deny", "message": "NO"}]))
    first = approvals_server.answer_prompt(answers, log, {"tool_name": "Bash", "input": {"command": "a"}})
    second = approvals_server.answer_prompt(answers, log, {"tool_name": "Bash", "input": {"command": "b"}})
    assert first["behavior"] == "allow" and second == {"behavior": "deny", "message": "NO"}


def test_a_case_with_approvals_passes_the_tool_to_claude(write_case: CaseWriter, tmp_path: Path) -> None:
    case = load_case(write_case("ap", GOOD.format(id="ap") + APPROVALS))
    tool = ApprovalsTool.for_case(case, tmp_path)
    assert tool is not None
    argv = tool.argv()
    assert argv[argv.index("--permission-prompt-tool") + 1] == TOOL
    config = json.loads(Path(argv[argv.index("--mcp-config") + 1]).read_text())
    (server,) = config["mcpServers"].values()
    assert server["args"][0] == approvals_server.__file__
    assert json.loads(tool.answers.read_text())[1] == {"answer": "allow", "updated_input": {"command": "echo CHANGED"}}
    plain = load_case(write_case("plain", GOOD.format(id="plain")))
    assert ApprovalsTool.for_case(plain, tmp_path) is None
    no_tool = ClaudeEngine(engine_version="2.1.332")._argv(
        Path("claude"), plain, [(0, plain.steps[0])], resume=None, debug_log=tmp_path / "d", workdir=tmp_path)
    assert "--permission-prompt-tool" not in no_tool


def test_the_sdk_adapters_have_no_verdict_on_approvals(write_case: CaseWriter) -> None:
    case = load_case(write_case("sdk", GOOD.format(id="sdk") + APPROVALS))
    with pytest.raises(NotObservable, match="approvals"):
        not_scripted_here(case, "sdk@2.1.332")


@pytest.mark.parametrize(("item", "field"), [
    ("{answer: allow, message: x}", "approvals[0].message"),
    ("{answer: deny, updated_input: {a: 1}}", "approvals[0].updated_input"),
    ("{answer: maybe}", "approvals.0.answer"),
])
def test_a_bad_answer_names_its_field(write_case: CaseWriter, item: str, field: str) -> None:
    with pytest.raises(CaseFormatError) as err:
        load_case(write_case("bad", GOOD.format(id="bad") + f"approvals:\n  - {item}\n"))
    assert err.value.field.replace("[", ".").replace("]", "") == field.replace("[", ".").replace("]", "")


def _transcript(asked: list[dict[str, object]]) -> dict[str, object]:
    return {"exchanges": [], "prompts": [], "files": {}, "approvals": asked}


def test_checks_fail_on_a_prompt_too_many_too_few_or_about_another_tool(write_case: CaseWriter) -> None:
    case = load_case(write_case("ck", GOOD.format(id="ck") + "approvals:\n  - {tool: Bash, answer: allow}\n"))
    bash = {"tool": "Bash", "input": {"command": "x"}, "answer": "allow"}

    def at(asked: list[dict[str, object]]) -> list[str]:
        return [d.at for d in check(case, _transcript(asked), debug_log=None)]

    assert at([bash]) == []
    assert at([]) == ["approvals[0]"]
    assert at([{**bash, "tool": "Write"}]) == ["approvals[0].tool"]
    assert at([bash, {**bash, "answer": "unscripted"}]) == ["approvals[1]"]
