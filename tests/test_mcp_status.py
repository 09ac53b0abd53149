"""An MCP server that cannot start is not silent: the transcript names it with its status, and the record's
notes (in the failure message too) carry its stderr. Servers that connect add nothing to the transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines import make_engine
from harness.outcome import Status
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, PINNED, write_files

BROKEN = (
    '{"mcpServers": {"dispatch-ops": {"command": "python3", "args": ["-c",'
    " \"import sys; print('BOOM ModuleNotFoundError: No module named mcp', file=sys.stderr); sys.exit(1)\"]}}}"
)
CASE = """\
id: mcp-broken
title: the model calls a tool of a server that could not start
run: {permission_mode: bypass}
steps:
  - prompt: Who drives today?
    turns:
      - call: {name: mcp__dispatch-ops__driver_roster, input: {}, expect: {result: {contains: drivers on duty}}}
      - say: done
"""


@pytest.mark.parametrize("engine", ["reference", "claude"])
def test_a_failed_server_is_named_with_its_stderr(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    spec = "reference" if engine == "reference" else f"claude@{request.getfixturevalue('claude_version')}"
    root = tmp_path / "cases" / "mcp-broken"
    write_files(
        root,
        {
            "case.yaml": CASE,
            ".mcp.json": BROKEN,
            ".claude/settings.json": '{"enableAllProjectMcpServers": true}',
        },
    )
    record = run_case(load_case(root), make_engine(spec, default_version=PINNED[-1]), expectations=EXPECTATIONS)
    assert record.status is Status.FAIL and record.transcript is not None
    assert record.transcript["prompts"][0]["mcp_servers_failed"] == [{"name": "dispatch-ops", "status": "failed"}]
    note = next(n for n in record.notes if "dispatch-ops" in n)
    assert "BOOM ModuleNotFoundError: No module named mcp" in note
    assert "BOOM ModuleNotFoundError" in record.explain()  # in the failure message a person reads
