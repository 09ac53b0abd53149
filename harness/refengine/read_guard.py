"""Edit and Write of an existing file the context has not read: the engine's read-first guard.

The engine lets an Edit (or a Write over an existing file) of a file it has not read through only where a Read
of that same file would run unasked; where a Read would be asked about or denied, the call is refused in its input
validation, before PreToolUse hooks and with no permission denial listed: "File has not been read yet. Read it
first before writing to it." Measured on 2.1.252 to 2.1.332 in acceptEdits mode (in default mode before the
mode's own refusal, rule-read-ask-edit-unread-default): an ask rule ``Read(src/**)``
refuses an Edit and a Write over src/code.py and lets an Edit of notes.txt run (rule-read-ask-edit-unread; without
the rule all three run, rule-read-ask-edit-unread-none); a bare ``Read`` ask rule refuses an Edit of notes.txt and
lets a Write of a new file run (rule-read-ask-bare-edit-unread). cc-harness explore met it on seed 771203
(x771203-0067: ``ask: Read(*.txt)`` and an Edit of crlf.txt).

Deny rules on Read answer earlier (dispatch._read_denied_write). Not measured, so not modelled: a file the context
read in part, edited, or read in an earlier process, under such a rule; a context that has no Read tool; a
subagent's or a forked skill's read-file state.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.refengine import edit_rules, tool_messages
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import resolve

_MEASURED_MODES = ("default", "acceptEdits")


def unread_refusal(rt: Runtime, conversation: Conversation, name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The guard's refusal for this call, or None where it lets the call on (every later check unchanged)."""
    if name not in ("Edit", "Write"):
        return None
    given = tool_input.get("file_path")
    if not isinstance(given, str):
        return None
    path = resolve(given, workdir=rt.workdir)
    if not path.is_file() or not _guarded_edit(name, tool_input):
        return None  # a new file, or an Edit the engine refuses before the guard for its own reason
    unreadable = _read_would_not_run(rt, conversation, path)
    if unreadable is None:
        return None
    if path in conversation.known_files or path in conversation.seen_files:
        raise NotModelled(f"an {name} of a file this context read or wrote before, under {unreadable}")
    if conversation.kind != "main":
        raise NotModelled(f"an {name} of an unread file in a {conversation.kind} context under {unreadable}")
    if path.suffix == ".ipynb":
        raise NotModelled(f"an {name} of an unread notebook under {unreadable}")
    if (mode := conversation.mode or rt.mode) not in _MEASURED_MODES:
        raise NotModelled(f"an {name} of an unread file under {unreadable} in {mode} mode (measured in default "
                          "and acceptEdits)")
    return tool_messages.FILE_NOT_READ


def _guarded_edit(name: str, tool_input: Mapping[str, Any]) -> bool:
    """An Edit with no change or an empty old_string is refused before the guard (its own texts, run_edit)."""
    if name != "Edit":
        return True
    old, new = tool_input.get("old_string"), tool_input.get("new_string")
    return isinstance(old, str) and old != "" and old != new


def _read_would_not_run(rt: Runtime, conversation: Conversation, path: Path) -> str | None:
    """What would stop a Read of ``path`` from running unasked (a short description), or None."""
    if "Read" not in conversation.callable(rt.profile):
        raise NotModelled("an Edit or Write of an unread file in a context without the Read tool")
    asks = [r for r in rt.rules.ask if r.tool == "Read"]
    if any(r.specifier is None for r in asks):
        return "a bare Read ask rule"
    bound = edit_rules.binding(asks, "Read", path, workdir=rt.workdir)
    if bound:
        return f"the ask rule {bound[0].text}"
    return None
