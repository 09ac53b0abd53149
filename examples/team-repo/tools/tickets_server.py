"""The team's ticket lookup as an MCP server (stdio), written with the official MCP Python SDK."""

try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

TICKETS = {"42": "Login times out after 30 s", "57": "Health endpoint lacks the build version"}

server = Server("tickets")


@server.tool()
def lookup(ticket: str) -> str:
    """The title of a ticket, by its number."""
    title = TICKETS.get(ticket.removeprefix("TICKET-"))
    return f"TICKET-{ticket.removeprefix('TICKET-')}: {title}" if title else f"no ticket {ticket}"


if __name__ == "__main__":
    server.run()
