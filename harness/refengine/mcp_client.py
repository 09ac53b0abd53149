"""MCP servers over stdio, through the official ``mcp`` SDK client.

The real engine keeps each server connected for the whole process, so a server sees one
``initialize`` and then every ``tools/call`` of the session. To keep that shape, each connection
lives on a private event loop in its own thread, and the synchronous engine submits calls to it.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import INVALID_REQUEST, ErrorData

from harness.refengine import launch
from harness.refengine.config_model import McpServerDef
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import js_json


class McpUnavailable(Exception):
    """The server could not be started or did not answer."""


@dataclass(frozen=True, kw_only=True)
class McpCallResult:
    content: list[dict[str, Any]]
    is_error: bool


def qualified_name(server: str, tool: str) -> str:
    """MCP tools are offered as ``mcp__<server>__<tool>`` (T3), the server's name with every character other
    than a letter, digit, ``_`` or ``-`` made ``_`` (measured: ``plugin:team:marker`` offers
    ``mcp__plugin_team_marker__record``)."""
    return f"mcp__{_tool_prefix_name(server)}__{tool}"


def _tool_prefix_name(server: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", server)


def _elicitation(callback: Any) -> dict[str, Any]:
    """The session's elicitation callback, where the installed SDK takes one (it came after mcp 1.2)."""
    takes = "elicitation_callback" in inspect.signature(ClientSession.__init__).parameters
    return {"elicitation_callback": callback} if takes else {}


class McpConnection:
    """One running server: started by ``launch`` and ``wait``, used by ``call``, stopped by ``stop`` and ``close``."""

    def __init__(self, *, server: McpServerDef, cwd: Path, env: Mapping[str, str], timeout: float) -> None:
        self.server = server
        server_env = {**env, **server.env}
        command, *args = launch.command_line([server.command, *server.args], server_env)
        self._params = StdioServerParameters(command=command, args=args, env=server_env, cwd=str(cwd))
        self._timeout = timeout
        # The server's stderr must outlive this call (it is read when the server fails), so the
        # file is closed in close(), not by a with-block.
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"mcp-{server.name}", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Event | None = None
        self._session: ClientSession | None = None
        self._error: BaseException | None = None
        self.tools: tuple[str, ...] = ()
        self.elicited = False
        """The server asked the user something (an MCP elicitation): the engine's dialog, and the Notification and
        Elicitation hooks it fires, are not modelled."""
        self.completed = False
        """The server said an elicitation is complete: claude fires a Notification hook for it, not modelled here."""

    def launch(self) -> None:
        """Start the server and its connection without waiting for it (``wait`` does)."""
        self._thread.start()

    def wait(self) -> None:
        """Wait until the launched server is connected, at most the timeout; McpUnavailable if it is not."""
        if not self._ready.wait(self._timeout) or self._session is None:
            raise McpUnavailable(f"MCP server {self.server.name!r} did not start: {self._error!r}; "
                                 f"stderr: {self.stderr().strip()[-2000:]}")

    def call(self, tool: str, arguments: Mapping[str, Any]) -> McpCallResult:
        if self._session is None or self._loop is None:
            raise McpUnavailable(f"MCP server {self.server.name!r} is not connected")
        future = asyncio.run_coroutine_threadsafe(self._session.call_tool(tool, dict(arguments)), self._loop)
        try:
            result = future.result(self._timeout)
        except Exception as exc:
            raise McpUnavailable(f"MCP server {self.server.name!r}: tools/call {tool} failed: {exc!r}") from exc
        finally:
            if self.elicited:
                raise NotModelled(f"MCP server {self.server.name!r} elicited input during tools/call {tool}")
            if self.completed:
                raise NotModelled(f"MCP server {self.server.name!r} sent notifications/elicitation/complete during "
                                  f"tools/call {tool} (claude fires a Notification hook for it)")
        # The SDK's 2.x names are snake_case, 1.x's camelCase.
        structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
        is_error = bool(getattr(result, "is_error", getattr(result, "isError", False)))
        if structured is not None:
            # Measured on 2.1.252: structured content, when a tool returns it, is what the model gets.
            text = js_json(structured)
            return McpCallResult(content=[{"type": "text", "text": text}], is_error=is_error)
        content = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in getattr(result, "content", [])]
        return McpCallResult(content=content, is_error=is_error)

    def stop(self) -> None:
        """Ask the connection to end (the server's stdin closes, and it exits) without waiting for it."""
        if self._loop is not None and self._closing is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._closing.set)

    def close(self) -> None:
        """Stop, and wait for the server to have exited (at most the timeout)."""
        self.stop()
        if self._thread.is_alive():
            self._thread.join(self._timeout)
        self._stderr.close()

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()

    def _serve(self) -> None:
        try:
            asyncio.run(self._hold())
        finally:
            self._ready.set()

    async def _elicit(self, *_request: Any) -> ErrorData:
        """An elicitation is noted (call raises NotModelled) and refused as the SDK's default callback refuses it."""
        self.elicited = True
        return ErrorData(code=INVALID_REQUEST, message="Elicitation not supported")

    async def _notified(self, message: Any) -> None:
        """A server's notification: an elicitation/complete one is noted (measured on 2.1.252 to 2.1.332: claude fires
        Notification with notification_type elicitation_complete; hook-output-notification-additional-context)."""
        method = getattr(message, "method", None) or getattr(getattr(message, "root", None), "method", None)
        if method == "notifications/elicitation/complete":
            self.completed = True

    async def _hold(self) -> None:
        # The transport and session context managers must be entered and left in one task: this one.
        self._loop = asyncio.get_running_loop()
        self._closing = asyncio.Event()
        try:
            async with stdio_client(self._params, errlog=self._stderr) as (read, write), \
                    ClientSession(read, write, message_handler=self._notified, **_elicitation(self._elicit)) as session:
                await session.initialize()
                listed = await session.list_tools()
                self.tools = tuple(t.name for t in listed.tools)
                self._session = session
                self._ready.set()
                await self._closing.wait()
        except BaseException as exc:  # any failure, including cancellation, means "not connected"
            self._error = exc
        finally:
            self._session = None


class McpPool:
    """Every configured server of one engine process; ``start`` again after ``close`` is a new process."""

    def __init__(self, *, servers: Mapping[str, McpServerDef], cwd: Path, env: Mapping[str, str],
                 timeout: float) -> None:
        self._servers = servers
        self._cwd = cwd
        self._env = env
        self._timeout = timeout
        self._connected: dict[str, McpConnection] = {}
        self.failures: list[str] = []
        self.failed: dict[str, str] = {}
        """Each server that did not start, by name: why, its stderr's end included."""

    def start(self) -> None:
        """Connect every server; a server that fails is reported and left out, as in the real
        engine's ``mcp_servers`` status ``failed``. The servers start side by side (most of a start is
        the server's own start-up), and are taken in their configured order."""
        starting = [
            McpConnection(server=server, cwd=self._cwd, env=self._env, timeout=self._timeout)
            for server in self._servers.values()
        ]
        for conn in starting:
            conn.launch()
        for conn in starting:
            try:
                conn.wait()
            except McpUnavailable as exc:
                self.failures.append(str(exc))
                self.failed[conn.server.name] = str(exc)
                conn.close()
            else:
                self._connected[conn.server.name] = conn

    def offered_tools(self) -> tuple[str, ...]:
        return tuple(qualified_name(name, t) for name, conn in self._connected.items() for t in conn.tools)

    def call(self, server: str, tool: str, arguments: Mapping[str, Any]) -> McpCallResult:
        conn = self._connected.get(server)
        if conn is None:
            raise McpUnavailable(f"MCP server {server!r} is not connected")
        return conn.call(tool, arguments)

    def split(self, qualified: str) -> tuple[str, str] | None:
        """(server, tool) of an offered ``mcp__server__tool`` name, or None."""
        for name, conn in self._connected.items():
            prefix = f"mcp__{_tool_prefix_name(name)}__"
            if qualified.startswith(prefix) and qualified[len(prefix):] in conn.tools:
                return name, qualified[len(prefix):]
        return None

    def close(self) -> None:
        for conn in self._connected.values():
            conn.stop()  # every server told first, so that they exit side by side
        for conn in self._connected.values():
            conn.close()
        self._connected.clear()
