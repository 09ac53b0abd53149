"""A fake Anthropic Messages API on loopback that serves a scripted model to the real engine.

Contract: ``POST /v1/messages`` streams the scripted reply as SSE exactly as the real API does
(message_start, content_block_start/delta/stop per block with tool input as input_json_delta,
message_delta with the stop reason, message_stop); ``POST /v1/messages/count_tokens`` answers a
token count; anything else is journaled and answered 404. Events are built from the ``anthropic``
package's own types, so the wire format is the SDK's. Every request is journaled. A scripted-model
failure is answered with a 400 ``invalid_request_error`` (so the engine stops instead of retrying)
and kept in ``errors`` for the driver to raise.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from anthropic.types import (
    InputJSONDelta,
    Message,
    MessageDeltaUsage,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
    TextBlock,
    TextDelta,
    ToolUseBlock,
    Usage,
)
from anthropic.types.raw_message_delta_event import Delta

from harness.errors import HarnessError
from harness.scripted import ModelRequest, block_text

Responder = Callable[[ModelRequest], list[dict[str, Any]]]


@dataclass(frozen=True, kw_only=True)
class JournalEntry:
    method: str
    path: str
    body: dict[str, Any] | None
    status: int


def to_model_request(body: dict[str, Any]) -> ModelRequest:
    """The engine-neutral view of a Messages API request body."""
    system = body.get("system") or ""
    return ModelRequest(
        system=system if isinstance(system, str) else block_text(system),
        messages=tuple(body.get("messages", ())),
        tools=tuple(t["name"] for t in body.get("tools", ()) if "name" in t),
    )


def sse_events(blocks: list[dict[str, Any]], *, model: str, message_id: str) -> Iterator[tuple[str, str]]:
    """(event name, JSON data) pairs of one streamed assistant message."""
    start = RawMessageStartEvent(
        type="message_start",
        message=Message(
            id=message_id,
            type="message",
            role="assistant",
            model=model,
            content=[],
            stop_reason=None,
            stop_sequence=None,
            usage=Usage(input_tokens=1, output_tokens=1),
        ),
    )
    yield "message_start", start.model_dump_json(exclude_none=True)
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening: TextBlock | ToolUseBlock = ToolUseBlock(
                type="tool_use", id=block["id"], name=block["name"], input={}
            )
            delta: InputJSONDelta | TextDelta = InputJSONDelta(
                type="input_json_delta", partial_json=json.dumps(block["input"])
            )
        else:
            opening = TextBlock(type="text", text="")
            delta = TextDelta(type="text_delta", text=block["text"])
        events = (
            RawContentBlockStartEvent(type="content_block_start", index=index, content_block=opening),
            RawContentBlockDeltaEvent(type="content_block_delta", index=index, delta=delta),
            RawContentBlockStopEvent(type="content_block_stop", index=index),
        )
        for ev in events:
            yield ev.type, ev.model_dump_json(exclude_none=True)
    end = RawMessageDeltaEvent(
        type="message_delta",
        delta=Delta(stop_reason=_stop_reason(blocks), stop_sequence=None),  # type: ignore[arg-type]
        usage=MessageDeltaUsage(output_tokens=max(1, len(blocks))),
    )
    yield "message_delta", end.model_dump_json(exclude_none=True)
    yield "message_stop", RawMessageStopEvent(type="message_stop").model_dump_json()


@dataclass(kw_only=True)
class FakeMessagesAPI:
    """Start with ``with FakeMessagesAPI(respond=...) as api:``; ``api.base_url`` is the address."""

    respond: Responder
    journal: list[JournalEntry] = field(default_factory=list)
    errors: list[HarnessError] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _count: int = 0

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeMessagesAPI:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # the journal replaces access logs
                return

            def do_GET(self) -> None:
                api._note("GET", self.path, None, 404)
                self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "not served"}})

            do_HEAD = do_GET

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                route = self.path.split("?", 1)[0]
                if route == "/v1/messages/count_tokens":
                    api._note("POST", self.path, body, 200)
                    self._send_json(200, {"input_tokens": 1})
                elif route == "/v1/messages":
                    self._messages(body)
                else:
                    api._note("POST", self.path, body, 404)
                    self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": route}})

            def _messages(self, body: dict[str, Any]) -> None:
                try:
                    blocks = api.respond(to_model_request(body))
                except HarnessError as exc:
                    api.errors.append(exc)
                    api._note("POST", self.path, body, 400)
                    msg = {"type": "error", "error": {"type": "invalid_request_error", "message": str(exc)[:2000]}}
                    self._send_json(400, msg)
                    return
                api._note("POST", self.path, body, 200)
                if not body.get("stream"):
                    self._send_json(200, _whole_message(blocks, model=str(body.get("model", "")), mid=api._next_id()))
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for name, data in sse_events(blocks, model=str(body.get("model", "")), message_id=api._next_id()):
                    self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, name="fake-messages-api", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _note(self, method: str, path: str, body: dict[str, Any] | None, status: int) -> None:
        with self._lock:
            self.journal.append(JournalEntry(method=method, path=path, body=body, status=status))

    def _next_id(self) -> str:
        with self._lock:
            self._count += 1
            return f"msg_cch_{self._count:04d}"


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """The engine hangs up on keep-alive sockets when it exits; that is not an error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _stop_reason(blocks: list[dict[str, Any]]) -> str:
    """``tool_use`` if the reply calls a tool, else ``end_turn``."""
    return "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"


def _whole_message(blocks: list[dict[str, Any]], *, model: str, mid: str) -> dict[str, Any]:
    msg = Message.model_validate(
        {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": _stop_reason(blocks),
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    return msg.model_dump(exclude_none=True)
