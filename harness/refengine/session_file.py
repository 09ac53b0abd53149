"""The session transcript the engine writes, ``~/.claude/projects/<project key>/<session id>.jsonl``.

Hooks get its path as ``transcript_path`` and read it: a Stop gate that checks whether a test command ran, a
loop that reads the last assistant message. Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (cases
session-stop-gate-reads-transcript, session-stop-hook-last-message, subagent-tools-used-summary-session; the same
lines on all four): when a Stop
hook runs, the file holds the main thread's messages, one JSON object a line, in this form:

- the prompt: ``{"type": "user", "message": {"role": "user", "content": "<prompt text>"}, ...}``;
- each content block of an assistant reply on a line of its own (a text and a tool_use of one reply are two
  lines with the same ``message.id``): ``{"type": "assistant", "message": {"id", "type": "message", "role":
  "assistant", "content": [<one block>], "stop_reason"}, ...}``;
- the tool results of a turn: ``{"type": "user", "message": {"role": "user", "content": [{"tool_use_id",
  "type": "tool_result", "content": "<text>", "is_error"}]}, ...}``;
- every such line also has ``parentUuid`` (the line before), ``isSidechain: false``, ``uuid``, ``timestamp``,
  ``sessionId`` and ``cwd``.

A program that opens the file makes the run not-modelled (transcript_reads.py): what the real file holds besides,
and this one does not (NOT_MODELLED.md): the other line kinds
(``attachment``, ``queue-operation``, ``last-prompt``, 2.1.332's ``api-request`` ...), the other fields of a
message line (``version``, ``gitBranch``, ``promptId``, ``toolUseResult``, the model and usage of a reply),
the engine's context messages, hook feedback, and forked skills' transcripts. A subagent's transcript has the same
lines, ``isSidechain: true`` with its ``agentId``, and opens with its task.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def project_folder(home: Path, workdir: Path) -> Path:
    """Where the real engine keeps a project's transcripts: ``~/.claude/projects/<workdir, each character other
    than a letter or digit made a dash>`` (measured)."""
    return home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workdir))


@dataclass(kw_only=True)
class SessionFile:
    path: Path
    session_id: str
    cwd: Path
    agent_id: str | None = None
    """A subagent's transcript (``<session>/subagents/agent-<id>.jsonl``): its lines are ``isSidechain`` and
    carry ``agentId`` (measured on 2.1.252 to 2.1.332, subagent-tools-used-summary-session)."""
    _last: str | None = None
    _replies: int = field(default=0)

    def prompt(self, text: str | list[dict[str, Any]]) -> None:
        self._line("user", {"role": "user", "content": text})

    def command(self, header: str, body: str) -> None:
        """A slash command prompt: its header line, then its expanded body as a meta line (measured)."""
        self._line("user", {"role": "user", "content": header})
        self._line("user", {"role": "user", "content": [{"type": "text", "text": body}]}, meta=True)

    def reply(self, blocks: list[dict[str, Any]]) -> None:
        """One assistant reply: a line per content block, as the real engine writes them."""
        self._replies += 1
        message_id = f"msg_ref_{self._replies:04d}"
        stop = "tool_use" if any(b.get("type") == "tool_use" for b in blocks) else "end_turn"
        for block in blocks:
            self._line("assistant", {"id": message_id, "type": "message", "role": "assistant", "content": [block],
                                     "stop_reason": stop})

    def tool_results(self, blocks: list[dict[str, Any]]) -> None:
        results = [_result_line(b) for b in blocks if b.get("type") == "tool_result"]
        if results:
            self._line("user", {"role": "user", "content": results})

    def _line(self, kind: str, message: dict[str, Any], *, meta: bool = False) -> None:
        line_id = str(uuid.uuid4())
        entry = {"parentUuid": self._last, "isSidechain": self.agent_id is not None,
                 **({"agentId": self.agent_id} if self.agent_id else {}), "type": kind, "message": message,
                 **({"isMeta": True} if meta else {}), "uuid": line_id,
                 "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                 "sessionId": self.session_id, "cwd": str(self.cwd)}
        self._last = line_id
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")


def _result_line(block: dict[str, Any]) -> dict[str, Any]:
    """A tool_result as the file holds it: its content as one text (measured for a text result)."""
    content = block.get("content")
    if isinstance(content, list) and all(b.get("type") == "text" for b in content):
        content = "\n".join(b.get("text", "") for b in content)  # other blocks (an image) stay as the request has them
    return {"tool_use_id": block.get("tool_use_id"), "type": "tool_result", "content": content,
            **({"is_error": block["is_error"]} if "is_error" in block else {})}
