"""What passes between an engine and the scripted model: a request as the engine sent it (``ModelRequest``),
the text of its blocks, and one exchange of the journal (``Exchange``). scripted.py answers the requests."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from harness.case import Turn

ID_PREFIX = "toolu_cch_"


@dataclass(frozen=True, kw_only=True)
class ModelRequest:
    """What an engine sent the model: the system text, messages in API form, the offered tool names."""

    system: str
    messages: tuple[dict[str, Any], ...]
    tools: tuple[str, ...]
    model: str = ""
    """The request's ``model`` (the id the engine asked for; empty where the engine names none)."""

    @property
    def opening(self) -> str:
        first = next((m for m in self.messages if m["role"] == "user"), None)
        return block_text(first["content"]) if first else ""

    def opens_with_prompt(self, prompt: str) -> bool:
        """Whether the opening user message carries ``prompt`` as one whole text block.

        A hook's or subagent's opening message may quote the user's prompt inside other text (a hook
        payload, a task); only the main thread's has it as a block of its own.
        """
        first = next((m for m in self.messages if m["role"] == "user"), None)
        if first is None:
            return False
        content = first["content"]
        blocks = (
            [content] if isinstance(content, str) else [b.get("text", "") for b in content if b.get("type") == "text"]
        )
        command = slash_command_header(prompt)
        if command is not None:
            return any(all(tag in b for tag in command) for b in blocks)
        return any(b.strip() == prompt.strip() for b in blocks)

    def all_text(self) -> str:
        return "\n".join([self.system, *(block_text(m["content"]) for m in self.messages)])

    def issued_ids(self) -> list[str]:
        return [
            b["id"]
            for m in self.messages
            if m["role"] == "assistant" and isinstance(m["content"], list)
            for b in m["content"]
            if b.get("type") == "tool_use" and str(b.get("id", "")).startswith(ID_PREFIX)
        ]

    def tool_results(self) -> dict[str, dict[str, Any]]:
        """tool_use_id -> tool_result block, for every result in the request."""
        return {
            b["tool_use_id"]: b
            for m in self.messages
            if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"]
            if b.get("type") == "tool_result"
        }


def slash_command_header(prompt: str) -> tuple[str, ...] | None:
    """For a prompt that is a slash command (``/name args``), the tags its expansion opens the main thread
    with: ``<command-name>/name</command-name>`` and ``<command-args>args</command-args>`` (measured on
    2.1.252 to 2.1.332: the expanded body follows in a block of its own); without arguments only the first
    (2.1.332 leaves ``<command-args>`` out then: slash-command-no-args); None for any other prompt."""
    match = re.fullmatch(r"/([A-Za-z0-9_.:-]+)(?:\s+(.*))?", prompt.strip(), re.DOTALL)
    if match is None:
        return None
    name = f"<command-name>/{match[1]}</command-name>"
    return (name, f"<command-args>{match[2]}</command-args>") if match[2] else (name,)


_REMINDER = re.compile(r"\s*<system-reminder>.*?</system-reminder>\s*", re.DOTALL)


def result_text(content: Any) -> str:
    """A tool_result's own text: the engine's ``<system-reminder>`` additions are context, not output."""
    text = block_text(content)
    return _REMINDER.sub("\n", text).strip("\n") if "<system-reminder>" in text else text


def reminder_text(content: Any) -> str:
    """The ``<system-reminder>`` blocks of a tool_result (what ``result_text`` leaves out), their inner texts
    joined by a blank line; empty when it has none."""
    found = re.findall(r"<system-reminder>(.*?)</system-reminder>", block_text(content), re.DOTALL)
    return "\n\n".join(text.strip("\n") for text in found)


def block_text(content: Any) -> str:
    """The text of a message or tool_result content: a string, or the text of its blocks joined."""
    if isinstance(content, str):
        return content
    parts = []
    for b in content or ():
        if b.get("type") == "text":
            parts.append(b["text"])
        elif b.get("type") == "tool_result":
            parts.append(block_text(b.get("content")))
        elif b.get("type") == "tool_use":
            parts.append(json.dumps(b.get("input"), sort_keys=True))
    return "\n".join(parts)


@dataclass(kw_only=True)
class Exchange:
    """One scripted turn served: where, what was offered, what was said, and the engine's answer."""

    context: str
    step: int | None
    turn: int
    thread: int
    offered: tuple[str, ...]
    problems: list[str]
    reply: Turn
    result: str | None = None
    is_error: bool | None = None
    final_result: str | None = None
    """The tool_result the thread's last request held, when it differs from the first one."""
    reminders: str | None = None
    """The ``<system-reminder>`` text of the first tool_result (reminder_text)."""
    model: str = ""
    """The model id the request this turn answers named."""
