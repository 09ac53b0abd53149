"""The endpoint of an http hook: records each request and answers with a hook decision.

Usage: policy_server.py [--status N]
Listens on 127.0.0.1 at a free port and prints the port as its first line (the harness writes it into
the settings). Each POST appends one line to http-requests.txt in the working directory:
  path | hook_event_name | tool_name | tool_input.command | auth=<Authorization> | unlisted=<X-Unlisted>
A command that mentions "forbidden" is answered with a PreToolUse deny, any other request with {}.
Every answer has status N (default 200).
"""

import argparse
import json
from http.server import BaseHTTPRequestHandler, HTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--status", type=int, default=200)
STATUS = parser.parse_args().status
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "DENIED-BY-HTTP-HOOK",
    }
}


class Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        command = (payload.get("tool_input") or {}).get("command", "-")
        fields = [
            self.path,
            payload.get("hook_event_name", "-"),
            payload.get("tool_name", "-"),
            command,
            f"auth={self.headers.get('Authorization', '')}",
            f"unlisted={self.headers.get('X-Unlisted', '')}",
        ]
        with open("http-requests.txt", "a", encoding="utf-8") as log:
            log.write(" | ".join(fields) + "\n")
        body = json.dumps(DENY if "forbidden" in command else {}).encode()
        self.send_response(STATUS)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), Hook)
print(server.server_port, flush=True)
server.serve_forever()
