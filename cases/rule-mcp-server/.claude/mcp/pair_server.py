"""A stdio MCP server named by its first argument, with two tools, record and note: each appends
`<server> <tool> <text>` to mcp-calls.txt in the project directory, so which calls ran shows in the
working copy. Written with the official MCP Python SDK (FastMCP, renamed MCPServer in its 2.x line)."""

import sys
from pathlib import Path

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

NAME = sys.argv[1]
OUT = Path(__file__).resolve().parents[2] / "mcp-calls.txt"

server = Server(NAME)


def _log(tool: str, text: str) -> str:
    with OUT.open("a", encoding="utf-8") as f:
        f.write(f"{NAME} {tool} {text}\n")
    return f"{NAME} {tool} done"


@server.tool()
def record(text: str) -> str:
    """Record a text."""
    return _log("record", text)


@server.tool()
def note(text: str) -> str:
    """Note a text."""
    return _log("note", text)


if __name__ == "__main__":
    server.run()
