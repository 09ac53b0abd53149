"""One conversation in Messages API form (``{"role", "content"}`` in order) read into prompts and turns.

Both sources end up here: a session transcript's records and a proxy recording's last request of a
thread are the same alternation of user and assistant messages. A user message is a new prompt when
it follows the model's final answer (an assistant message without a tool call) and holds text of its
own; anything else the engine sends between turns (tool results, a loaded skill's body, reminders)
belongs to the turn before it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.model_request import result_text
from harness.record.model import RecordedCall, RecordedTurn

#: A slash command or its output, as the engine writes them into a session: nothing a model can replay.
_COMMAND_MARKERS = ("<command-name>", "<local-command-stdout>", "<command-message>")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
#: The last turn a thread needs when the recording stopped after a tool call.
_ENDED = "(the recorded session ended here)"


@dataclass(kw_only=True)
class Thread:
    """Prompts, each with the model's turns after it, in order."""

    prompts: list[tuple[str, list[RecordedTurn]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _own(text: str) -> str:
    """A text block without the engine's ``<system-reminder>`` parts (a block that is all reminder: empty)."""
    return _REMINDER.sub("", text).strip() if "<system-reminder>" in text else text


def _prompt_text(content: Any) -> str | None:
    """The user's own text in a message: the string, or its last text block once the engine's reminders
    are taken out; None when it has none (or carries tool results)."""
    if isinstance(content, str):
        return _own(content) if _own(content).strip() else None
    blocks = [b for b in content or () if isinstance(b, Mapping)]
    if any(b.get("type") == "tool_result" for b in blocks):
        return None
    own = [_own(str(b.get("text", ""))) for b in blocks if b.get("type") == "text"]
    own = [t for t in own if t.strip()]
    return own[-1] if own else None


def _results_of(messages: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, bool]]:
    """tool_use_id -> (result text as the scripted model reads it, is_error), from every user message."""
    out: dict[str, tuple[str, bool]] = {}
    for m in messages:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for b in m["content"]:
            if isinstance(b, Mapping) and b.get("type") == "tool_result":
                out[str(b.get("tool_use_id"))] = (result_text(b.get("content")), bool(b.get("is_error", False)))
    return out


def read_thread(messages: Sequence[Mapping[str, Any]], *, where: str) -> Thread:
    """The prompts and turns of one conversation; ``where`` names it in notes."""
    thread = Thread()
    results = _results_of(messages)
    answered = True  # before anything, a user message with text is the first prompt
    for m in messages:
        if m.get("role") == "user":
            text = _prompt_text(m.get("content"))
            if text is None or not answered:
                continue
            if text.lstrip().startswith(_COMMAND_MARKERS):
                thread.notes.append(f"{where}: a slash command or its output was left out: {text.strip()[:80]!r}")
                continue
            thread.prompts.append((text, []))
            continue
        if m.get("role") != "assistant":
            continue
        if not thread.prompts:
            thread.notes.append(f"{where}: an assistant message before any prompt was left out")
            continue
        turns, answered = _turns(m.get("content"), results, where=where, notes=thread.notes)
        thread.prompts[-1][1].extend(turns)
    for _, turns in thread.prompts:
        if not turns or turns[-1].call is not None:
            turns.append(RecordedTurn(say=_ENDED))
    return thread


def _turns(
    content: Any, results: Mapping[str, tuple[str, bool]], *, where: str, notes: list[str]
) -> tuple[list[RecordedTurn], bool]:
    """The turns of one assistant message, and whether it was a final answer (no tool call)."""
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or ())
    texts = [str(b.get("text", "")) for b in blocks if b.get("type") == "text" and str(b.get("text", "")).strip()]
    say = "\n\n".join(texts) if texts else None
    calls = [b for b in blocks if b.get("type") == "tool_use"]
    if not calls:
        return ([RecordedTurn(say=say)] if say is not None else []), True
    if len(calls) > 1:
        names = ", ".join(str(c.get("name")) for c in calls)
        notes.append(
            f"{where}: one message called {len(calls)} tools at once ({names}); the case makes one call per turn"
        )
    turns = []
    for i, block in enumerate(calls):
        answer = results.get(str(block.get("id")))
        call = RecordedCall(
            name=str(block.get("name")),
            input=_plain(block.get("input") or {}),
            result=answer[0] if answer else None,
            is_error=answer[1] if answer else False,
        )
        turns.append(RecordedTurn(say=say if i == 0 else None, call=call))
    return turns, False


def _plain(value: Any) -> dict[str, Any]:
    """A tool input as plain JSON data (the engine sometimes streams it as a JSON string)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return {"input": value}
    return dict(value) if isinstance(value, Mapping) else {"input": value}
