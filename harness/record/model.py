"""A recorded session, engine-neutral: what both sources (a session transcript, a proxy recording)
are read into before a case is written from it.

It is the conversation as the model saw it: per user prompt, the model's turns (text, one tool call)
with the engine's answer to each call, and every other model context (a subagent, a forked skill) with
the task that opened it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True, kw_only=True)
class RecordedCall:
    name: str
    input: dict[str, Any]
    result: str | None
    """The tool_result's text as the model got it (None: the session ended before the engine answered)."""
    is_error: bool = False


@dataclass(frozen=True, kw_only=True)
class RecordedTurn:
    """One assistant message: text, one tool call, or both (a message with several calls is split)."""

    say: str | None = None
    call: RecordedCall | None = None


@dataclass(frozen=True, kw_only=True)
class RecordedStep:
    prompt: str
    turns: tuple[RecordedTurn, ...]


@dataclass(frozen=True, kw_only=True)
class RecordedContext:
    """A model context other than the main thread; ``task`` is its opening user message."""

    name: str
    task: str
    turns: tuple[RecordedTurn, ...]


@dataclass(frozen=True, kw_only=True)
class Recording:
    source: str
    """Where it was read from, for the case's notes."""
    version: str | None
    """The engine version that wrote it (``2.1.332``), when the source says."""
    workdir: Path | None
    """The session's working directory: ``<workdir>`` in normalised text, relative in tool inputs."""
    home: Path | None = None
    tmp: Path | None = None
    permission_mode: str = "default"
    """The case-file form: default, bypass, acceptEdits, plan, dontAsk, auto."""
    agent: str | None = None
    """The main thread's agent (``--agent``)."""
    steps: tuple[RecordedStep, ...] = ()
    contexts: tuple[RecordedContext, ...] = ()
    plugin_dirs: tuple[str, ...] = ()
    """``run.flags.plugin_dirs`` of the case: the plugins the session loaded (record/loaded.py)."""
    uses_home: bool = False
    """The case carries a HOME layout of its own (``home: home``): user skills or agents the session called."""
    notes: tuple[str, ...] = field(default=())
    """What reading the source had to leave out or change (a split parallel call, a slash command)."""
