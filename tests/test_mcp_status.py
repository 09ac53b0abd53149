"""An MCP server that cannot start is not silent: the transcript names it with its status, and the record's
notes (in the failure message too) carry its stderr. Servers that connect add nothing to the transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines import make_engine
from harness.outcome import Status
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, PINNED, REPO, write_files

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


#: the standard-library server of agent-key-mcp-servers, started 35 s late: later than the engine's own 30 s
#: default for an MCP server to connect, as a server built on the MCP Python SDK was on a loaded machine
#: (54 to 57 s, debug log of claude 2.1.332 at load average 29)
LATE_SERVER = (REPO / "cases" / "agent-key-mcp-servers" / ".claude" / "mcp" / "marker_server.py").read_text()
LATE = (
    '{"mcpServers": {"marker": {"command": "python3", "args": ["-c",'
    ' "import runpy, time; time.sleep(35); runpy.run_path(\'.claude/mcp/marker_server.py\')"]}}}'
)
LATE_CASE = """\
id: mcp-late
title: a server that takes 35 s to start is waited for within the run's time limit
run: {permission_mode: bypass, timeout: 120}
steps:
  - prompt: Record a note.
    turns:
      - call: {name: mcp__marker__record, input: {note: LATE}, expect: {result: recorded}}
      - say: done
effects:
  - {path: mcp-marker.txt, content: "CALLED note=\\"LATE\\"\\n"}
"""


def test_a_server_slower_than_the_engines_default_connects_within_the_run_time_limit(
    tmp_path: Path, claude_version: str
) -> None:
    """The engine is given the case's run.timeout to connect its MCP servers (MCP_TIMEOUT and the print-mode
    wait, MCP_CONNECT_TIMEOUT_MS): with its 30 s default a slow server's tools were missing, a fail that
    said nothing about the engine."""
    root = tmp_path / "cases" / "mcp-late"
    write_files(root, {"case.yaml": LATE_CASE, ".mcp.json": LATE, ".claude/mcp/marker_server.py": LATE_SERVER,
                       ".claude/settings.json": '{"enableAllProjectMcpServers": true}'})
    record = run_case(load_case(root), make_engine(f"claude@{claude_version}"), expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()

