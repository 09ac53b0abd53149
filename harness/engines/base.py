"""The engine seam: one small interface that every engine adapter implements."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness.case import Case
from harness.engine_name import EngineName
from harness.scripted import ScriptedModel


@dataclass(frozen=True, kw_only=True)
class StepOutput:
    """What the engine itself printed for one user prompt (stream-json ``result`` and friends)."""

    step: int
    result: str | None = None
    is_error: bool = False
    permission_denials: tuple[dict[str, Any], ...] = ()
    init_tools: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    """The other stream-json events printed for this prompt (system, assistant, user, ...), in order."""
    mcp_failed: tuple[dict[str, str], ...] = ()
    """``{name, status}`` of each MCP server that did not connect (mcpstatus.py)."""


@dataclass(frozen=True, kw_only=True)
class EngineRun:
    """Everything an adapter observed beyond the scripted model's journal."""

    steps: tuple[StepOutput, ...]
    debug_log: str = ""
    stderr: str = ""
    """What the engine printed on stderr, every process's joined."""
    engine_seconds: float | None = None
    """Wall time of the engine processes themselves (None where the engine runs in process)."""
    notes: tuple[str, ...] = field(default=())
    notices: tuple[str, ...] = field(default=())
    """What the engine showed the user from hooks (a stopReason, a systemMessage, a session title), one line
    each (sessionlog.py); read only for a case that checks it."""
    races: tuple[tuple[str, ...], ...] = field(default=())
    approvals: tuple[dict[str, Any], ...] = field(default=())
    """The permission prompts the engine showed (a case with ``approvals``), in order: ``{"tool", "input",
    "answer"}``, answer the index of the case's answer given, None when it had none left."""
    """Texts a race decides (the reference engine's, e.g. several hooks blocking one event): each entry's
    first is the text this run gave, the others what the engine may give instead on another run."""


class Engine(Protocol):
    """An engine that can run a case.

    ``name`` is its family and version (``reference@2.1.252``, ``claude@2.1.252``).
    """

    @property
    def name(self) -> EngineName: ...

    @property
    def version(self) -> str: ...

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` and return what the engine printed.

        ``workdir`` is a private copy of the case's fixture (the engine's working directory), ``home`` the
        run's HOME (seeded with the case's user-level files) and ``tmp`` its TMPDIR; the engine writes
        nowhere else. Every model turn is asked of ``model``. Raises an EngineError subclass when the
        engine crashes (EngineCrash), times out (EngineTimeout) or its API fails (ApiFault), NotModelled
        when the reference engine abstains; a script failure surfaces as ScriptError from ``model`` (the
        adapter re-raises it after the engine has stopped).
        """
        ...
