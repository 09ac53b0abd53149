"""srv: a stdio MCP server with one tool, ping, that answers PONG."""
try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("srv")


@server.tool()
def ping() -> str:
    """Answer PONG."""
    return "PONG"


if __name__ == "__main__":
    server.run()
