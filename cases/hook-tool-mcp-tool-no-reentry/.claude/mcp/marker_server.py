"""marker: a stdio MCP server with one tool, record, that appends CALLED note="..." to a file.

The file is mcp-marker.txt in the project directory (two levels above this script), so the hook's
effect is visible in the working copy. Written with the official MCP Python SDK: FastMCP, which the
SDK's 2.x line renamed MCPServer.
"""

from pathlib import Path

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

OUT = Path(__file__).resolve().parents[2] / "mcp-marker.txt"

server = Server("marker")


@server.tool()
def record(note: str) -> str:
    """Append a note to the marker file."""
    with OUT.open("a", encoding="utf-8") as f:
        f.write(f'CALLED note="{note}"\n')
    return "recorded"


if __name__ == "__main__":
    server.run()
