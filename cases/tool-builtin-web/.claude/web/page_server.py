"""The case's web server: HTTPS on 127.0.0.1 with a throwaway self-signed certificate.

WebFetch fetches http:// URLs over https, so the server speaks TLS; the engine trusts the certificate
because the case sets NODE_TLS_REJECT_UNAUTHORIZED=0. The certificate is made at start with the openssl
command, outside the working copy. Prints its port first; appends "GET <path>" to web-requests.txt for
every request. /page is a small HTML page, anything else a 404.
"""

import ssl
import subprocess
import tempfile
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

PAGE = b"<html><head><title>Case page</title></head><body><p>The answer is WEB-FETCHED.</p></body></html>"


class Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        with open("web-requests.txt", "a", encoding="utf-8") as log:
            log.write(f"GET {self.path}\n")
        found = self.path == "/page"
        body = PAGE if found else b"not here"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/html" if found else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


keys = Path(tempfile.mkdtemp())
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-keyout", str(keys / "key.pem"), "-out", str(keys / "cert.pem")], check=True, capture_output=True)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(keys / "cert.pem", keys / "key.pem")
server = HTTPServer(("127.0.0.1", 0), Pages)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_port, flush=True)
server.serve_forever()
