"""A recording proxy: a loopback HTTP server in front of the Messages API that saves every exchange.

The engine is pointed at it with ``ANTHROPIC_BASE_URL``; each request is forwarded to the upstream
(Anthropic's API, or any server that speaks it) with its headers, and the answer is passed back as it
arrives, an SSE stream line by line, so the engine sees no difference. Each exchange is kept as data:
the request's body, the answer's status and body (a stream is kept as its events). Secrets never
reach what is kept: credential headers are not saved at all, and every value the ``Scrubber`` knows
(their values included) is replaced in what is.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from harness.errors import UsageError
from harness.record.writer import MIN_SECRET, Scrubber

#: Anthropic's Messages API: where a real recording goes.
ANTHROPIC_API = "https://api.anthropic.com"
#: Request headers that carry credentials: forwarded upstream, never saved.
_SECRET_HEADERS = frozenset(
    {"x-api-key", "authorization", "proxy-authorization", "cookie", "anthropic-api-key", "x-auth-token"}
)
#: Hop-by-hop headers (RFC 9110 7.6.1) and the ones this proxy sets itself.
_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "accept-encoding",
    }
)


@dataclass(frozen=True, kw_only=True)
class Exchange:
    """One request and its answer, as saved (credentials dropped, scrubbed)."""

    index: int
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    status: int
    answer: Any
    """A streamed answer as its list of events (``{"event", "data"}``), else the parsed JSON body."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "method": self.method,
            "path": self.path,
            "headers": self.headers,
            "body": self.body,
            "status": self.status,
            "answer": self.answer,
        }


@dataclass(kw_only=True)
class RecordingProxy:
    """``with RecordingProxy(upstream=URL, scrub=...) as proxy:`` serves ``proxy.base_url``."""

    upstream: str
    scrub: Scrubber
    timeout: float = 600.0
    exchanges: list[Exchange] = field(default_factory=list)
    secrets_seen: set[str] = field(default_factory=set)
    """Credential values that passed through: scrubbed from every saved exchange, and by the caller."""
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _count: int = 0

    def __post_init__(self) -> None:
        parts = urlsplit(self.upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UsageError(f"--upstream {self.upstream!r}: expected an http(s) URL, e.g. {ANTHROPIC_API}")

    @property
    def base_url(self) -> str:
        assert self._server is not None, "proxy not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> RecordingProxy:
        self._server = _QuietServer(("127.0.0.1", 0), _handler(self))
        threading.Thread(target=self._server.serve_forever, name="recording-proxy", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def saved(self) -> list[Exchange]:
        """Every exchange in the order the requests arrived, scrubbed of every secret seen."""
        scrub = Scrubber(secrets=(*self.scrub.secrets, *(s for s in self.secrets_seen if len(s) >= MIN_SECRET)))
        ordered = sorted(self.exchanges, key=lambda e: e.index)
        return [
            Exchange(
                index=e.index,
                method=e.method,
                path=e.path,
                headers=scrub.value(e.headers),
                body=scrub.value(e.body),
                status=e.status,
                answer=scrub.value(e.answer),
            )
            for e in ordered
        ]

    def _next(self) -> int:
        with self._lock:
            self._count += 1
            return self._count

    def _keep(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)

    def _secret(self, name: str, value: str) -> None:
        with self._lock:
            self.secrets_seen.add(value)
            if name == "authorization" and " " in value:
                self.secrets_seen.add(value.split(" ", 1)[1])  # the token without its scheme, wherever it shows


def _handler(proxy: RecordingProxy) -> type[BaseHTTPRequestHandler]:
    upstream = urlsplit(proxy.upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # the exchanges replace an access log
            return

        def do_POST(self) -> None:
            self._forward()

        do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_POST

        def _forward(self) -> None:
            index = proxy._next()
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
            for name, value in headers.items():
                if name.lower() in _SECRET_HEADERS:
                    proxy._secret(name.lower(), value)
            headers["accept-encoding"] = "identity"  # the answer is kept as text: no compression
            conn = _connection(upstream.scheme, upstream.hostname or "", upstream.port, proxy.timeout)
            path = (upstream.path.rstrip("/") + self.path) if upstream.path not in ("", "/") else self.path
            try:
                conn.request(self.command, path, body=raw or None, headers=headers)
                answer = conn.getresponse()
            except OSError as exc:
                self._fail(index, raw, headers, exc)
                return
            streamed = "text/event-stream" in (answer.getheader("content-type") or "")
            self.send_response(answer.status)
            for name, value in answer.getheaders():
                if name.lower() not in _HOP:
                    self.send_header(name, value)
            if streamed:
                # close-delimited: the stream is passed on as it arrives, whatever its length
                self.send_header("connection", "close")
                self.end_headers()
                kept = self._relay(answer)
                self.close_connection = True
            else:
                data = answer.read()
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                kept = _json_or_text(data)
            conn.close()
            self._keep(index, raw, headers, status=answer.status, answer=kept)

        def _keep(self, index: int, raw: bytes, headers: dict[str, str], *, status: int, answer: Any) -> None:
            """Save one exchange, without its credential headers."""
            proxy._keep(
                Exchange(
                    index=index,
                    method=self.command,
                    path=self.path,
                    headers=_saved_headers(headers),
                    body=_json_or_text(raw),
                    status=status,
                    answer=answer,
                )
            )

        def _relay(self, answer: http.client.HTTPResponse) -> list[dict[str, Any]]:
            lines: list[bytes] = []
            while line := answer.readline():
                lines.append(line)
                try:
                    self.wfile.write(line)
                    if line in (b"\n", b"\r\n"):
                        self.wfile.flush()  # one event at a time, as the upstream sent it
                except OSError:
                    break  # the engine hung up; what arrived is still kept
            return _sse_events(b"".join(lines).decode("utf-8", errors="replace"))

        def _fail(self, index: int, raw: bytes, headers: dict[str, str], exc: OSError) -> None:
            message = f"recording proxy: upstream {proxy.upstream} unreachable: {exc}"
            data = json.dumps({"type": "error", "error": {"type": "api_error", "message": message}}).encode()
            self.send_response(502)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            self._keep(index, raw, headers, status=502, answer=message)

    return Handler


def _connection(scheme: str, host: str, port: int | None, timeout: float) -> http.client.HTTPConnection:
    if scheme == "https":
        return http.client.HTTPSConnection(host, port, timeout=timeout)
    return http.client.HTTPConnection(host, port, timeout=timeout)


def _saved_headers(headers: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items() if k.lower() not in _SECRET_HEADERS}


def _json_or_text(data: bytes) -> Any:
    text = data.decode("utf-8", errors="replace")
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _sse_events(text: str) -> list[dict[str, Any]]:
    """A server-sent event stream as ``{"event": name, "data": parsed JSON or text}`` items."""
    events = []
    for chunk in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "message", []
        for line in chunk.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if data:
            joined = "\n".join(data)
            try:
                events.append({"event": name, "data": json.loads(joined)})
            except json.JSONDecodeError:
                events.append({"event": name, "data": joined})
    return events


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """The engine hangs up on keep-alive sockets when it exits; that is not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)
