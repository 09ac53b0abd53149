"""MCP servers that did not connect: the harness shows them instead of letting a run fail silently.

An engine reports each configured server's status in its stream-json ``system/init`` event
(``mcp_servers: [{name, status}]``); a server that cannot start (its ``python3`` lacks ``mcp``, say)
is ``failed`` there, and the model later meets only ``No such tool available``. The transcript keeps
the servers that did not connect (nothing when all did, so snapshots of working servers do not
change), and the record's notes add the server's stderr, which claude writes to its MCP log
(``~/.cache/claude-cli-nodejs/<project>/mcp-logs-<server>/*.jsonl``, an ``error`` entry
``Server stderr: ...``, measured on 2.1.332) and the reference engine keeps from the process.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The stderr kept per server in a note (the end of it: where a traceback names its exception).
_STDERR_CHARS = 2000


def not_connected(events: Iterable[dict[str, Any]]) -> tuple[dict[str, str], ...]:
    """``{name, status}`` of each server an init event lists with a status other than ``connected``."""
    out: dict[str, dict[str, str]] = {}
    for event in events:
        if event.get("type") == "system" and event.get("subtype") == "init":
            for server in event.get("mcp_servers") or ():
                if isinstance(server, dict) and server.get("status") != "connected":
                    name = str(server.get("name"))
                    out[name] = {"name": name, "status": str(server.get("status"))}
    return tuple(out.values())


def claude_stderr(home: Path, server: str) -> str:
    """What the server printed on stderr, from claude's MCP log in the run's HOME (empty if none)."""
    lines: list[str] = []
    for log in sorted((home / ".cache" / "claude-cli-nodejs").glob(f"*/mcp-logs-{server}/*.jsonl")):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            error = entry.get("error") if isinstance(entry, dict) else None
            if isinstance(error, str) and error.startswith("Server stderr:"):
                lines.append(error.removeprefix("Server stderr:").strip())
    return "\n".join(lines)[-_STDERR_CHARS:]


def note(server: dict[str, str], stderr: str) -> str:
    said = f"; its stderr: {stderr}" if stderr else "; it printed nothing on stderr"
    return f"MCP server {server['name']}: {server['status']} (its tools are not offered){said}"
