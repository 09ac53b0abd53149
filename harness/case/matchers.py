"""The checks a case file writes: a text match (exact, contains, lacks, regex, one of), and the checks on the
names offered, the context's text, the request's messages and the stream's events. spec.py builds on them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, kw_only=True)
class TextMatch:
    """Exact text, a substring that must be present or absent, or a regex (searched)."""

    kind: Literal["exact", "contains", "regex", "lacks", "one_of"]
    value: str
    choices: tuple[str, ...] = ()
    """For ``one_of``: every exact text the engine may answer (an engine that does not always say the same)."""

    def matches(self, text: str) -> bool:
        if self.kind == "one_of":
            return text in self.choices
        if self.kind == "exact":
            return text == self.value
        if self.kind == "contains":
            return self.value in text
        if self.kind == "lacks":
            return self.value not in text
        return re.search(self.value, text) is not None

    def describe(self) -> str:
        if self.kind == "one_of":
            return "one of " + " | ".join(repr(c) for c in self.choices)
        return self.value if self.kind == "exact" else f"{self.kind} {self.value!r}"


@dataclass(frozen=True, kw_only=True)
class NameChecks:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    exactly: tuple[str, ...] | None = None

    def problems(self, names: list[str], *, verb: str = "offered") -> list[str]:
        found = set(names)
        out = [f"tool {n} not {verb}" for n in self.include if n not in found]
        out += [f"tool {n} {verb}" for n in self.exclude if n in found]
        if self.exactly is not None and sorted(found) != sorted(self.exactly):
            out.append(f"tools {verb} {sorted(found)}, expected exactly {sorted(self.exactly)}")
        return out


@dataclass(frozen=True, kw_only=True)
class TextChecks:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def problems(self, text: str, *, what: str) -> list[str]:
        out = [f"{what} lacks {s!r}" for s in self.include if s not in text]
        out += [f"{what} holds {s!r}" for s in self.exclude if s in text]
        return out


@dataclass(frozen=True, kw_only=True)
class MessageCheck:
    """One message of the request, by position: its role and what its text holds."""

    index: int
    """Python-style: -1 is the last message of the request."""
    role: Literal["user", "assistant"] | None = None
    block: int | None = None
    """Narrow to one content block of the message (Python-style index)."""
    contains: str | None = None
    lacks: str | None = None

    def problems(self, messages: tuple[dict[str, Any], ...], *, text_of: Any) -> list[str]:
        where = f"message[{self.index}]" + (f".block[{self.block}]" if self.block is not None else "")
        try:
            message = messages[self.index]
        except IndexError:
            return [f"{where}: the request has only {len(messages)} messages"]
        out = []
        if self.role is not None and message.get("role") != self.role:
            out.append(f"{where}: role is {message.get('role')!r}, expected {self.role!r}")
        content = message.get("content")
        if self.block is not None:
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            try:
                content = [blocks[self.block]]
            except IndexError:
                return [*out, f"{where}: the message has only {len(blocks)} blocks"]
        text = text_of(content)
        if self.contains is not None and self.contains not in text:
            out.append(f"{where} lacks {self.contains!r}")
        if self.lacks is not None and self.lacks in text:
            out.append(f"{where} holds {self.lacks!r}")
        return out


@dataclass(frozen=True, kw_only=True)
class Offered:
    tools: NameChecks | None = None
    context: TextChecks | None = None
    messages: tuple[MessageCheck, ...] = ()
    model: TextMatch | None = None
    """The model id the request names (``contains: haiku``): an agent's ``model:`` or ``--model`` at work."""


@dataclass(frozen=True, kw_only=True)
class EventCheck:
    """Stream-json events of one prompt, each pattern a subset of an event's JSON."""

    include: tuple[dict[str, Any], ...] = ()
    exclude: tuple[dict[str, Any], ...] = ()
