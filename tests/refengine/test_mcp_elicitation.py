"""An MCP server that elicits input makes the reference engine abstain: the dialog and the Notification and
Elicitation hooks it fires are not modelled (and hook_surface's quiet Notification relies on it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from harness.refengine.config_model import McpServerDef
from harness.refengine.errors import NotModelled
from harness.refengine.mcp_client import McpConnection

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "eliciting_mcp_server.py"


@pytest.fixture
def connection(tmp_path: Path):  # type: ignore[no-untyped-def]
    server = McpServerDef(name="asker", command=sys.executable, args=(str(SERVER),), env={})
    conn = McpConnection(server=server, cwd=tmp_path, env=dict(os.environ), timeout=60)
    conn.launch()
    conn.wait()
    yield conn
    conn.close()


def test_a_tool_that_elicits_is_not_modelled_and_one_that_does_not_answers(connection: McpConnection) -> None:
    assert "plain" in connection.call("plain", {}).content[0]["text"]
    with pytest.raises(NotModelled, match="elicited"):
        connection.call("ask", {})
