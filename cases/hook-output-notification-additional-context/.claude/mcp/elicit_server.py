"""elicit: a stdio MCP server written against the protocol itself (JSON-RPC lines on stdin and stdout).

Its tool ask sends the client an elicitation/create request for a name and answers with what came back
(action and content), so the client's answer, and anything that changed it on the way, is the tool's result.
Its tool fetch returns the fixed text MCP-ORIGINAL. Started with --notify it has a third tool, notify, that
sends notifications/elicitation/complete (elicitation E-1 is done) before it answers.
"""

import json
import sys

TOOLS = [
    {"name": "ask", "description": "Ask the user for a name.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "fetch", "description": "Return a fixed text.", "inputSchema": {"type": "object", "properties": {}}},
]
NOTIFY = {"name": "notify", "description": "Say that elicitation E-1 is complete.",
          "inputSchema": {"type": "object", "properties": {}}}
NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read() -> dict:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def text(request_id: object, body: str) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": body}]}})


def ask(request_id: object) -> None:
    send({"jsonrpc": "2.0", "id": "elicit-1", "method": "elicitation/create",
          "params": {"message": "What name?", "requestedSchema": NAME_SCHEMA}})
    while True:  # the client's answer; anything else meanwhile (notifications) is skipped
        message = read()
        if message.get("id") == "elicit-1" and "method" not in message:
            break
    answer = message.get("result") or {"error": message.get("error")}
    text(request_id, "elicited: " + json.dumps(answer, sort_keys=True))


def main() -> None:
    while True:
        message = read()
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": message["params"].get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": "elicit", "version": "1"}}})
        elif method == "tools/list":
            tools = [*TOOLS, NOTIFY] if "--notify" in sys.argv else TOOLS
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}})
        elif method == "tools/call":
            name = message["params"]["name"]
            if name == "ask":
                ask(request_id)
            elif name == "notify":
                send({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                      "params": {"elicitationId": "E-1"}})
                text(request_id, "notified")
            else:
                text(request_id, "MCP-ORIGINAL")
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main()
