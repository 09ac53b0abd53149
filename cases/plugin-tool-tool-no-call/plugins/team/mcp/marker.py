"""marker LABEL: a stdio MCP server with one tool, record, that appends `LABEL CALLED note="..."` to
markers.txt in the project directory and answers `recorded by LABEL`. Written with the official MCP Python
SDK: FastMCP, which the SDK's 2.x line renamed MCPServer."""

import os
import sys
from pathlib import Path

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

LABEL = sys.argv[1] if len(sys.argv) > 1 else "marker"
OUT = Path(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()) / "markers.txt"
server = Server("marker")


@server.tool()
def record(note: str) -> str:
    """Append a note to the marker file."""
    with OUT.open("a", encoding="utf-8") as f:
        f.write(f'{LABEL} CALLED note="{note}"\n')
    return f"recorded by {LABEL}"


if __name__ == "__main__":
    server.run()
