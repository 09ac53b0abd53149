"""Logs which hook events reach it: one line per POST, "<path> <hook_event_name>", to http-events.txt.

Listens on 127.0.0.1 at a free port, printed first so the harness can fill in {{port:events}}.
Every request is answered 200 with {} (no decision).
"""

import json
from http.server import BaseHTTPRequestHandler, HTTPServer


class EventLog(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        event = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["hook_event_name"]
        with open("http-events.txt", "a", encoding="utf-8") as log:
            print(self.path, event, file=log)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), EventLog)
print(server.server_port, flush=True)
server.serve_forever()
