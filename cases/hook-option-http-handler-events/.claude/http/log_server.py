"""The endpoint of http hooks: records each request and answers {} (no decision).

Listens on 127.0.0.1 at a free port and prints the port as its first line (the harness writes it into
the settings). Each POST appends one line to http-requests.txt in the working directory:
  path | hook_event_name | tool_name | tool_input.command
"""

import json
from http.server import BaseHTTPRequestHandler, HTTPServer


class Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        fields = [self.path, payload.get("hook_event_name", "-"), payload.get("tool_name", "-"),
                  (payload.get("tool_input") or {}).get("command", "-")]
        with open("http-requests.txt", "a", encoding="utf-8") as log:
            log.write(" | ".join(fields) + "\n")
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), Hook)
print(server.server_port, flush=True)
server.serve_forever()
