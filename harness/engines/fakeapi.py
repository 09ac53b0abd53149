"""A fake Anthropic Messages API on loopback that serves a scripted model to the real engine.

Contract: ``POST /v1/messages`` streams the scripted reply as SSE exactly as the real API does
(message_start, content_block_start/delta/stop per block with tool input as input_json_delta,
message_delta with the stop reason, message_stop); ``POST /v1/messages/count_tokens`` answers a
token count; ``POST /v1/responses`` serves the same script in the OpenAI Responses API's wire format
(responses_api.py), for an agent that speaks only that; anything else is journaled and answered 404.
Messages events are built from the ``anthropic`` package's own types, so the wire format is the SDK's.
Every request is journaled. A scripted-model failure is answered with a 400 ``invalid_request_error`` (so
the engine stops instead of retrying) and kept in ``errors`` for the driver to raise.

Only requests carrying the run's key (``api_key``, generated per instance and given to the engine) are
served; any other is journaled and answered 401 before it can reach the scripted model, so a stray
local process cannot consume a case's turns. ``faults`` (an ``ApiFaultPlan``, apifaults.py) makes it
serve an error status or a broken stream instead of some replies; each fault served is kept in
``served`` for the driver to report as an API fault.
"""

from __future__ import annotations

import functools
import json
import secrets
import socket
import struct
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import Message as Headers
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from harness.apifaults import ApiFaultPlan, InjectedFault, ServedFault
from harness.engines import messages_api, responses_api
from harness.errors import HarnessError
from harness.model_request import ModelRequest

#: How often the serve loop looks for shutdown(): a run waits half of it on average at its end (at 10 ms
#: that was 5 ms a case); a wake-up is one select() call.
_POLL_INTERVAL = 0.002
Responder = Callable[[ModelRequest], list[dict[str, Any]]]


@dataclass(frozen=True, kw_only=True)
class JournalEntry:
    method: str
    path: str
    body: dict[str, Any] | None
    status: int
    fault: str | None = None
    """The injected fault served instead of a reply (``529@1 (request 1)``), if any."""
    refused: bool = False
    """Answered 401: the request did not carry the run's key."""


@dataclass(frozen=True)
class _WireFormat:
    """How one API reads a request into the scripted model's terms and writes its reply back."""

    read: Callable[[dict[str, Any]], ModelRequest]
    events: Callable[..., Iterator[tuple[str, str]]]
    """(event name, JSON data) of a streamed reply: ``events(blocks, model=..., message_id=...)``."""
    whole: Callable[..., dict[str, Any]]
    """The reply as one JSON body, for a request that does not stream."""
    error: Callable[[int, str, str], dict[str, Any]]
    id_prefix: str


def _new_api_key() -> str:
    """A key for one run: only requests carrying it reach the scripted model."""
    return f"sk-cc-harness-{secrets.token_hex(16)}"


@dataclass(kw_only=True)
class FakeMessagesAPI:
    """Start with ``with FakeMessagesAPI(respond=...) as api:``; ``api.base_url`` is the address and
    ``api.api_key`` the key the engine must send (``x-api-key`` or ``Authorization: Bearer``).

    ``faults`` is the plan of faults to serve instead of scripted replies (harness/apifaults.py);
    each one served is kept in ``served``."""

    respond: Responder
    faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)
    api_key: str = field(default_factory=_new_api_key)
    journal: list[JournalEntry] = field(default_factory=list)
    errors: list[HarnessError] = field(default_factory=list)
    served: list[ServedFault] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _closing: threading.Event = field(default_factory=threading.Event)
    _count: int = 0
    _requests: int = 0

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def refused(self) -> list[JournalEntry]:
        """Requests answered 401 because they did not carry this run's key."""
        return [e for e in self.journal if e.refused]

    def __enter__(self) -> FakeMessagesAPI:
        self._server = _QuietServer(("127.0.0.1", 0), _handler(self))
        # A short poll interval: shutdown() waits for the serve loop to wake, up to one interval per case.
        serve = functools.partial(self._server.serve_forever, poll_interval=_POLL_INTERVAL)
        threading.Thread(target=serve, name="fake-messages-api", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()  # a hanging stream returns, and its handler thread with it
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def authorised(self, headers: Headers[str, str]) -> bool:
        """Whether a request carries this run's key, as the engine sends it."""
        bearer = headers.get("authorization", "")
        return headers.get("x-api-key") == self.api_key or bearer == f"Bearer {self.api_key}"

    def next_request(self) -> tuple[int, InjectedFault | None]:
        """Number the next messages request and pick the fault it gets, if any."""
        with self._lock:
            self._requests += 1
            number = self._requests
        fault = self.faults.for_request(number)
        if fault is not None:
            with self._lock:
                self.served.append(ServedFault(request=number, fault=fault))
        return number, fault

    def note(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        status: int,
        *,
        fault: str | None = None,
        refused: bool = False,
    ) -> None:
        with self._lock:
            entry = JournalEntry(method=method, path=path, body=body, status=status, fault=fault, refused=refused)
            self.journal.append(entry)

    def next_id(self, prefix: str = "msg_cch_") -> str:
        with self._lock:
            self._count += 1
            return f"{prefix}{self._count:04d}"

    def wait_closing(self) -> None:
        """Block until the server is shut down (a hanging stream)."""
        self._closing.wait()


_MESSAGES = _WireFormat(
    read=messages_api.to_model_request,
    events=messages_api.sse_events,
    whole=lambda blocks, *, model, message_id: messages_api.whole_message(blocks, model=model, mid=message_id),
    error=messages_api.error_body,
    id_prefix="msg_cch_",
)
_RESPONSES = _WireFormat(
    read=responses_api.to_model_request,
    events=responses_api.sse_events,
    whole=lambda blocks, *, model, message_id: responses_api.whole_response(
        blocks, model=model, response_id=message_id
    ),
    error=responses_api.error_body,
    id_prefix="resp_cch_",
)
#: The routes that reach the scripted model, each in its wire format.
_ROUTES = {"/v1/messages": _MESSAGES, "/v1/responses": _RESPONSES}


def _handler(api: FakeMessagesAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # the journal replaces access logs
            return

        def do_GET(self) -> None:
            if self._refuse(None):
                return
            api.note(self.command, self.path, None, 404)
            self._send_error(404, "not_found_error", "not served")

        do_HEAD = do_GET

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                body = {}
            if self._refuse(body):
                return
            route = self.path.split("?", 1)[0]
            if route == "/v1/messages/count_tokens":
                api.note("POST", self.path, body, 200)
                self._send_json(200, {"input_tokens": 1})
            elif route in _ROUTES:
                self._reply(body, _ROUTES[route])
            else:
                api.note("POST", self.path, body, 404)
                self._send_error(404, "not_found_error", route)

        def _refuse(self, body: dict[str, Any] | None) -> bool:
            """Answer 401 to a request without this run's key: a stray local process must not consume
            the case's turns (and nothing else is served to it)."""
            if api.authorised(self.headers):
                return False
            api.note(self.command, self.path, body, 401, refused=True)
            self._send_error(401, "authentication_error", "invalid x-api-key (not this run's key)")
            return True

        def _reply(self, body: dict[str, Any], wire: _WireFormat) -> None:
            number, fault = api.next_request()
            if fault is not None:
                api.note("POST", self.path, body, fault.status or 200, fault=f"{fault} (request {number})")
                self._serve_fault(fault, body, number, wire)
                return
            try:
                blocks = api.respond(wire.read(body))
            except HarnessError as exc:
                api.errors.append(exc)
                api.note("POST", self.path, body, 400)
                self._send_json(400, wire.error(400, "invalid_request_error", str(exc)[:2000]))
                return
            api.note("POST", self.path, body, 200)
            model, mid = str(body.get("model", "")), api.next_id(wire.id_prefix)
            if not body.get("stream"):
                self._send_json(200, wire.whole(blocks, model=model, message_id=mid))
                return
            self._start_stream()
            for name, data in wire.events(blocks, model=model, message_id=mid):
                self._event(name, data)
            self.wfile.flush()

        def _serve_fault(self, fault: InjectedFault, body: dict[str, Any], number: int, wire: _WireFormat) -> None:
            if fault.kind == "status":
                assert fault.status is not None
                message = f"injected by cc-harness: {fault} (request {number})"
                self._send_json(fault.status, wire.error(fault.status, fault.error_type, message))
                return
            # A broken stream: the reply the model would give is not asked for; a plain text stands in.
            mid = api.next_id(wire.id_prefix)
            stand_in = [{"type": "text", "text": "…"}]
            events = list(wire.events(stand_in, model=str(body.get("model", "")), message_id=mid))
            self._start_stream()
            if fault.kind == "malformed":
                self._event(*events[0])
                self._event(events[1][0], '{"type": "' + events[1][0] + '", "index": 0, "item": {')
            elif fault.kind == "drop":
                for event in events[:3]:  # message_start, content_block_start, content_block_delta: then cut
                    self._event(*event)
                self.wfile.flush()
                self._reset()
                return
            else:  # hang: the message starts and never goes on, until the server shuts down
                self._event(*events[0])
                self.wfile.flush()
                api.wait_closing()
            self.wfile.flush()

        def _reset(self) -> None:
            """Drop the connection: a reset (RST), not a clean end of the body a client could take for one."""
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()

        def _start_stream(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True

        def _event(self, name: str, data: str) -> None:
            self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())

        def _send_error(self, status: int, kind: str, message: str) -> None:
            self._send_json(status, messages_api.error_body(status, kind, message))

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """The engine hangs up on keep-alive sockets when it exits; that is not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)
