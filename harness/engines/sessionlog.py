"""What the engine shows the user from hooks and records nowhere else: read from its session log.

Print mode prints only the last result, so a hook's ``stopReason`` (``continue: false``), its
``systemMessage`` and a ``sessionTitle`` never reach stdout. The engine records each in the session's log
(``~/.claude/projects/<project>/<session>.jsonl``, the file ``--resume`` reads and the interactive view
renders): measured on 2.1.252 to 2.1.332, an attachment ``hook_stopped_continuation`` (``message``: the
stopReason), an attachment ``hook_system_message`` (``content``), an entry ``custom-title``
(``customTitle``). Each becomes one notice line, in the order the log holds them; a title the log repeats
(it is written again after every turn) is listed once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def notices(home: Path) -> tuple[str, ...]:
    """The notice lines of every session log in the run's HOME, oldest log first (subagents' logs, in a
    folder of their session, are not the user's view and are left out)."""
    logs = sorted((home / ".claude" / "projects").glob("*/*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    out: list[str] = []
    for path in logs:
        for line in _lines(path):
            if line not in out or not line.startswith("title: "):
                out.append(line)
    return tuple(out)


def _lines(path: Path) -> Iterator[str]:
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError:
            continue  # a line cut short by a process that was killed
        if isinstance(entry, dict) and (line := _notice(entry)) is not None:
            yield line


def _notice(entry: dict[str, Any]) -> str | None:
    """One log entry as a notice line: ``stopped by PostToolUse:Bash: <stopReason>``, ``system message from
    SessionStart:startup: <text>``, ``title: <sessionTitle>``; None for any other entry."""
    if entry.get("type") == "custom-title" and isinstance(entry.get("customTitle"), str):
        return f"title: {entry['customTitle']}"
    attachment = entry.get("attachment")
    if entry.get("type") != "attachment" or not isinstance(attachment, dict):
        return None
    hook = attachment.get("hookName", "a hook")
    if attachment.get("type") == "hook_stopped_continuation":
        return f"stopped by {hook}: {attachment.get('message', '')}"
    if attachment.get("type") == "hook_system_message":
        return f"system message from {hook}: {attachment.get('content', '')}"
    return None
