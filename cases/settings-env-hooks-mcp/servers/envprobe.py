"""envprobe: a stdio MCP server with one tool, show, that answers the team variables its process sees.
Written with the official MCP Python SDK: FastMCP, which the SDK's 2.x line renamed MCPServer."""

import os

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("envprobe")


@server.tool()
def show() -> str:
    """Answer the team variables of the server's environment."""
    names = ("TEAM_STAGE", "TEAM_KEEP", "TEAM_USER", "TEAM_RUN")
    return " ".join(f"{n.split('_')[1].lower()}={os.environ.get(n, '')}" for n in names)


if __name__ == "__main__":
    server.run()
