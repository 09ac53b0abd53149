"""An http hook's endpoint that fails: records each request, then answers 500 (--fail status) or never answers
within the handler's timeout (--fail slow: it waits 60 s before answering).

Listens on 127.0.0.1 at a free port and prints the port as its first line (the harness writes it into the
settings). Each POST appends `path | hook_event_name | tool_input.command` to http-requests.txt in the working
directory before it answers.
"""

import argparse
import json
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--fail", choices=["status", "slow"], required=True)
FAIL = parser.parse_args().fail


class Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        command = (payload.get("tool_input") or {}).get("command", "-")
        with open("http-requests.txt", "a", encoding="utf-8") as log:
            log.write(f"{self.path} | {payload.get('hook_event_name', '-')} | {command}\n")
        if FAIL == "slow":
            time.sleep(60)  # far beyond the handler's timeout: the engine gives up first, however loaded
        body = b'{"error": "FAILED-ON-PURPOSE"}'
        try:
            self.send_response(500)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the engine closed the connection (its timeout)

    def log_message(self, format: str, *args: object) -> None:
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
server.daemon_threads = True
print(server.server_port, flush=True)
server.serve_forever()
