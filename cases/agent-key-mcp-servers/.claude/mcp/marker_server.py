"""marker: a stdio MCP server with one tool, record, that appends CALLED note="..." to mcp-marker.txt.

Plain JSON-RPC over stdin/stdout with the standard library only: it answers at once, where a server built on the
MCP Python SDK took 17 to 30 s to start on a loaded machine, past the 30 s a subagent's inline server is given.
"""

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "mcp-marker.txt"
TOOL = {
    "name": "record",
    "description": "Append a note to the marker file.",
    "inputSchema": {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]},
}


def answer(request: dict) -> dict | None:
    method, params = request.get("method"), request.get("params") or {}
    if "id" not in request:
        return None  # a notification (notifications/initialized): no reply
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "marker", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call" and params.get("name") == "record":
        with OUT.open("a", encoding="utf-8") as f:
            f.write(f'CALLED note="{params.get("arguments", {}).get("note", "")}"\n')
        result = {"content": [{"type": "text", "text": "recorded"}]}
    elif method == "ping":
        result = {}
    else:  # server/discover and anything else this server does not speak
        return {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"no method {method}"}}
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


for line in sys.stdin:
    if line.strip():
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
