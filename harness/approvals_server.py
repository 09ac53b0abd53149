"""The user at the permission prompt: a stdio MCP server whose one tool answers as a case scripts.

``claude -p --permission-prompt-tool mcp__<server>__approve`` calls this tool where an interactive
session would show the user a permission prompt, with ``{"tool_name", "input", "tool_use_id"}``; the
tool's text answer is the user's decision, ``{"behavior": "allow", "updatedInput": {...}}`` or
``{"behavior": "deny", "message": "..."}``.

Run as a script, it needs nothing but the standard library (the engine starts it with the harness's
Python, whatever is installed there): ``python3 approvals_server.py ANSWERS LOG``. ANSWERS is a JSON list,
one answer per prompt in order (``{"answer": "allow"|"deny", "updated_input": {...}, "message": "...",
"wait": seconds}``);
LOG gets one JSON line per prompt (the tool, its input, the number of the answer given). The count of LOG's
lines is the number of the next prompt, so a case whose steps run in several engine processes (a resumed
session) goes on through its answers. A prompt beyond the scripted answers is denied with UNSCRIPTED and
logged as such: the run's checks fail on it.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

TOOL = "approve"
UNSCRIPTED = "cc-harness: the case scripts no answer to this permission prompt"
_SCHEMA = {
    "type": "object",
    "properties": {"tool_name": {"type": "string"}, "input": {"type": "object"}, "tool_use_id": {"type": "string"}},
    "required": ["tool_name", "input"],
}


def _decide(answers: list[dict[str, Any]], number: int, tool_input: dict[str, Any]) -> dict[str, Any]:
    """The decision for the ``number``-th prompt (from 0): what the engine reads from the tool's answer."""
    if number >= len(answers):
        return {"behavior": "deny", "message": UNSCRIPTED}
    answer = answers[number]
    if answer["answer"] == "allow":
        # the engine's schema wants updatedInput on an allow: the call's own input unless the case changes it
        return {"behavior": "allow", "updatedInput": answer.get("updated_input", tool_input)}
    decision: dict[str, Any] = {"behavior": "deny", "message": answer.get("message", "")}
    return decision


def answer_prompt(answers_file: Path, log_file: Path, arguments: dict[str, Any]) -> dict[str, Any]:
    """Answer one prompt and log it; returns the decision."""
    answers = json.loads(answers_file.read_text(encoding="utf-8"))
    number = len(log_file.read_text(encoding="utf-8").splitlines()) if log_file.exists() else 0
    tool_input = arguments.get("input") or {}
    decision = _decide(answers, number, tool_input)
    if number < len(answers):
        time.sleep(answers[number].get("wait", 0))  # the user reading the prompt before answering
    given = number if number < len(answers) else None
    record = {"tool": arguments.get("tool_name"), "input": tool_input, "answer": given}
    with log_file.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
    return decision


def _handle(message: dict[str, Any], answers_file: Path, log_file: Path) -> dict[str, Any] | None:
    """The JSON-RPC reply to one message (None for a notification)."""
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return None
    result: dict[str, Any]
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2024-11-05")
        result = {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "cc-harness-approvals", "version": "1"},
        }
    elif method == "tools/list":
        tool = {"name": TOOL, "description": "The user's answer to a permission prompt.", "inputSchema": _SCHEMA}
        result = {"tools": [tool]}
    elif method == "tools/call":
        params = message.get("params", {})
        if params.get("name") != TOOL:
            error = {"code": -32602, "message": f"no tool {params.get('name')}"}
            return {"jsonrpc": "2.0", "id": ident, "error": error}
        decision = answer_prompt(answers_file, log_file, params.get("arguments") or {})
        result = {"content": [{"type": "text", "text": json.dumps(decision)}]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def _serve(answers_file: Path, log_file: Path) -> None:
    """Read newline-delimited JSON-RPC from stdin until it closes, answering each request on stdout."""
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = _handle(json.loads(line), answers_file, log_file)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    _serve(Path(sys.argv[1]), Path(sys.argv[2]))
