"""What the built-in tools are: their names, the input each takes and the schema check it runs first, the
working copy a call runs in (``ToolEnvironment``) and what a call gives back (``ToolResult``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.refengine import messages
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import InputErrorTypes, Profile

# A4: tools lists, rules, matchers and calls may say Task for the Agent tool (renamed in 2.1.63).
ALIASES = {"Task": "Agent"}
# Offered, in the real engine's order (sorted by name, MCP tools after), when present in a pool.
MODELLED_BUILTINS = ("Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "Skill", "WebFetch",
                     "WebSearch", "Write")
# Known to the engine and never enabled in print mode: an agent's tools list drops it silently, a call gets
# "... is disabled for this session, in subagents as well as here." (measured on 2.1.252 to 2.1.332).
# MultiEdit is no tool at all on those versions: a call gets the bare "No such tool available".
DISABLED_BUILTINS = frozenset({"TodoWrite"})
# Built-ins of the engine's surface the reference engine does not run: what a call answers depends on the
# release (ToolSearch and Monitor exist from 2.1.332 only, TaskOutput up to 2.1.257) and on state it does not
# keep (cron jobs, background tasks, other sessions, worktrees). The tool-builtin-* cases measure them; a call
# to one is not-modelled.
UNMODELLED_BUILTINS = frozenset({
    "CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree", "ListAgents", "Monitor",
    "ReportFindings", "ScheduleWakeup", "SendMessage", "TaskOutput", "TaskStop", "ToolSearch", "Workflow",
})
SEARCH_TOOLS = frozenset({"Glob", "Grep"})
FILE_WRITING_TOOLS = frozenset({"Write", "Edit", "NotebookEdit"})


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    """What goes back to the model, plus the structured form PostToolUse hooks receive."""

    content: str | list[dict[str, Any]]
    is_error: bool | None = None
    """None leaves the flag out of the tool_result block, as the real engine does for Read/Write."""
    response: Any = None

    @property
    def failed(self) -> bool:
        return self.is_error is True


def tool_error(text: str) -> ToolResult:
    return ToolResult(content=text, is_error=True)


@dataclass(frozen=True, kw_only=True)
class _ToolSpec:
    required: tuple[str, ...]
    string_params: tuple[str, ...] = ()
    path_param: str | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    """Schema order: the real engine re-serialises an input in it (measured for Agent and Edit)."""


SPECS: Mapping[str, _ToolSpec] = {
    "Bash": _ToolSpec(required=("command",), string_params=("command",)),
    "Read": _ToolSpec(required=("file_path",), string_params=("file_path",), path_param="file_path"),
    "Write": _ToolSpec(required=("file_path", "content"), string_params=("file_path", "content"),
                      path_param="file_path"),
    "Edit": _ToolSpec(required=("file_path", "old_string", "new_string"),
                     string_params=("file_path", "old_string", "new_string"), path_param="file_path",
                     defaults={"replace_all": False}, order=("file_path", "old_string", "new_string", "replace_all")),
    # Measured: permission_denials name the notebook by its absolute path, in the input's own order.
    "NotebookEdit": _ToolSpec(required=("notebook_path", "new_source"),
                             string_params=("notebook_path", "new_source"), path_param="notebook_path"),
    "Glob": _ToolSpec(required=("pattern",), string_params=("pattern",)),
    "Grep": _ToolSpec(required=("pattern",), string_params=("pattern",)),
    "WebFetch": _ToolSpec(required=("url", "prompt"), string_params=("url", "prompt")),
    "WebSearch": _ToolSpec(required=("query",), string_params=("query",)),
    "Skill": _ToolSpec(required=("skill",), string_params=("skill",)),
    "Agent": _ToolSpec(required=("description", "prompt"), string_params=("description", "prompt"),
                      order=("description", "prompt", "subagent_type", "model", "run_in_background")),
    "StructuredOutput": _ToolSpec(required=("ok",)),
}


def validation_error(tool: str, tool_input: Mapping[str, Any], types: InputErrorTypes = "named") -> str | None:
    """The schema check that runs before any hook (notes §1.1: rejections fire no hook). ``types``: the
    profile's ``input_error_types``, how the message names what the call gave."""
    spec = SPECS.get(tool)
    if spec is None:
        return None
    missing = next((name for name in spec.required if name not in tool_input), None)
    mistyped = next((name for name in spec.string_params
                     if name in tool_input and not isinstance(tool_input[name], str)), None)
    if missing is None and mistyped is None:
        return None
    if types == "unknown":
        # 2.1.260 to 2.1.284: a missing parameter and a mistyped one read alike, the given type named `unknown`.
        name = missing if missing is not None and missing in spec.string_params else mistyped
        if name is None:
            raise NotModelled(f"{tool}'s missing non-string parameter {missing} on a release that names no type")
        return messages.wrong_parameter_type(tool, name, "string", "unknown")
    if missing is not None:
        return messages.missing_parameter(tool, missing)
    assert mistyped is not None
    return messages.wrong_parameter_type(tool, mistyped, "string", json_type(tool_input[mistyped]))


def json_type(value: object) -> str:
    """The type name the engine's message gives a value (measured for a number, a boolean and an array on
    2.1.252 to 2.1.332: tool-builtin-input-errors); the others are not measured."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "array"
    raise NotModelled(f"a parameter of type {type(value).__name__} where a string is expected")


def normalized_input(tool: str, tool_input: Mapping[str, Any], *, workdir: Path) -> dict[str, Any]:
    """The input as hooks and permission_denials report it: absolute file paths and filled defaults
    (measured: Edit gains ``replace_all: false`` at the end)."""
    spec = SPECS.get(tool)
    out = dict(tool_input)
    if spec is None:
        return out
    if spec.path_param and isinstance(out.get(spec.path_param), str):
        out[spec.path_param] = str(resolve(out[spec.path_param], workdir=workdir))
    for key, value in spec.defaults.items():
        out.setdefault(key, value)
    ordered = {key: out[key] for key in spec.order if key in out}
    return {**ordered, **{k: v for k, v in out.items() if k not in ordered}}


def skill_name(tool_input: Mapping[str, Any]) -> str:
    """The skill a Skill call names: trimmed, a leading slash dropped."""
    return str(tool_input.get("skill", "")).strip().removeprefix("/")


def resolve(path: str, *, workdir: Path) -> Path:
    if path.startswith("~"):
        # The real engine reads ~/ as the run's HOME (measured: settings-perm-block-reads-outside-absent); this
        # engine does not know that HOME here, and the harness's own would be wrong.
        raise NotModelled(f"a file path that starts with ~ ({path})")
    return Path(os.path.normpath(workdir / path))


def inside(path: Path, workdir: Path) -> bool:
    return path == workdir or path.is_relative_to(workdir)


@dataclass(frozen=True, kw_only=True)
class ToolEnvironment:
    workdir: Path
    env: Mapping[str, str]
    profile: Profile
    known: set[Path] = field(default_factory=set)
    """Files this context holds whole (read in full, written, or created by Edit), the engine's read-file
    state: NotebookEdit needs it, and 2.1.332's Edit note depends on it. One set per context (measured: a
    subagent's Edit of a file its parent read gets no note on 2.1.332)."""
    read_views: dict[Path, str] = field(default_factory=dict)
    """Files this context read whole, with the content then (Conversation.read_views)."""
    seen: dict[Path, str] = field(default_factory=dict)
    """Files this context read (any part), wrote or edited, with the content then: a later Write or Edit of one
    that changed on disk since is an error in the real engine whose wording is not measured."""
